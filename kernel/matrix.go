package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/internal/finite"
	"github.com/arbor-ml/arbor/internal/lanczos"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// symRaw returns a row-major view of the upper triangle of m: *mat.SymDense
// is used in place, any other mat.Symmetric is copied through At, checking
// that At(i, j) and At(j, i) agree (relative 1e-12).
func symRaw(m mat.Symmetric, name string) (blas64.Symmetric, error) {
	if m == nil {
		return blas64.Symmetric{}, fmt.Errorf("%w: %s is nil", ErrEmpty, name)
	}
	if s, ok := m.(*mat.SymDense); ok {
		return s.RawSymmetric(), nil
	}
	n := m.SymmetricDim()
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a, b := m.At(i, j), m.At(j, i)
			if math.Abs(a-b) > 1e-12*math.Max(math.Abs(a), math.Abs(b)) {
				return blas64.Symmetric{}, fmt.Errorf("%w: %s[%d,%d] = %v but %s[%d,%d] = %v", ErrNotSymmetric, name, i, j, a, name, j, i, b)
			}
			out.SetSym(i, j, a)
		}
	}
	return out.RawSymmetric(), nil
}

// checkFiniteSym returns ErrNonFinite for the first NaN/Inf of the upper
// triangle of s, and ErrEmpty when s is 0×0.
func checkFiniteSym(s blas64.Symmetric, name string) error {
	if s.N == 0 {
		return fmt.Errorf("%w: %s is 0×0", ErrEmpty, name)
	}
	if i, j, v, found := finite.FindUpper(s.Data, s.N, s.Stride); found {
		return fmt.Errorf("%w: %s[%d,%d] = %v", ErrNonFinite, name, i, j, v)
	}
	return nil
}

// CheckFinite fails, wrapping ErrNonFinite, when the kernel matrix has an
// infinite or NaN entry (poly:1:1:200 on unscaled features, say), naming
// the kernel and the first such entry (i, j), i ≤ j, in row order, with
// the remedy: such a matrix is never written or learnt from.
func (b Built) CheckFinite() error {
	raw := b.K.RawSymmetric()
	i, j, v, found := finite.FindUpper(raw.Data, raw.N, raw.Stride)
	if !found {
		return nil
	}
	return nonFinite(fmt.Sprintf("kernel %s: entry (%d, %d) is %v: its values overflow float64 (or are undefined) for these data; scale the features (--scale std or minmax) or choose smaller parameters (degree, a, b, gamma)", b.Spec, i, j, v))
}

// nonFinite is an error that says msg and is ErrNonFinite.
type nonFinite string

func (e nonFinite) Error() string        { return string(e) }
func (e nonFinite) Is(target error) bool { return target == ErrNonFinite }

// ToSym converts a square matrix that should be symmetric (for example a
// precomputed kernel read from a file) to a *mat.SymDense holding
// (m + mᵀ)/2. Errors: ErrEmpty, ErrShape (not square), ErrNonFinite, and
// ErrNotSymmetric when some |m_ij - m_ji| > tol·max|m| (tol < 0 means 0).
func ToSym(m mat.Matrix, tol float64) (*mat.SymDense, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: matrix is nil", ErrEmpty)
	}
	r, c := m.Dims()
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("%w: matrix is %d×%d", ErrEmpty, r, c)
	}
	if r != c {
		return nil, fmt.Errorf("%w: matrix is %d×%d, want square", ErrShape, r, c)
	}
	if s, ok := m.(*mat.SymDense); ok {
		raw := s.RawSymmetric()
		if err := checkFiniteSym(raw, "matrix"); err != nil {
			return nil, err
		}
		out := mat.NewSymDense(r, nil)
		out.CopySym(s)
		return out, nil
	}
	maxAbs := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			v := m.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: matrix[%d,%d] = %v", ErrNonFinite, i, j, v)
			}
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
	}
	tol = math.Max(tol, 0) * maxAbs
	out := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			a, b := m.At(i, j), m.At(j, i)
			if math.Abs(a-b) > tol {
				return nil, fmt.Errorf("%w: matrix[%d,%d] = %v but matrix[%d,%d] = %v", ErrNotSymmetric, i, j, a, j, i, b)
			}
			out.SetSym(i, j, 0.5*(a+b))
		}
	}
	return out, nil
}

