package eigen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// Sentinel errors, usable with errors.Is.
var (
	ErrEmpty         = errors.New("eigen: empty matrix")
	ErrNonFinite     = errors.New("eigen: matrix has a NaN or Inf entry")
	ErrShape         = errors.New("eigen: destination has the wrong size")
	ErrNoConvergence = errors.New("eigen: QL/QR iteration did not converge")
)

// Sym computes all eigenvalues of the symmetric matrix a in ascending order
// and, if vectors is true, the orthonormal eigenvectors as the columns of
// the n×n matrix V (A·V = V·diag(values)); V is nil otherwise.
//
// Errors: ErrEmpty (n = 0), ErrNonFinite (a NaN or ±Inf entry, with its
// position), ErrNoConvergence (QL/QR failed on a small subproblem, or a
// non-finite number appeared; neither is seen in practice) and ctx.Err() on cancellation.
func Sym(ctx context.Context, a mat.Symmetric, vectors bool) (values []float64, V *mat.Dense, err error) {
	n := a.SymmetricDim()
	if n == 0 {
		return nil, nil, ErrEmpty
	}
	w := make([]float64, n*n)
	if err := load(w, a); err != nil {
		return nil, nil, err
	}
	vals, z, err := sym(ctx, w, n, vectors)
	if err != nil {
		return nil, nil, err
	}
	if !vectors {
		return vals, nil, nil
	}
	return vals, mat.NewDense(n, n, z), nil
}

// load copies the upper triangle of a into both triangles of w (n×n
// row-major), checking that every entry is finite.
func load(w []float64, a mat.Symmetric) error {
	n := a.SymmetricDim()
	if rs, ok := a.(mat.RawSymmetricer); ok {
		r := rs.RawSymmetric()
		if r.Uplo == blas.Upper {
			for i := 0; i < n; i++ {
				copy(w[i*n+i:i*n+n], r.Data[i*r.Stride+i:i*r.Stride+n])
			}
		} else {
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					w[j*n+i] = r.Data[i*r.Stride+j]
				}
			}
		}
	} else {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				w[i*n+j] = a.At(i, j)
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := w[i*n+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: A[%d,%d] = %v", ErrNonFinite, i, j, v)
			}
			w[j*n+i] = v
		}
	}
	return nil
}

// decomposition is the state between the eigenvalues and the eigenvectors:
// T's eigenvectors z (n×n row-major) and the reflectors of tridiag in w, tau.
type decomposition struct {
	n         int
	vals      []float64 // ascending, unscaled
	z, w, tau []float64
}

// vectors returns the eigenvectors of A listed in cols (nil: all) as the
// columns of an n×len(cols) row-major matrix: the selected columns of z
// back-transformed by Q (2·n²·len(cols) flops).
func (p *decomposition) vectors(ctx context.Context, cols []int) ([]float64, error) {
	n := p.n
	z := p.z
	nc := n
	if cols != nil {
		nc = len(cols)
		if nc == 0 {
			return nil, nil
		}
		z = make([]float64, n*nc)
		for i := 0; i < n; i++ {
			src, dst := p.z[i*n:i*n+n], z[i*nc:i*nc+nc]
			for c, k := range cols {
				dst[c] = src[k]
			}
		}
	}
	if err := backTransform(ctx, p.w, n, p.tau, z, nc, nc); err != nil {
		return nil, err
	}
	return z, nil
}

// decompose runs stages 1 and 2 on the n×n row-major copy w (upper triangle
// read, destroyed); z is computed only if vectors is true.
func decompose(ctx context.Context, w []float64, n int, vectors bool) (*decomposition, error) {
	p := &decomposition{n: n, w: w}
	// Scale by a power of two (exact) so that max|a_ij| ∈ [1/2, 1): no
	// overflow or harmful underflow for any finite input, and the scale is
	// undone exactly on the eigenvalues.
	amax := 0.0
	for _, v := range w {
		amax = max(amax, math.Abs(v))
	}
	if amax == 0 {
		p.vals = make([]float64, n)
		if vectors {
			// Q = I: no reflectors.
			p.tau = make([]float64, max(n-1, 1))
			p.z = make([]float64, n*n)
			for i := 0; i < n; i++ {
				p.z[i*n+i] = 1
			}
		}
		return p, nil
	}
	_, exp := math.Frexp(amax)
	if exp != 0 {
		for i := range w {
			w[i] = math.Ldexp(w[i], -exp)
		}
	}
	d := make([]float64, n)
	e := make([]float64, max(n-1, 1))
	p.tau = make([]float64, max(n-1, 1))
	if err := tridiag(ctx, w, n, d, e, p.tau); err != nil {
		return nil, err
	}
	if !vectors {
		if !la.Dsterf(n, d, e[:n-1]) {
			return nil, ErrNoConvergence
		}
		sort.Float64s(d)
	} else {
		p.z = make([]float64, n*n)
		s := &dc{ctx: ctx, q: p.z, ld: n}
		if err := s.solve(d, e[:n-1], 0, 0); err != nil {
			return nil, err
		}
		if !allFinite(p.z) {
			return nil, ErrNoConvergence
		}
	}
	if !allFinite(d) {
		return nil, ErrNoConvergence
	}
	if exp != 0 {
		for i := range d {
			d[i] = math.Ldexp(d[i], exp)
		}
	}
	p.vals = d
	return p, nil
}

// sym is Sym on the n×n row-major copy w; it returns the eigenvector matrix
// as n×n row-major data.
func sym(ctx context.Context, w []float64, n int, vectors bool) ([]float64, []float64, error) {
	p, err := decompose(ctx, w, n, vectors)
	if err != nil {
		return nil, nil, err
	}
	if !vectors {
		return p.vals, nil, nil
	}
	z, err := p.vectors(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	return p.vals, z, nil
}

// SymSelect computes all eigenvalues of the symmetric matrix a and returns
// the eigenpairs (λ_i, v_i), i in ascending order, for which keep(i, λ_i)
// is true: values and the matching orthonormal eigenvectors as the columns
// of V (n×r; nil when r = 0). Only the kept eigenvectors are
// back-transformed (2·n²·r of the 4/3·n³ + 2·n²·r flops), e.g. the d largest
// (keep = i ≥ n−d) for an embedding, or λ > threshold.
//
// Errors: those of Sym.
func SymSelect(ctx context.Context, a mat.Symmetric, keep func(i int, lambda float64) bool) (values []float64, V *mat.Dense, err error) {
	n := a.SymmetricDim()
	if n == 0 {
		return nil, nil, ErrEmpty
	}
	w := make([]float64, n*n)
	if err := load(w, a); err != nil {
		return nil, nil, err
	}
	p, err := decompose(ctx, w, n, true)
	if err != nil {
		return nil, nil, err
	}
	cols := []int{}
	for i, l := range p.vals {
		if keep(i, l) {
			cols = append(cols, i)
			values = append(values, l)
		}
	}
	if len(cols) == 0 {
		return values, nil, nil
	}
	z, err := p.vectors(ctx, cols)
	if err != nil {
		return nil, nil, err
	}
	return values, mat.NewDense(n, len(cols), z), nil
}

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
