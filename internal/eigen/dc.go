package eigen

import (
	"context"
	"math"
	"sort"
	"sync"

	"github.com/arbor-ml/arbor/internal/gemm"
	"gonum.org/v1/gonum/blas"
	lapackapi "gonum.org/v1/gonum/lapack"
)

// leafSize is the largest subproblem solved by implicit QL/QR (LAPACK's
// Dstedc uses 25).
const leafSize = 32

// dc computes the eigenvalues and eigenvectors of a symmetric tridiagonal
// matrix by Cuppen's divide and conquer (Cuppen 1981) with Gu & Eisenstat's
// (1995) stable eigenvector formula, as LAPACK's Dstedc/Dlaed0..Dlaed4.
type dc struct {
	ctx context.Context
	q   []float64 // n×n eigenvector matrix of T, row-major
	ld  int
}

// solve computes the eigen-decomposition of the tridiagonal matrix with
// diagonal d and off-diagonal e (len(d)−1 entries) into the diagonal block
// of s.q at (off, off), which must be zero on entry; d returns the
// eigenvalues in ascending order. e is destroyed.
func (s *dc) solve(d, e []float64, off, depth int) error {
	m := len(d)
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if m <= leafSize {
		work := make([]float64, max(1, 2*m-2))
		if !la.Dsteqr(lapackapi.EVTridiag, m, d, e[:m-1], s.q[off*s.ld+off:], s.ld, work) {
			return ErrNoConvergence
		}
		return nil
	}
	n1 := m / 2
	rho := e[n1-1]
	d[n1-1] -= math.Abs(rho)
	d[n1] -= math.Abs(rho)
	if depth < 3 && m >= 512 {
		var wg sync.WaitGroup
		var errL error
		wg.Add(1)
		go func() {
			defer wg.Done()
			errL = s.solve(d[:n1], e[:n1-1], off, depth+1)
		}()
		errR := s.solve(d[n1:], e[n1:m-1], off+n1, depth+1)
		wg.Wait()
		if errL != nil {
			return errL
		}
		if errR != nil {
			return errR
		}
	} else {
		if err := s.solve(d[:n1], e[:n1-1], off, depth+1); err != nil {
			return err
		}
		if err := s.solve(d[n1:], e[n1:m-1], off+n1, depth+1); err != nil {
			return err
		}
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	s.merge(d, off, n1, rho)
	return nil
}

// merge combines the eigen-decompositions Q1·D1·Q1ᵀ and Q2·D2·Q2ᵀ of the
// halves (in the block at (off, off), sizes n1 and m−n1, d = [D1; D2]) into
// that of diag(Q1·D1·Q1ᵀ, Q2·D2·Q2ᵀ) + |β|·u·uᵀ, u = e_{n1−1} + sign(β)·e_{n1}:
//
//	D + ρ·z·zᵀ = U·Λ·Uᵀ,  z = diag(Q1,Q2)ᵀ·u/√2, ρ = 2|β|,
//
// after deflating the components with ρ|z_j| ≤ tol and the pole pairs that
// a Givens rotation can make so (Dlaed2), solving the secular equation for
// the rest (secular), recomputing z from the computed roots (Löwner's
// formula, Gu & Eisenstat 1995 eq. 3.6; Dlaed3) and multiplying
// diag(Q1,Q2)·U blockwise. Deflated columns keep their eigenvector.
func (s *dc) merge(d []float64, off, n1 int, beta float64) {
	m := len(d)
	ld := s.ld
	qb := s.q[off*ld+off:]
	z := make([]float64, m)
	for c := 0; c < n1; c++ {
		z[c] = qb[(n1-1)*ld+c]
	}
	for c := n1; c < m; c++ {
		z[c] = qb[n1*ld+c]
	}
	if beta < 0 {
		for c := n1; c < m; c++ {
			z[c] = -z[c]
		}
	}
	rho := 2 * math.Abs(beta)
	for c := range z {
		z[c] *= 1 / math.Sqrt2
	}
	// Merge the two ascending halves of d into one ascending order.
	perm := make([]int, 0, m)
	{
		i, j := 0, n1
		for i < n1 || j < m {
			if j == m || (i < n1 && d[i] <= d[j]) {
				perm = append(perm, i)
				i++
			} else {
				perm = append(perm, j)
				j++
			}
		}
	}
	typ := make([]uint8, m) // 1: rows 0..n1−1 only, 2: rows n1.. only, 3: both
	for c := range typ {
		if c < n1 {
			typ[c] = 1
		} else {
			typ[c] = 2
		}
	}
	var dmax, zmax float64
	for c := range d {
		dmax = max(dmax, math.Abs(d[c]))
		zmax = max(zmax, math.Abs(z[c]))
	}
	tol := 8 * eps * max(dmax, zmax)

	rot := func(x, y int, c, sn float64) {
		for r := 0; r < m; r++ {
			px, py := &qb[r*ld+x], &qb[r*ld+y]
			a, b := *px, *py
			*px = c*a + sn*b
			*py = c*b - sn*a
		}
	}
	var nd, defl []int // non-deflated and deflated columns
	pj := -1
	for _, nj := range perm {
		if rho*math.Abs(z[nj]) <= tol {
			defl = append(defl, nj)
			continue
		}
		if pj < 0 {
			pj = nj
			continue
		}
		sn, c := z[pj], z[nj]
		tau := math.Hypot(c, sn)
		t := d[nj] - d[pj]
		c /= tau
		sn = -sn / tau
		if math.Abs(t*c*sn) <= tol {
			z[nj], z[pj] = tau, 0
			typ[nj] |= typ[pj]
			rot(pj, nj, c, sn)
			t = d[pj]*c*c + d[nj]*sn*sn
			d[nj] = d[pj]*sn*sn + d[nj]*c*c
			d[pj] = t
			defl = append(defl, pj)
		} else {
			nd = append(nd, pj)
		}
		pj = nj
	}
	if pj >= 0 {
		nd = append(nd, pj)
	}
	k := len(nd)
	dv := make([]float64, m) // new eigenvalues by output position
	// Output order: roots (ascending) merged with deflated values (sorted).
	sort.SliceStable(defl, func(a, b int) bool { return d[defl[a]] < d[defl[b]] })
	lam := make([]float64, k)
	var ut []float64 // k×k, row j = eigenvector j of D + ρzzᵀ
	if k == 1 {
		lam[0] = d[nd[0]] + rho*z[nd[0]]*z[nd[0]]
		ut = []float64{1}
	} else if k > 1 {
		dl := make([]float64, k)
		w := make([]float64, k)
		for i, c := range nd {
			dl[i], w[i] = d[c], z[c]
		}
		ut = make([]float64, k*k)
		parFor(k, 16, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				lam[j] = secular(j, dl, w, rho, ut[j*k:j*k+k])
			}
		})
		// Löwner: ẑ_i² = −(dl_i − λ_i)·Π_{j≠i} (dl_i − λ_j)/(dl_i − dl_j).
		zh := make([]float64, k)
		// Each worker owns a range of i and sweeps the rows j in order
		// (contiguous reads); the product for each i is taken in j order.
		parFor(k, 64, func(lo, hi int) {
			p := zh[lo:hi]
			for i := lo; i < hi; i++ {
				p[i-lo] = ut[i*k+i]
			}
			for j := 0; j < k; j++ {
				row := ut[j*k+lo : j*k+hi]
				dj := dl[j]
				for c, x := range row {
					if i := lo + c; i != j {
						p[c] *= x / (dl[i] - dj)
					}
				}
			}
			for i := lo; i < hi; i++ {
				// −p ≥ 0 by interlacing; Abs only guards a rounding-level sign slip.
				zh[i] = math.Copysign(math.Sqrt(math.Abs(p[i-lo])), w[i])
			}
		})
		parFor(k, 64, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				row := ut[j*k : j*k+k]
				for i := range row {
					row[i] = zh[i] / row[i]
				}
				bl.Dscal(k, 1/bl.Dnrm2(k, row, 1), row, 1)
			}
		})
	}
	// Products: rows 0..n1−1 from the non-deflated columns with a top part,
	// rows n1..m−1 from those with a bottom part.
	mres := make([]float64, m*k)
	for part := uint8(1); part <= 2; part++ {
		r0, r1 := 0, n1
		if part == 2 {
			r0, r1 = n1, m
		}
		var sel []int
		for i, c := range nd {
			if typ[c]&part != 0 {
				sel = append(sel, i)
			}
		}
		kt := len(sel)
		if kt == 0 || k == 0 {
			continue
		}
		qg := make([]float64, (r1-r0)*kt)
		for r := r0; r < r1; r++ {
			row := qg[(r-r0)*kt : (r-r0+1)*kt]
			src := qb[r*ld:]
			for c, i := range sel {
				row[c] = src[nd[i]]
			}
		}
		ug := make([]float64, k*kt)
		for j := 0; j < k; j++ {
			row := ug[j*kt : (j+1)*kt]
			src := ut[j*k:]
			for c, i := range sel {
				row[c] = src[i]
			}
		}
		gemm.Dgemm(blas.NoTrans, blas.Trans, r1-r0, k, kt, 1, qg, kt, ug, kt, 0, mres[r0*k:], k)
	}
	nd2 := len(defl)
	dq := make([]float64, m*nd2)
	for r := 0; r < m; r++ {
		src := qb[r*ld:]
		row := dq[r*nd2 : (r+1)*nd2]
		for c, j := range defl {
			row[c] = src[j]
		}
	}
	dd := make([]float64, nd2)
	for c, j := range defl {
		dd[c] = d[j]
	}
	// Merge by value; src[p] ≥ 0 is a root, < 0 is deflated column −1−c.
	src := make([]int, 0, m)
	{
		i, j := 0, 0
		for i < k || j < nd2 {
			if j == nd2 || (i < k && lam[i] <= dd[j]) {
				dv[len(src)] = lam[i]
				src = append(src, i)
				i++
			} else {
				dv[len(src)] = dd[j]
				src = append(src, -1-j)
				j++
			}
		}
	}
	parFor(m, 64, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			dst := qb[r*ld : r*ld+m]
			mr := mres[r*k : r*k+k]
			dr := dq[r*nd2 : r*nd2+nd2]
			for p, sidx := range src {
				if sidx >= 0 {
					dst[p] = mr[sidx]
				} else {
					dst[p] = dr[-1-sidx]
				}
			}
		}
	})
	copy(d, dv)
}