// InducedDistance returns the kernel-induced distances
// d_ij = sqrt(max(0, K_ii + K_jj - 2K_ij)), the Euclidean distances of the
// feature-space images, clamped at 0 against rounding. O(N²), parallel and
// deterministic. It panics if K is not a mat.Symmetric that can be read.
func InducedDistance(K mat.Symmetric) distance.Condensed {
	s, err := symRaw(K, "K")
	if err != nil {
		panic(err)
	}
	n := s.N
	out := distance.NewCondensed(n)
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = s.Data[i*s.Stride+i]
	}
	_ = parallel.For(context.Background(), n, func(i int) {
		if i == n-1 {
			return
		}
		row := s.Data[i*s.Stride : i*s.Stride+n]
		off := n*i - i*(i+1)/2 - i - 1
		dst := out.Data[off+i+1 : off+n]
		di := diag[i]
		for j := i + 1; j < n; j++ {
			dst[j-i-1] = math.Sqrt(math.Max(di+diag[j]-2*row[j], 0))
		}
	})
	return out
}

// centerBands returns the row boundaries of the bands of Center's mean
// pass: about 16 bands of equal upper-triangle area, a function of n only.
func centerBandsOf(n int) []int {
	nb := min(16, max(1, n/64))
	out := []int{0}
	total := float64(n) * float64(n+1) / 2
	i := 0
	for b := 1; b < nb; b++ {
		target := total * float64(b) / float64(nb)
		// area of rows [0, i) = i·n - i(i-1)/2
		for i < n && float64(i)*float64(n)-float64(i)*float64(i-1)/2 < target {
			i++
		}
		if i > out[len(out)-1] {
			out = append(out, i)
		}
	}
	return append(out, n)
}

// Center returns the doubly centred matrix -½·J·M·J, J = I - 11ᵀ/N, the
// step of paper 000 §3.3-3.4 that turns an ultrametric (Theorem 4) or a
// squared-distance matrix into a Gram matrix:
//
//	K_ij = -½ (M_ij - r_i - r_j + m),  r_i = mean_j M_ij,  m = mean_ij M_ij,
//
// which is peers.py's double_center (M itself; square it first for
// classical MDS / ISOMAP, see CenterSquared). J is never formed: one
// parallel pass reads the upper triangle for the row means, a second writes
// both triangles of dst tile by tile; O(N²) time, no extra N×N memory. Sums
// run in a fixed order, so the result does not depend on GOMAXPROCS.
//
// A nil dst allocates; dst may be M itself (in place). Only the upper
// triangle of M is read; both triangles of dst's backing store are written.
// It panics if dst has the wrong size or M is an asymmetric non-SymDense
// (programmer errors); NaN entries propagate.
func Center(dst *mat.SymDense, M mat.Symmetric) *mat.SymDense {
	return center(dst, M, false)
}

// CenterSquared returns -½·J·(M∘M)·J (entries of M squared first): the
// classical-MDS / ISOMAP kernel of paper 000 §3.3 when M holds distances.
// Same cost and conventions as Center, without forming M∘M.
func CenterSquared(dst *mat.SymDense, M mat.Symmetric) *mat.SymDense {
	return center(dst, M, true)
}

