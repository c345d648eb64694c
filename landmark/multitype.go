package landmark

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// MultiType is the multi-type cluster kernel (MultiType) on M
// landmarks, in the manner of Fowlkes, Belongie, Chung & Malik ("Spectral
// grouping using the Nyström method", PAMI 2004): the Gaussian affinity is
// replaced by its Nyström approximation W ≈ Z·Zᵀ (Z the N×r features of
// RBF{Gamma} on the landmarks, newNystrom), and every step of MultiType is
// then done on that low-rank form in O(N·r²):
//
//	d = Z·(Zᵀ1)                 degrees of W
//	Q = D^{-1/2}·Z              so L = D^{-1/2} W D^{-1/2} = Q·Qᵀ
//	QᵀQ = V·Σ·Vᵀ                the non-zero eigenpairs of L: U = Q·V·Σ^{-1/2}, eigenvalues Σ
//	F = Q·V·Σ^{-1/2}·φ(Σ)^{1/2} so L̃ = U·φ(Σ)·Uᵀ = F·Fᵀ (φ of the Transfer)
//	f̂_i = F_i / ‖F_i‖           so K_ij = L̃_ij/√(L̃_ii·L̃_jj) = f̂_i·f̂_j
//
// The features f̂ (r' columns, the eigenvalues with φ > 0) are the map: a
// linear learner on them sees K. With every row a landmark, Z·Zᵀ is the
// affinity up to the eigenvalues newNystrom clips, and K equals
// MultiType.Gram (tested). A new point x gets z(x) (its Nyström row),
// d(x) = z(x)·(Zᵀ1), and f̂(x) from q(x) = z(x)/√d(x) by the same
// projection — the Nyström extension of the eigenvectors
// (U(x) = L(x, ·)·U·Σ⁻¹), which gives a training point its own features.
// W_ii = 1 only (ZeroDiag is not a low-rank form). Errors: ErrBadParam,
// ErrDegenerate (a degree ≤ 0 — the Nyström affinity of a point far from
// every landmark — or no eigenvalue kept), ErrEigen.
type MultiType struct {
	// Landmarks are the landmark rows; Rank the number of features.
	Landmarks []int
	Rank      int
	mt        kernel.MultiType
	ny        *Nystrom
	sum       []float64  // Zᵀ1 over the training rows (r)
	proj      *mat.Dense // r×r' = V·Σ^{-1/2}·φ(Σ)^{1/2}
}

// newMultiType fits the map on the landmark rows of X and returns
// it with the N×r' features of the rows of X. rcond as newNystrom (and for
// the eigenvalues of QᵀQ).
func newMultiType(ctx context.Context, X mat.Matrix, m kernel.MultiType, landmarks []int, rcond float64) (*MultiType, *mat.Dense, error) {
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	if m.ZeroDiag {
		return nil, nil, fmt.Errorf("%w: multitype with landmarks needs W_ii = 1 (ZeroDiag has no Nyström form)", kernel.ErrBadParam)
	}
	ny, err := newNystrom(ctx, X, kernel.RBF{Gamma: m.Gamma}, landmarks, rcond)
	if err != nil {
		return nil, nil, err
	}
	Z, err := ny.Features(ctx, X)
	if err != nil {
		return nil, nil, err
	}
	n, r := Z.Dims()
	sum := make([]float64, r)
	for i := 0; i < n; i++ {
		for c, v := range Z.RawRowView(i) {
			sum[c] += v
		}
	}
	nm := &MultiType{Landmarks: append([]int(nil), landmarks...), mt: m, ny: ny, sum: sum}
	// Q = D^{-1/2} Z in place of Z.
	for i := 0; i < n; i++ {
		if err := nm.scaleRow(Z.RawRowView(i), i); err != nil {
			return nil, nil, err
		}
	}
	C := mat.NewSymDense(r, nil)
	C.SymOuterK(1, Z.T())
	vals, V, err := eigen.Sym(ctx, C, true)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: landmark multitype: %w: %w", kernel.ErrEigen, err)
	}
	if rcond == 0 {
		rcond = float64(r) * 0x1p-52
	}
	top := vals[r-1]
	var cols [][]float64
	for j := r - 1; j >= 0; j-- {
		s := vals[j]
		if !(top > 0 && s > rcond*top) {
			continue
		}
		phi := m.Phi(s)
		if !(phi > 0) {
			continue
		}
		col := make([]float64, r)
		f := math.Sqrt(phi / s)
		for i := range col {
			col[i] = V.At(i, j) * f
		}
		cols = append(cols, col)
	}
	if len(cols) == 0 {
		return nil, nil, fmt.Errorf("%w: landmark multitype: no eigenvalue of L is kept by the %s transfer", kernel.ErrDegenerate, m.Transfer)
	}
	nm.Rank = len(cols)
	nm.proj = mat.NewDense(r, nm.Rank, nil)
	for c, col := range cols {
		nm.proj.SetCol(c, col)
	}
	F, err := nm.project(ctx, Z)
	return nm, F, err
}

