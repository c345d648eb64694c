package kernel

// This file holds a symmetric eigensolver: LAPACK's dsyev path (Dsytrd,
// Dorgtr, Dsteqr) as gonum implements it, with Dsteqr's eigenvector
// rotations applied row by row (contiguous memory) and in parallel over
// rows. Every matrix entry undergoes exactly the floating-point operations
// of gonum's Dlasr, in the same order, so the result equals
// gonum's mat.EigenSym bit for bit (tested) and is independent of
// GOMAXPROCS, while running several times faster for large N.
// dsteqrRows is adapted from gonum's lapack/gonum/dsteqr.go,
// Copyright ©2016 The Gonum Authors (BSD-3-Clause, the licence of gonum).

import (
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

const (
	eigEps    = 0x1p-53   // LAPACK dlamch('E')
	eigSafmin = 0x1p-1022 // dlamch('S')
)

// symEig returns the eigenvalues of the symmetric matrix s in increasing
// order and the matrix whose columns are the matching orthonormal
// eigenvectors. ok is false if the QL/QR iteration did not converge.
func symEig(s blas64.Symmetric) (w []float64, vecs *mat.Dense, ok bool) {
	n := s.N
	a := make([]float64, n*n)
	maxAbs := 0.0
	for i := 0; i < n; i++ {
		row := s.Data[i*s.Stride+i : i*s.Stride+n]
		copy(a[i*n+i:], row)
		for _, v := range row {
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
	}
	// dsyev rescales matrices with entries near under/overflow; leave those
	// rare cases to gonum.
	smlnum := eigSafmin / (2 * eigEps)
	if maxAbs > 0 && (maxAbs < math.Sqrt(smlnum) || maxAbs > math.Sqrt(1/smlnum)) {
		var es mat.EigenSym
		if !es.Factorize(symFromRaw(s), true) {
			return nil, nil, false
		}
		vecs = new(mat.Dense)
		es.VectorsTo(vecs)
		return es.Values(nil), vecs, true
	}
	w = make([]float64, n)
	if n == 1 {
		w[0] = a[0]
		return w, mat.NewDense(1, 1, []float64{1}), true
	}
	var impl lapackgonum.Implementation
	e := make([]float64, n-1)
	tau := make([]float64, n-1)
	query := []float64{0}
	impl.Dsytrd(blas.Upper, n, a, n, w, e, tau, query, -1)
	lwork := int(query[0])
	impl.Dorgtr(blas.Upper, n, a, n, tau, query, -1)
	lwork = max(lwork, int(query[0]), 1)
	work := make([]float64, lwork)
	impl.Dsytrd(blas.Upper, n, a, n, w, e, tau, work, lwork)
	impl.Dorgtr(blas.Upper, n, a, n, tau, work, lwork)
	if !dsteqrRows(n, w, e, a, n, make([]float64, 2*n-2)) {
		return nil, nil, false
	}
	return w, mat.NewDense(n, n, a), true
}

// rotRows applies the plane rotations (c[j], s[j]) to the column pairs
// (j, j+1) of the nrows×mm row-major matrix z, for j = 0..mm-2 (forward) or
// mm-2..0 (backward): gonum's Dlasr(blas.Right, lapack.Variable, ...) with
// the row loop outside, in parallel over rows for large blocks.
func rotRows(forward bool, nrows, mm int, c, s, z []float64, ldz int) {
	// Four rows at a time: the rotations of one row form a dependency
	// chain, so interleaving rows gives the CPU independent work.
	do := func(r0, r1 int) {
		i := r0
		for ; i+4 <= r1; i += 4 {
			a := z[i*ldz : i*ldz+mm]
			b := z[(i+1)*ldz : (i+1)*ldz+mm]
			c2 := z[(i+2)*ldz : (i+2)*ldz+mm]
			d := z[(i+3)*ldz : (i+3)*ldz+mm]
			b, c2, d = b[:len(a)], c2[:len(a)], d[:len(a)]
			if forward {
				for j := 0; j < mm-1; j++ {
					ct, st := c[j], s[j]
					if ct != 1 || st != 0 {
						at, at2 := a[j+1], a[j]
						bt, bt2 := b[j+1], b[j]
						ctm, ctm2 := c2[j+1], c2[j]
						dt, dt2 := d[j+1], d[j]
						a[j+1] = ct*at - st*at2
						a[j] = st*at + ct*at2
						b[j+1] = ct*bt - st*bt2
						b[j] = st*bt + ct*bt2
						c2[j+1] = ct*ctm - st*ctm2
						c2[j] = st*ctm + ct*ctm2
						d[j+1] = ct*dt - st*dt2
						d[j] = st*dt + ct*dt2
					}
				}
			} else {
				for j := mm - 2; j >= 0; j-- {
					ct, st := c[j], s[j]
					if ct != 1 || st != 0 {
						at, at2 := a[j+1], a[j]
						bt, bt2 := b[j+1], b[j]
						ctm, ctm2 := c2[j+1], c2[j]
						dt, dt2 := d[j+1], d[j]
						a[j+1] = ct*at - st*at2
						a[j] = st*at + ct*at2
						b[j+1] = ct*bt - st*bt2
						b[j] = st*bt + ct*bt2
						c2[j+1] = ct*ctm - st*ctm2
						c2[j] = st*ctm + ct*ctm2
						d[j+1] = ct*dt - st*dt2
						d[j] = st*dt + ct*dt2
					}
				}
			}
		}
		for ; i < r1; i++ {
			row := z[i*ldz : i*ldz+mm]
			if forward {
				for j := 0; j < mm-1; j++ {
					ct, st := c[j], s[j]
					if ct != 1 || st != 0 {
						tmp, tmp2 := row[j+1], row[j]
						row[j+1] = ct*tmp - st*tmp2
						row[j] = st*tmp + ct*tmp2
					}
				}
			} else {
				for j := mm - 2; j >= 0; j-- {
					ct, st := c[j], s[j]
					if ct != 1 || st != 0 {
						tmp, tmp2 := row[j+1], row[j]
						row[j+1] = ct*tmp - st*tmp2
						row[j] = st*tmp + ct*tmp2
					}
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), nrows/16)
	if workers < 2 || nrows*mm < 1<<15 {
		do(0, nrows)
		return
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func(r0, r1 int) { defer wg.Done(); do(r0, r1) }(w*nrows/workers, (w+1)*nrows/workers)
	}
	wg.Wait()
}

// dsteqrRows is gonum's Dsteqr with compz = lapack.EVOrig (z holds the
// orthogonal matrix of Dorgtr on entry, the eigenvectors on exit), with
// the rotations applied by rotRows.
func dsteqrRows(n int, d, e, z []float64, ldz int, work []float64) (ok bool) {
	var impl lapackgonum.Implementation
	bi := blas64.Implementation()

	eps := eigEps
	eps2 := eps * eps
	safmin := eigSafmin
	safmax := 1 / safmin
	ssfmax := math.Sqrt(safmax) / 3
	ssfmin := math.Sqrt(safmin) / eps2

	const maxit = 30
	nmaxit := n * maxit
	jtot := 0
	l1 := 0
	nm1 := n - 1

	const (
		down = iota + 1
		up
	)
	var iscale int

	for {
		if l1 > n-1 {
			// Order eigenvalues and eigenvectors (selection sort, as gonum).
			for ii := 1; ii < n; ii++ {
				i := ii - 1
				k := i
				p := d[i]
				for j := ii; j < n; j++ {
					if d[j] < p {
						k = j
						p = d[j]
					}
				}
				if k != i {
					d[k] = d[i]
					d[i] = p
					bi.Dswap(n, z[i:], ldz, z[k:], ldz)
				}
			}
			return true
		}
		if l1 > 0 {
			e[l1-1] = 0
		}
		var m int
		if l1 <= nm1 {
			for m = l1; m < nm1; m++ {
				test := math.Abs(e[m])
				if test == 0 {
					break
				}
				if test <= (math.Sqrt(math.Abs(d[m]))*math.Sqrt(math.Abs(d[m+1])))*eps {
					e[m] = 0
					break
				}
			}
		}
		l := l1
		lsv := l
		lend := m
		lendsv := lend
		l1 = m + 1
		if lend == l {
			continue
		}

		anorm := impl.Dlanst(lapack.MaxAbs, lend-l+1, d[l:], e[l:])
		switch {
		case anorm == 0:
			continue
		case anorm > ssfmax:
			iscale = down
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmax, lend-l+1, 1, d[l:], 1)
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmax, lend-l, 1, e[l:], 1)
		case anorm < ssfmin:
			iscale = up
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmin, lend-l+1, 1, d[l:], 1)
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmin, lend-l, 1, e[l:], 1)
		}

		if math.Abs(d[lend]) < math.Abs(d[l]) {
			lend = lsv
			l = lendsv
		}
		if lend > l {
			// QL iteration.
			for {
				if l != lend {
					for m = l; m < lend; m++ {
						v := math.Abs(e[m])
						if v*v <= (eps2*math.Abs(d[m]))*math.Abs(d[m+1])+safmin {
							break
						}
					}
				} else {
					m = lend
				}
				if m < lend {
					e[m] = 0
				}
				p := d[l]
				if m == l {
					l++
					if l > lend {
						break
					}
					continue
				}
				if m == l+1 {
					d[l], d[l+1], work[l], work[n-1+l] = impl.Dlaev2(d[l], e[l], d[l+1])
					rotRows(false, n, 2, work[l:], work[n-1+l:], z[l:], ldz)
					e[l] = 0
					l += 2
					if l > lend {
						break
					}
					continue
				}
				if jtot == nmaxit {
					break
				}
				jtot++

				g := (d[l+1] - p) / (2 * e[l])
				r := impl.Dlapy2(g, 1)
				g = d[m] - p + e[l]/(g+math.Copysign(r, g))
				s := 1.0
				c := 1.0
				p = 0.0
				for i := m - 1; i >= l; i-- {
					f := s * e[i]
					b := c * e[i]
					c, s, r = impl.Dlartg(g, f)
					if i != m-1 {
						e[i+1] = r
					}
					g = d[i+1] - p
					r = (d[i]-g)*s + 2*c*b
					p = s * r
					d[i+1] = g + p
					g = c*r - b
					work[i] = c
					work[n-1+i] = -s
				}
				rotRows(false, n, m-l+1, work[l:], work[n-1+l:], z[l:], ldz)
				d[l] -= p
				e[l] = g
			}
		} else {
			// QR iteration.
			for {
				if l != lend {
					for m = l; m > lend; m-- {
						v := math.Abs(e[m-1])
						if v*v <= (eps2*math.Abs(d[m])*math.Abs(d[m-1]) + safmin) {
							break
						}
					}
				} else {
					m = lend
				}
				if m > lend {
					e[m-1] = 0
				}
				p := d[l]
				if m == l {
					l--
					if l < lend {
						break
					}
					continue
				}
				if m == l-1 {
					d[l-1], d[l], work[m], work[n-1+m] = impl.Dlaev2(d[l-1], e[l-1], d[l])
					rotRows(true, n, 2, work[m:], work[n-1+m:], z[l-1:], ldz)
					e[l-1] = 0
					l -= 2
					if l < lend {
						break
					}
					continue
				}
				if jtot == nmaxit {
					break
				}
				jtot++

				g := (d[l-1] - p) / (2 * e[l-1])
				r := impl.Dlapy2(g, 1)
				g = d[m] - p + (e[l-1])/(g+math.Copysign(r, g))
				s := 1.0
				c := 1.0
				p = 0.0
				for i := m; i < l; i++ {
					f := s * e[i]
					b := c * e[i]
					c, s, r = impl.Dlartg(g, f)
					if i != m {
						e[i-1] = r
					}
					g = d[i] - p
					r = (d[i+1]-g)*s + 2*c*b
					p = s * r
					d[i] = g + p
					g = c*r - b
					work[i] = c
					work[n-1+i] = s
				}
				rotRows(true, n, l-m+1, work[m:], work[n-1+m:], z[m:], ldz)
				d[l] -= p
				e[l-1] = g
			}
		}

		switch iscale {
		case down:
			impl.Dlascl(lapack.General, 0, 0, ssfmax, anorm, lendsv-lsv+1, 1, d[lsv:], 1)
			impl.Dlascl(lapack.General, 0, 0, ssfmax, anorm, lendsv-lsv, 1, e[lsv:], 1)
		case up:
			impl.Dlascl(lapack.General, 0, 0, ssfmin, anorm, lendsv-lsv+1, 1, d[lsv:], 1)
			impl.Dlascl(lapack.General, 0, 0, ssfmin, anorm, lendsv-lsv, 1, e[lsv:], 1)
		}
		if jtot >= nmaxit {
			break
		}
	}
	for i := 0; i < n-1; i++ {
		if e[i] != 0 {
			return false
		}
	}
	return true
}