func center(dst *mat.SymDense, M mat.Symmetric, square bool) *mat.SymDense {
	s, err := symRaw(M, "M")
	if err != nil {
		panic(err)
	}
	n := s.N
	if dst == nil {
		dst = mat.NewSymDense(n, nil)
	} else if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	if n == 0 {
		return dst
	}
	d := dst.RawSymmetric()
	ctx := context.Background()
	data, str := s.Data, s.Stride

	// Pass 1, one read of the upper triangle: row sums of the full symmetric
	// matrix as rowUp[i] = Σ_{j≥i} M_ij plus the column sums Σ_{i<j} M_ij.
	// Rows are cut into centerBands bands of about equal area (a partition
	// fixed by n alone); each band accumulates its own column sums, which
	// are then added band by band in order, so nothing depends on how the
	// bands are scheduled.
	bands := centerBandsOf(n)
	rowUp := make([]float64, n)
	cols := make([][]float64, len(bands)-1)
	_ = parallel.For(ctx, len(bands)-1, func(b int) {
		r0, r1 := bands[b], bands[b+1]
		acc := make([]float64, n)
		cols[b] = acc
		for i := r0; i < r1; i++ {
			// The diagonal goes to the row sum only; columns j > i to both.
			diag := data[i*str+i]
			if square {
				diag *= diag
			}
			seg := data[i*str+i+1 : i*str+n]
			a := acc[i+1 : n]
			a = a[:len(seg)]
			s0, s1 := diag, 0.0
			j := 0
			if square {
				for ; j+2 <= len(seg); j += 2 {
					v0, v1 := seg[j]*seg[j], seg[j+1]*seg[j+1]
					s0 += v0
					s1 += v1
					a[j] += v0
					a[j+1] += v1
				}
				if j < len(seg) {
					v := seg[j] * seg[j]
					s0 += v
					a[j] += v
				}
			} else {
				for ; j+2 <= len(seg); j += 2 {
					v0, v1 := seg[j], seg[j+1]
					s0 += v0
					s1 += v1
					a[j] += v0
					a[j+1] += v1
				}
				if j < len(seg) {
					s0 += seg[j]
					a[j] += seg[j]
				}
			}
			rowUp[i] = s0 + s1
		}
	})
	colUp := make([]float64, n)
	for _, acc := range cols {
		for j, v := range acc {
			colUp[j] += v
		}
	}
	inv := 1 / float64(n)
	r := rowUp // r_i = row mean, reusing rowUp
	total := 0.0
	for i := range r {
		sum := rowUp[i] + colUp[i]
		total += sum
		r[i] = sum * inv
	}
	g := total * inv * inv

	// Pass 2: write K tile by tile; tile (bi, bj), bj ≥ bi, reads the upper
	// tile of M, writes its rows, keeps the tile transposed in a buffer and
	// writes that as the rows of the mirror tile (contiguous stores only).
	const tile = mirrorTile
	nt := (n + tile - 1) / tile
	out, ostr := d.Data, d.Stride
	_ = parallel.For(ctx, nt, func(bi int) {
		var buf [tile * tile]float64
		i0, i1 := bi*tile, min(n, (bi+1)*tile)
		for bj := bi; bj < nt; bj++ {
			j0, j1 := bj*tile, min(n, (bj+1)*tile)
			for i := i0; i < i1; i++ {
				js := max(j0, i)
				src := data[i*str+js : i*str+j1]
				dr := out[i*ostr+js : i*ostr+j1]
				ci := g - r[i]
				rj := r[js:j1]
				bc := buf[i-i0:]
				for j, v := range src {
					if square {
						v *= v
					}
					k := -0.5 * (v + ci - rj[j])
					dr[j] = k
					bc[(js+j-j0)*tile] = k
				}
			}
			for j := j0; j < j1; j++ {
				hi := i1
				if bi == bj {
					hi = min(i1, j) // diagonal tile: only i < j lies below
				}
				if hi > i0 {
					copy(out[j*ostr+i0:j*ostr+hi], buf[(j-j0)*tile:(j-j0)*tile+hi-i0])
				}
			}
		}
	})
	return dst
}

// eigenErr wraps an error of package internal/eigen (context errors pass
// through unchanged).
func eigenErr(err error, name string, n int) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: %s (%d×%d): %w", ErrEigen, name, n, n, err)
}

func symFromRaw(s blas64.Symmetric) *mat.SymDense {
	var m mat.SymDense
	m.SetRawSymmetric(s)
	return &m
}

// fromFactors writes dst = Σ_{k ∈ keep} w_k v_k v_kᵀ = (V_keep·diag(w))·V_keepᵀ
// (peers.py's (V*w) @ V.T) with one parallel Gemm, then mirrors the upper
// triangle so both triangles of the backing store are exactly symmetric.
func fromFactors(dst *mat.SymDense, vecs *mat.Dense, w []float64, keep []int, n int) *mat.SymDense {
	if dst == nil {
		dst = mat.NewSymDense(n, nil)
	}
	d := dst.RawSymmetric()
	if len(keep) == 0 {
		for i := 0; i < n; i++ {
			clear(d.Data[i*d.Stride : i*d.Stride+n])
		}
		return dst
	}
	a := mat.NewDense(n, len(keep), nil)
	b := mat.NewDense(n, len(keep), nil)
	for c, k := range keep {
		for i := 0; i < n; i++ {
			v := vecs.At(i, k)
			a.Set(i, c, v*w[k])
			b.Set(i, c, v)
		}
	}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, a.RawMatrix(), b.RawMatrix(), 0, blas64.General{Rows: n, Cols: n, Stride: d.Stride, Data: d.Data})
	_ = mirrorUpper(context.Background(), d.Data, d.Stride, n)
	return dst
}