// scaleRow divides the Nyström row z of point i (−1: a new point) by the
// square root of its degree z·(Zᵀ1).
func (nm *MultiType) scaleRow(z []float64, i int) error {
	d := 0.0
	for c, v := range z {
		d += v * nm.sum[c]
	}
	if !(d > 0) || math.IsInf(d, 0) {
		what := "a new point"
		if i >= 0 {
			what = fmt.Sprintf("point %d", i)
		}
		return fmt.Errorf("%w: landmark multitype: %s has Nyström degree %v (far from every landmark: Gamma too large, or more landmarks)", kernel.ErrDegenerate, what, d)
	}
	s := 1 / math.Sqrt(d)
	for c := range z {
		z[c] *= s
	}
	return nil
}

// project returns the unit rows of Q·proj.
func (nm *MultiType) project(ctx context.Context, Q *mat.Dense) (*mat.Dense, error) {
	n, _ := Q.Dims()
	F := mat.NewDense(n, nm.Rank, nil)
	F.Mul(Q, nm.proj)
	var bad error
	err := parallel.Chunks(ctx, n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := F.RawRowView(i)
			s := 0.0
			for _, v := range row {
				s += v * v
			}
			if !(s > 0) {
				if bad == nil {
					bad = fmt.Errorf("%w: landmark multitype: row %d has no weight in the kept spectrum", kernel.ErrDegenerate, i)
				}
				continue
			}
			s = 1 / math.Sqrt(s)
			for c := range row {
				row[c] *= s
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return F, bad
}

// Features returns the t×r' features of new points (see the type).
// Errors: those of Nystrom.Features, ErrDegenerate, ctx.Err().
func (nm *MultiType) Features(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	Z, err := nm.ny.Features(ctx, Xt)
	if err != nil {
		return nil, err
	}
	t, _ := Z.Dims()
	for i := 0; i < t; i++ {
		if err := nm.scaleRow(Z.RawRowView(i), -1); err != nil {
			return nil, err
		}
	}
	return nm.project(ctx, Z)
}

const multitypeFormat = "arbor-nystrom-multitype"

type multitypeJSON struct {
	Format    string          `json:"format"`
	Version   int             `json:"version"`
	Kernel    string          `json:"kernel"` // the MultiType spec text
	Landmarks []int           `json:"landmarks"`
	Rank      int             `json:"rank"`
	Sum       modelio.Floats  `json:"sum"`
	Proj      modelio.Floats  `json:"proj"` // r×rank
	Affinity  json.RawMessage `json:"affinity"`
}

// Save writes the map (format "arbor-nystrom-multitype", version 1): the
// transfer settings, the Gaussian Nyström map (its own saved form), Zᵀ1
// and the projection, so that LoadMultiType gives new points the
// same features.
func (nm *MultiType) Save(w io.Writer) error {
	var aff bytes.Buffer
	if err := nm.ny.Save(&aff); err != nil {
		return err
	}
	return modelio.Encode(w, multitypeJSON{Format: multitypeFormat, Version: mapVersion, Kernel: kernel.Spec{Kind: kernel.KindMultiType, Multi: &nm.mt}.String(),
		Landmarks: nm.Landmarks, Rank: nm.Rank, Sum: nm.sum, Proj: mat.DenseCopyOf(nm.proj).RawMatrix().Data, Affinity: aff.Bytes()})
}

// LoadMultiType reads a map written by MultiType.Save.
// Errors: ErrFormat.
func LoadMultiType(r io.Reader) (*MultiType, error) {
	var in multitypeJSON
	if err := modelio.Decode(r, &in, multitypeFormat, mapVersion, ErrFormat); err != nil {
		return nil, err
	}
	sp, err := kernel.ParseSpec(in.Kernel)
	if err != nil || sp.Kind != kernel.KindMultiType {
		return nil, fmt.Errorf("%w: kernel %.40q: %v", ErrFormat, in.Kernel, err)
	}
	ny, err := LoadNystrom(bytes.NewReader(in.Affinity))
	if err != nil {
		return nil, err
	}
	if in.Rank < 1 || len(in.Sum) != ny.Rank || !modelio.IsShape(len(in.Proj), ny.Rank, in.Rank) {
		return nil, fmt.Errorf("%w: landmark multitype of rank %d on %d Nyström features: blocks of %d and %d values", ErrFormat,
			in.Rank, ny.Rank, len(in.Sum), len(in.Proj))
	}
	if err := allFinite(in.Sum, in.Proj); err != nil {
		return nil, err
	}
	return &MultiType{Landmarks: in.Landmarks, Rank: in.Rank, mt: *sp.Multi, ny: ny, sum: in.Sum,
		proj: mat.NewDense(ny.Rank, in.Rank, in.Proj)}, nil
}
