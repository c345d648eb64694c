package landmark

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// SingleAllRowsMaxN is the largest N for which newNystromSingle is used
// for the landmark single-linkage kernels (hck:single, connectivity): its
// tree is Prim's minimum spanning tree of all N rows, O(N²·d) time in O(N)
// memory (about 2 s at N = 20,000, d = 16). Above it the tree is built on
// the landmarks alone (newNystromHCK).
const SingleAllRowsMaxN = 100000

// newNystromSingle fits the landmark single-linkage cluster kernel on the
// single-linkage tree of ALL rows of X instead of the landmarks alone, and
// returns it with the N×r features of the rows of X.
//
// Single linkage needs no distance matrix (hclust.FromPoints: Prim on the
// points, SciPy's tree), so the exact ultrametric M of the N rows is at
// hand in O(N) memory, and its columns at the M landmarks in O(N) each.
// The landmark kernel is then the exact one restricted to the landmarks,
// K_LL = −½·J·M_LL·J, and every training row x gets its exact row
// K(x, l) = −½·(M(x, l) − ū_x − m̄_l + m̿) (ū_x, m̄_l, m̿: means over the
// landmarks, as TreeExtension centres), so that z(x)·z(l) = K(x, l) for
// every landmark l: the kernel values the SVM and kNN read between a row
// and a labelled landmark are those of the exact N×N kernel up to a
// centring both learners ignore (the SVM's Σ yα = 0 absorbs it into the
// bias; kNN ranks by M(x, l)). The tree on the landmarks (Save, new
// points) is the exact tree restricted to them: single linkage on M_LL,
// which reproduces it; new points enter it by the single-linkage rule of
// TreeExtension.
//
// Cost: O(N²·d) for the tree, O(N·M) for the ultrametric columns, O(N·M·r)
// for the features (a matrix product), O(M³) for K_LL's eigenvectors;
// memory O(N·(r + 256) + M²). Errors: ErrEmpty, ErrNonFinite,
// ErrBadParam, hclust's, ctx.Err().
func newNystromSingle(ctx context.Context, X mat.Matrix, landmarks []int, rcond float64) (*Nystrom, *mat.Dense, error) {
	lm, n, _, err := fullTreeLandmarks(X, landmarks)
	if err != nil {
		return nil, nil, err
	}
	full, err := hclust.FromPoints(ctx, X, hclust.Single)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: hck:single: %w", err)
	}
	return nystromFromFullTree(ctx, lm, n, full, kernel.HCK{Method: hclust.Single}, landmarks, rcond, nil)
}

// fullTreeLandmarks checks the landmarks of a map on the tree of all rows
// (at least 2) and returns their rows, N and M.
func fullTreeLandmarks(X mat.Matrix, landmarks []int) (*mat.Dense, int, int, error) {
	lm, err := landmarkRows(X, landmarks)
	if err != nil {
		return nil, 0, 0, err
	}
	n, _ := X.Dims()
	if m := len(landmarks); m < 2 {
		return nil, 0, 0, fmt.Errorf("%w: %d landmarks, want at least 2", kernel.ErrBadParam, m)
	}
	return lm, n, len(landmarks), nil
}

// nystromFromFullTree is newNystromSingle after the tree: full is the
// single-linkage tree of all n rows, lm the landmark points; geo (graph
// variants) gives new points their geodesics to the landmarks.
func nystromFromFullTree(ctx context.Context, lm *mat.Dense, n int, full *hclust.Tree, h kernel.HCK, landmarks []int, rcond float64, geo *geoSource) (*Nystrom, *mat.Dense, error) {
	m := len(landmarks)
	// M_LL, condensed, from the landmarks' ultrametric rows.
	cond := make([]float64, m*(m-1)/2)
	err := full.UltrametricOf(ctx, landmarks, func(c int, row []float64) {
		off := m*c - c*(c+1)/2
		for c2 := c + 1; c2 < m; c2++ {
			cond[off+c2-c-1] = row[landmarks[c2]]
		}
	})
	if err != nil {
		return nil, nil, err
	}
	lt, err := hclust.Linkage(ctx, distance.Condensed{N: m, Data: cond}, hclust.Single)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: hck:single on the landmarks: %w", err)
	}
	ext, err := kernel.NewTreeExtension(lm, h, lt, nil)
	if err != nil {
		return nil, nil, err
	}
	K, err := treeKernel(ctx, lt)
	if err != nil {
		return nil, nil, err
	}
	ny := &Nystrom{Landmarks: append([]int(nil), landmarks...), lm: lm, tree: ext, h: h, t: lt, AllRows: true, geo: geo}
	if err := ny.factor(ctx, K, rcond); err != nil {
		return nil, nil, err
	}
	// Features: Z = −½·(M_NL·W − ū·sᵀ − 1·cᵀ + m̿·1·sᵀ), s = Σ_l W_l,
	// c = Σ_l m̄_l·W_l; M_NL·W by blocks of landmark columns.
	r := ny.Rank
	colMean, grand := ext.Means()
	s, cv := make([]float64, r), make([]float64, r)
	for l := 0; l < m; l++ {
		for t, v := range ny.w.RawRowView(l) {
			s[t] += v
			cv[t] += colMean[l] * v
		}
	}
	Z := mat.NewDense(n, r, nil)
	ubar := make([]float64, n)
	const block = 256
	buf := make([]float64, n*min(block, m))
	for lo := 0; lo < m; lo += block {
		hi := min(lo+block, m)
		b := hi - lo
		U := mat.NewDense(n, b, buf[:n*b])
		err = full.UltrametricOf(ctx, landmarks[lo:hi], func(c int, row []float64) {
			for i, v := range row {
				buf[i*b+c] = v
			}
		})
		if err != nil {
			return nil, nil, err
		}
		for i := 0; i < n; i++ {
			for _, v := range buf[i*b : i*b+b] {
				ubar[i] += v
			}
		}
		// Z += U · W[lo:hi]
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, U.RawMatrix(), ny.w.Slice(lo, hi, 0, r).(*mat.Dense).RawMatrix(), 1, Z.RawMatrix())
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	for i := 0; i < n; i++ {
		u := ubar[i] / float64(m)
		z := Z.RawRowView(i)
		for t := range z {
			z[t] = -0.5 * (z[t] - u*s[t] - cv[t] + grand*s[t])
		}
	}
	return ny, Z, nil
}