// ClipPSD projects K onto the cone of positive semi-definite matrices in
// Frobenius norm (Higham 1988): with K = U·S·Uᵀ it returns U·max(S,0)·Uᵀ
// and the number of clearly negative eigenvalues, λ < -N·ε·max|λ|, that
// were set to 0. This is the repair paper 000 §3.3 applies to the ISOMAP
// kernel (peers.py psd_clip). Rounding-level negative eigenvalues are
// clipped too but not counted: their sign is noise (a doubly centred
// matrix always has the eigenvalue 0 of the vector 1, which LAPACK
// implementations return as ±1e-14), so the count is reproducible.
// The eigen-decomposition is internal/eigen's divide and conquer; only
// eigenvectors of positive eigenvalues are formed. O(N³), parallel,
// deterministic. A nil dst allocates; dst may be K. Both triangles of dst
// are written. Errors: ErrEmpty, ErrNonFinite, ErrShape (dst size),
// ErrNotSymmetric (a non-SymDense K whose At is not symmetric), ErrEigen,
// ctx.Err().
func ClipPSD(ctx context.Context, dst *mat.SymDense, K mat.Symmetric) (*mat.SymDense, int, error) {
	s, err := symRaw(K, "K")
	if err != nil {
		return nil, 0, err
	}
	if dst != nil && dst.SymmetricDim() != s.N {
		return nil, 0, fmt.Errorf("%w: ClipPSD dst is %d×%d, K is %d×%d", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), s.N, s.N)
	}
	if err := checkFiniteSym(s, "K"); err != nil {
		return nil, 0, err
	}
	vals := make([]float64, 0, s.N)
	out, err := eigen.SymFunc(ctx, dst, symFromRaw(s), func(l float64) float64 {
		vals = append(vals, l)
		return max(l, 0)
	})
	if err != nil {
		return nil, 0, eigenErr(err, "K", s.N)
	}
	o := out.RawSymmetric()
	if err := mirrorUpper(ctx, o.Data, o.Stride, s.N); err != nil {
		return nil, 0, err
	}
	maxAbs := 0.0
	for _, v := range vals {
		maxAbs = math.Max(maxAbs, math.Abs(v))
	}
	tol := float64(s.N) * 0x1p-52 * maxAbs
	neg := 0
	for _, v := range vals {
		if v < -tol {
			neg++
		}
	}
	return out, neg, nil
}

