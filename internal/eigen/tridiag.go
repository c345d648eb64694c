package eigen

import (
	"context"
	"math"

	"github.com/arbor-ml/arbor/internal/gemm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	lapack "gonum.org/v1/gonum/lapack/gonum"
)

var (
	bl gonum.Implementation
	la lapack.Implementation
)

const (
	panelTri  = 32 // reflectors per panel in tridiag (LAPACK's Dsytrd uses 32)
	panelBack = 64 // reflectors per block in backTransform
)

// tridiag reduces the symmetric n×n matrix held in both triangles of a
// (row-major, stride n; only the upper triangle is read and updated) to
// tridiagonal form T = Qᵀ·A·Q with
// Q = H_0·H_1·…·H_{n-3}, H_j = I − tau_j·v_j·v_jᵀ, v_j[0..j] = 0,
// v_j[j+1] = 1 (Golub & Van Loan, Matrix Computations, Alg. 8.3.1).
//
// It is LAPACK's blocked Dsytrd (Dlatrd + Dsyr2k) arranged for row-major
// storage: the reflectors of a panel of panelTri columns are generated from
// the panel rows, updated on the fly by the pending rank-2 corrections
// A − V·Wᵀ − W·Vᵀ, and the trailing matrix receives them at once through
// matrix products on the upper triangle (2/3·n³ flops). The other half of
// the work, one trailing matrix–vector product per column (2/3·n³ flops,
// memory bound), reads the upper triangle once in contiguous rows (symv).
//
// On return d (n) and e (n−1) hold T, tau (n−1) the reflector scalars and
// row j of a, columns j+2..n−1, the tail of v_j.
func tridiag(ctx context.Context, a []float64, n int, d, e, tau []float64) error {
	if n == 1 {
		d[0] = a[0]
		return nil
	}
	nb := panelTri
	// vw holds the panel's v (rows 0..nb−1) and w (rows nb..2nb−1), and wv
	// the same rows swapped, as full-length vectors zero before index j+1.
	vw := make([]float64, 2*nb*n)
	wv := make([]float64, 2*nb*n)
	y := make([]float64, n)
	sv := newSymv(n)
	for k0 := 0; k0 < n-1; k0 += nb {
		if err := ctx.Err(); err != nil {
			return err
		}
		pb := min(nb, n-1-k0)
		clear(vw)
		for p := 0; p < pb; p++ {
			j := k0 + p
			row := a[j*n : j*n+n]
			// Bring row j (= column j) up to date with the panel's pending updates.
			for q := 0; q < p; q++ {
				vq, wq := vw[q*n:q*n+n], vw[(nb+q)*n:(nb+q)*n+n]
				if c := wq[j]; c != 0 {
					bl.Daxpy(n-j, -c, vq[j:], 1, row[j:], 1)
				}
				if c := vq[j]; c != 0 {
					bl.Daxpy(n-j, -c, wq[j:], 1, row[j:], 1)
				}
			}
			d[j] = row[j]
			m := n - j - 1
			beta, t := la.Dlarfg(m, row[j+1], row[j+2:], 1)
			e[j], tau[j] = beta, t
			row[j+1] = beta
			v := vw[p*n : p*n+n]
			v[j+1] = 1
			copy(v[j+2:], row[j+2:])
			if m < 2 || t == 0 {
				continue
			}
			// y = A22·v with A22 = A[j+1:, j+1:] as stored, then the
			// pending corrections −V·(Wᵀv) − W·(Vᵀv) of this panel.
			vs := v[j+1:]
			ys := y[j+1:]
			sv.mul(a, n, j+1, m, vs, ys)
			for q := 0; q < p; q++ {
				vq, wq := vw[q*n+j+1:q*n+n], vw[(nb+q)*n+j+1:(nb+q)*n+n]
				if c := bl.Ddot(m, wq, 1, vs, 1); c != 0 {
					bl.Daxpy(m, -c, vq, 1, ys, 1)
				}
				if c := bl.Ddot(m, vq, 1, vs, 1); c != 0 {
					bl.Daxpy(m, -c, wq, 1, ys, 1)
				}
			}
			// w = tau·y − (tau²/2)(yᵀv)·v.
			bl.Dscal(m, t, ys, 1)
			alpha := -0.5 * t * bl.Ddot(m, ys, 1, vs, 1)
			w := vw[(nb+p)*n+j+1 : (nb+p)*n+n]
			copy(w, ys)
			bl.Daxpy(m, alpha, vs, 1, w, 1)
		}
		k1 := k0 + pb
		m := n - k1
		if m <= 0 {
			break
		}
		// A[k1:, k1:] −= Vᵀ·W + Wᵀ·V as one product [V;W]ᵀ·[W;V].
		for p := 0; p < nb; p++ {
			copy(wv[p*n:p*n+n], vw[(nb+p)*n:(nb+p)*n+n])
			copy(wv[(nb+p)*n:(nb+p)*n+n], vw[p*n:p*n+n])
		}
		// Upper triangle only (the SYR2K shape of gemm.Upper).
		gemm.Upper(blas.Trans, blas.NoTrans, m, 2*nb, -1, vw[k1:], n, wv[k1:], n, 1, a[k1*n+k1:], n)
	}
	d[n-1] = a[(n-1)*n+n-1]
	return nil
}

