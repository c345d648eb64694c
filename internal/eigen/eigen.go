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
// position), ErrNoConvergence (QL/QR failed on a small subproblem; not seen
// in practice) and ctx.Err() on cancellation.
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

// sym is Sym on the n×n row-major copy w (both triangles, destroyed). It
// returns the eigenvector matrix as n×n row-major data.
func sym(ctx context.Context, w []float64, n int, vectors bool) ([]float64, []float64, error) {
	// Scale by a power of two (exact) so that max|a_ij| ∈ [1/2, 1): no
	// overflow or harmful underflow for any finite input, and the scale is
	// undone exactly on the eigenvalues.
	amax := 0.0
	for _, v := range w {
		amax = max(amax, math.Abs(v))
	}
	if amax == 0 {
		vals := make([]float64, n)
		if !vectors {
			return vals, nil, nil
		}
		z := make([]float64, n*n)
		for i := 0; i < n; i++ {
			z[i*n+i] = 1
		}
		return vals, z, nil
	}
	_, exp := math.Frexp(amax)
	if exp != 0 {
		for i := range w {
			w[i] = math.Ldexp(w[i], -exp)
		}
	}
	d := make([]float64, n)
	e := make([]float64, max(n-1, 1))
	tau := make([]float64, max(n-1, 1))
	if err := tridiag(ctx, w, n, d, e, tau); err != nil {
		return nil, nil, err
	}
	unscale := func() {
		if exp != 0 {
			for i := range d {
				d[i] = math.Ldexp(d[i], exp)
			}
		}
	}
	if !vectors {
		if !la.Dsterf(n, d, e[:n-1]) {
			return nil, nil, ErrNoConvergence
		}
		sort.Float64s(d)
		unscale()
		return d, nil, nil
	}
	z := make([]float64, n*n)
	s := &dc{ctx: ctx, q: z, ld: n}
	if err := s.solve(d, e[:n-1], 0, 0); err != nil {
		return nil, nil, err
	}
	if err := backTransform(ctx, w, n, tau, z, n, n); err != nil {
		return nil, nil, err
	}
	unscale()
	return d, z, nil
}
