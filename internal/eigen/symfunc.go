package eigen

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// SymFunc computes the matrix function f(A) = V·diag(f(λ))·Vᵀ of the
// symmetric matrix a from its eigen-decomposition (Sym), e.g. the projection
// onto the positive semi-definite cone (f = max(λ, 0); Higham 1988) or the
// pseudo-inverse (f = 1/λ above a threshold, else 0). Eigenpairs with
// f(λ) = 0 are skipped, so the reconstruction costs n²·r flops for r
// eigenpairs kept (only the upper triangle is formed, by blocked matrix
// products), and only their eigenvectors are back-transformed. dst receives the result (nil allocates; it must be n×n
// otherwise) and is returned.
//
// Errors: those of Sym, ErrShape for a dst of the wrong size and
// ErrNonFinite if f returns NaN or ±Inf.
func SymFunc(ctx context.Context, dst *mat.SymDense, a mat.Symmetric, f func(float64) float64) (*mat.SymDense, error) {
	n := a.SymmetricDim()
	if n == 0 {
		return nil, ErrEmpty
	}
	if dst != nil && dst.SymmetricDim() != n {
		return nil, fmt.Errorf("%w: dst is %d×%d, a is %d×%d", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	}
	w := make([]float64, n*n)
	if err := load(w, a); err != nil {
		return nil, err
	}
	p, err := decompose(ctx, w, n, true)
	if err != nil {
		return nil, err
	}
	var keep []int
	fv := make([]float64, 0, n)
	for j, l := range p.vals {
		y := f(l)
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("%w: f(λ_%d = %v) = %v", ErrNonFinite, j, l, y)
		}
		if y != 0 {
			keep = append(keep, j)
			fv = append(fv, y)
		}
	}
	// Back-transform only the eigenvectors that contribute.
	z, err := p.vectors(ctx, keep)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = mat.NewSymDense(n, nil)
	}
	return dst, reconstruct(ctx, dst, z, n, len(keep), fv)
}

// reconstruct writes the upper triangle of dst = Σ_c fv[c]·v_c·v_cᵀ, v_c
// column c of the n×r row-major z: with B = Z·diag(fv), dst = B·Zᵀ,
// computed in row blocks each multiplied only against the columns at or
// right of its diagonal.
func reconstruct(ctx context.Context, dst *mat.SymDense, z []float64, n, r int, fv []float64) error {
	raw := dst.RawSymmetric()
	if r == 0 {
		for i := 0; i < n; i++ {
			clear(raw.Data[i*raw.Stride+i : i*raw.Stride+n])
		}
		return nil
	}
	b := make([]float64, n*r)
	c := z
	for i := 0; i < n; i++ {
		zr, br := z[i*r:i*r+r], b[i*r:i*r+r]
		for q, f := range fv {
			br[q] = zr[q] * f
		}
	}
	out, ldo := raw.Data, raw.Stride // a SymDense stores the upper triangle
	const bs = 256
	for i0 := 0; i0 < n; i0 += bs {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := min(bs, n-i0)
		bl.Dgemm(blas.NoTrans, blas.Trans, h, n-i0, r, 1, b[i0*r:], r, c[i0*r:], r, 0, out[i0*ldo+i0:], ldo)
	}
	return nil
}
