package eigen

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/gemm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// SymFunc computes the matrix function f(A) = V·diag(f(λ))·Vᵀ of the
// symmetric matrix a from its eigen-decomposition (Sym), e.g. the projection
// onto the positive semi-definite cone (f = max(λ, 0); Higham 1988) or the
// pseudo-inverse (f = 1/λ above a threshold, else 0). Eigenpairs with
// f(λ) = 0 are skipped: with r of them left, only those r eigenvectors are
// back-transformed (2·n²·r flops) and the upper triangle of the sum is
// formed by blocked matrix products (n²·r flops). When fewer eigenvalues
// change (f(λ) ≠ λ, c of them) than survive, it forms instead
// f(A) = A + Σ (f(λ) − λ)·v·vᵀ over those c, so clipping the few negative
// eigenvalues of a nearly PSD kernel matrix costs little beyond the
// eigenvalues themselves. dst receives the result (nil allocates; it must be n×n
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
	var keep, comp []int
	var fv, cv []float64
	for j, l := range p.vals {
		y := f(l)
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("%w: f(λ_%d = %v) = %v", ErrNonFinite, j, l, y)
		}
		if y != 0 {
			keep = append(keep, j)
			fv = append(fv, y)
		}
		if y != l {
			comp = append(comp, j)
			cv = append(cv, y-l)
		}
	}
	if dst == nil {
		dst = mat.NewSymDense(n, nil)
	}
	if len(comp) >= len(keep) {
		// f(A) = Σ_{f(λ)≠0} f(λ)·v·vᵀ. Back-transform only those vectors.
		z, err := p.vectors(ctx, keep)
		if err != nil {
			return nil, err
		}
		return dst, reconstruct(ctx, dst, z, n, len(keep), fv)
	}
	// Fewer eigenvalues move than survive (PSD clipping of a nearly PSD
	// matrix): f(A) = A + Σ_{f(λ)≠λ} (f(λ) − λ)·v·vᵀ.
	z, err := p.vectors(ctx, comp)
	if err != nil {
		return nil, err
	}
	corr := mat.NewSymDense(n, nil)
	if err := reconstruct(ctx, corr, z, n, len(comp), cv); err != nil {
		return nil, err
	}
	cr, dr := corr.RawSymmetric(), dst.RawSymmetric()
	// Element by element, so dst may be a itself.
	if rs, ok := a.(mat.RawSymmetricer); ok && rs.RawSymmetric().Uplo == blas.Upper {
		r := rs.RawSymmetric()
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				dr.Data[i*dr.Stride+j] = r.Data[i*r.Stride+j] + cr.Data[i*cr.Stride+j]
			}
		}
	} else {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				dr.Data[i*dr.Stride+j] = a.At(i, j) + cr.Data[i*cr.Stride+j]
			}
		}
	}
	return dst, nil
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
		gemm.Dgemm(blas.NoTrans, blas.Trans, h, n-i0, r, 1, b[i0*r:], r, c[i0*r:], r, 0, out[i0*ldo+i0:], ldo)
	}
	return nil
}