// Embed returns the N×dims matrix Z = U·√S of paper 000 §3.4 whose rows are
// the points' coordinates in feature space (Z·Zᵀ ≈ K): the eigenvectors of
// the dims largest eigenvalues of K, in decreasing eigenvalue order, each
// scaled by √max(λ, 0) (a negative eigenvalue gives a zero column). Sign
// convention: each eigenvector is flipped so its largest-magnitude
// component (the first one on ties) is positive.
//
// For N ≥ 1000 and dims ≤ N/20 the eigenpairs come from thick-restart
// Lanczos (internal/lanczos: O(N²) per step, residuals ≤ 1e-12·|λ|); if it
// does not converge, or otherwise, from the full decomposition
// (internal/eigen, O(N³), only dims eigenvectors formed). Both are
// deterministic for any GOMAXPROCS. Errors: ErrBadParam (dims < 1 or
// dims > N), ErrEmpty, ErrNonFinite, ErrNotSymmetric, ErrEigen, ctx.Err().
func Embed(ctx context.Context, K mat.Symmetric, dims int) (*mat.Dense, error) {
	s, err := symRaw(K, "K")
	if err != nil {
		return nil, err
	}
	if dims < 1 || dims > s.N {
		return nil, fmt.Errorf("%w: Embed dims = %d, want 1..%d", ErrBadParam, dims, s.N)
	}
	if err := checkFiniteSym(s, "K"); err != nil {
		return nil, err
	}
	if s.N >= 1000 && dims <= s.N/20 {
		if z, ok := embedLanczos(ctx, s, dims); ok {
			return z, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return embedFull(ctx, s, dims)
}

// embedFull is Embed by the full eigen-decomposition.
func embedFull(ctx context.Context, s blas64.Symmetric, dims int) (*mat.Dense, error) {
	n := s.N
	w, vecs, err := eigen.SymSelect(ctx, symFromRaw(s), func(i int, _ float64) bool { return i >= n-dims })
	if err != nil {
		return nil, eigenErr(err, "K", n)
	}
	// Ascending order: column c of Z is eigenpair dims-1-c.
	vals := make([]float64, dims)
	order := make([]int, dims)
	for c := range order {
		order[c] = dims - 1 - c
		vals[c] = w[dims-1-c]
	}
	return scaleColumns(vecs, vals, order), nil
}

// embedLanczos is Embed by Lanczos; ok is false when it did not converge.
func embedLanczos(ctx context.Context, s blas64.Symmetric, dims int) (*mat.Dense, bool) {
	res, err := lanczos.Solver{K: dims}.Top(ctx, lanczos.NewSym(symFromRaw(s)))
	if err != nil || !res.Converged {
		return nil, false
	}
	order := make([]int, dims)
	for c := range order {
		order[c] = c
	}
	return scaleColumns(res.Vectors, res.Values, order), true
}

// scaleColumns returns Z with column c = ±√max(vals[c], 0)·vecs[:, order[c]],
// the sign making the largest-magnitude component (first on ties) positive.
func scaleColumns(vecs *mat.Dense, vals []float64, order []int) *mat.Dense {
	n, _ := vecs.Dims()
	z := mat.NewDense(n, len(order), nil)
	for c, k := range order {
		best, bi := -1.0, 0
		for i := 0; i < n; i++ {
			if a := math.Abs(vecs.At(i, k)); a > best {
				best, bi = a, i
			}
		}
		sc := math.Sqrt(math.Max(vals[c], 0))
		if vecs.At(bi, k) < 0 {
			sc = -sc
		}
		for i := 0; i < n; i++ {
			z.Set(i, c, vecs.At(i, k)*sc)
		}
	}
	return z
}

// DefaultRCond is PseudoInverse's default relative cutoff, numpy.linalg.pinv's
// default rcond.
const DefaultRCond = 1e-15

// PseudoInverse returns the Moore-Penrose pseudo-inverse of the symmetric
// matrix K, K⁺ = Σ_{|λ_k| > rcond·max|λ|} u_k u_kᵀ / λ_k (the eigenvalue form
// of numpy.linalg.pinv(K, rcond, hermitian=True); eigenpairs by
// internal/eigen), and the number of eigenvalues kept (the numerical rank).
// rcond = 0 means DefaultRCond (numpy's default, 1e-15); for Gram matrices
// of rank-deficient data use a larger one such as N·ε
// (numpy.linalg.matrix_rank's tolerance), otherwise rounding-level
// eigenvalues are inverted. O(N³). A nil dst allocates; dst may be K.
// Errors: ErrBadParam (rcond < 0 or ≥ 1), ErrEmpty, ErrNonFinite, ErrShape,
// ErrNotSymmetric, ErrEigen, ctx.Err().
func PseudoInverse(ctx context.Context, dst *mat.SymDense, K mat.Symmetric, rcond float64) (*mat.SymDense, int, error) {
	if !(rcond >= 0 && rcond < 1) {
		return nil, 0, fmt.Errorf("%w: rcond = %v, want 0 ≤ rcond < 1", ErrBadParam, rcond)
	}
	if rcond == 0 {
		rcond = DefaultRCond
	}
	s, err := symRaw(K, "K")
	if err != nil {
		return nil, 0, err
	}
	if dst != nil && dst.SymmetricDim() != s.N {
		return nil, 0, fmt.Errorf("%w: PseudoInverse dst is %d×%d, K is %d×%d", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), s.N, s.N)
	}
	if err := checkFiniteSym(s, "K"); err != nil {
		return nil, 0, err
	}
	n := s.N
	w, vecs, err := eigen.Sym(ctx, symFromRaw(s), true)
	if err != nil {
		return nil, 0, eigenErr(err, "K", n)
	}
	maxAbs := 0.0
	for _, v := range w {
		maxAbs = math.Max(maxAbs, math.Abs(v))
	}
	cut := rcond * maxAbs
	var keep []int
	inv := make([]float64, n)
	for k, v := range w {
		if math.Abs(v) > cut {
			inv[k] = 1 / v
			keep = append(keep, k)
		}
	}
	return fromFactors(dst, vecs, inv, keep, n), len(keep), nil
}