// backTransform overwrites the n×nc matrix z (row-major, stride ldz) with
// Q·z, Q the product of tridiag's reflectors stored in a and tau, applied in
// blocks of panelBack reflectors in compact WY form
// H_k0·…·H_k1−1 = I − Vᵀ·T·V (Schreiber & Van Loan 1989; LAPACK Dlarft +
// Dlarfb), so that almost all of its 2·n²·nc flops are matrix products.
func backTransform(ctx context.Context, a []float64, n int, tau []float64, z []float64, nc, ldz int) error {
	nr := n - 2 // reflectors H_0..H_{n−3} (H_{n−2} is the identity)
	if nr <= 0 || nc == 0 {
		return nil
	}
	nb := panelBack
	v := make([]float64, nb*n)
	t := make([]float64, nb*nb)
	w := make([]float64, nb*nc)
	kLast := ((nr - 1) / nb) * nb
	for k0 := kLast; k0 >= 0; k0 -= nb {
		if err := ctx.Err(); err != nil {
			return err
		}
		pb := min(nb, nr-k0)
		r0 := k0 + 1 // first row touched
		m := n - r0
		clear(v)
		for p := 0; p < pb; p++ {
			j := k0 + p
			vp := v[p*n : p*n+n]
			vp[j+1] = 1
			copy(vp[j+2:], a[j*n+j+2:j*n+n])
		}
		// T upper triangular: T[i][i] = tau_i,
		// T[0:i, i] = −tau_i·T[0:i, 0:i]·(V[0:i]·v_i).
		clear(t)
		for i := 0; i < pb; i++ {
			ti := tau[k0+i]
			t[i*nb+i] = ti
			if i == 0 {
				continue
			}
			for q := 0; q < i; q++ {
				t[q*nb+i] = -ti * bl.Ddot(m, v[q*n+r0:q*n+n], 1, v[i*n+r0:i*n+n], 1)
			}
			// t[0:i, i] = T[0:i,0:i] · t[0:i, i] (upper triangular, ascending rows in place).
			for q := 0; q < i; q++ {
				s := 0.0
				for l := q; l < i; l++ {
					s += t[q*nb+l] * t[l*nb+i]
				}
				t[q*nb+i] = s
			}
		}
		// W = V·z[r0:], W = T·W, z[r0:] −= Vᵀ·W.
		gemm.Dgemm(blas.NoTrans, blas.NoTrans, pb, nc, m, 1, v[r0:], n, z[r0*ldz:], ldz, 0, w, nc)
		for q := 0; q < pb; q++ {
			wq := w[q*nc : q*nc+nc]
			bl.Dscal(nc, t[q*nb+q], wq, 1)
			for l := q + 1; l < pb; l++ {
				if c := t[q*nb+l]; c != 0 {
					bl.Daxpy(nc, c, w[l*nc:l*nc+nc], 1, wq, 1)
				}
			}
		}
		gemm.Dgemm(blas.Trans, blas.NoTrans, m, nc, pb, -1, v[r0:], n, w, nc, 1, z[r0*ldz:], ldz)
	}
	return nil
}

// symv is the product y = A·v for the symmetric trailing block of tridiag,
// read from its upper triangle: row r contributes a dot product to y_r and
// an axpy of v_r to y_{r+1..}. The rows are cut into parts of equal
// triangle area whose number depends on the order m only; each part sums
// into its own buffer and the buffers are added in part order, so the
// result is the same for any GOMAXPROCS.
type symv struct {
	buf [][]float64
}

const symvParts = 8

func newSymv(n int) *symv {
	s := &symv{buf: make([][]float64, symvParts)}
	for p := range s.buf {
		s.buf[p] = make([]float64, n)
	}
	return s
}

// mul sets y (m) = A[j0:j0+m, j0:j0+m]·v from the upper triangle of a (stride n).
func (s *symv) mul(a []float64, n, j0, m int, v, y []float64) {
	parts := min(symvParts, max(1, m/128))
	bound := func(p int) int {
		if p >= parts {
			return m
		}
		return m - int(float64(m)*math.Sqrt(1-float64(p)/float64(parts)))
	}
	parFor(parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			r0, r1 := bound(p), bound(p+1)
			yb := s.buf[p][:m]
			clear(yb[r0:])
			r := r0
			// Four rows per pass over the matrix, with the operations of
			// the Ddot and Daxpy below (gemm.SymvPanel).
			for ; r+4 <= r1 && m-r >= 8; r += 4 {
				gemm.SymvPanel(m-r, a[(j0+r)*n+j0+r:], n, v[r:m], yb[r:m])
			}
			for ; r < r1; r++ {
				row := a[(j0+r)*n+j0+r : (j0+r)*n+j0+m]
				yb[r] += bl.Ddot(m-r, row, 1, v[r:], 1)
				if vr := v[r]; vr != 0 && r+1 < m {
					bl.Daxpy(m-r-1, vr, row[1:], 1, yb[r+1:], 1)
				}
			}
		}
	})
	copy(y[:m], s.buf[0][:m])
	for p := 1; p < parts; p++ {
		r0 := bound(p)
		bl.Daxpy(m-r0, 1, s.buf[p][r0:m], 1, y[r0:m], 1)
	}
}
