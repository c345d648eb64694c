package sparse

import (
	"context"
	"math"
)

// Solve solves A·x = b column by column (C columns sharing each product
// with A) on the rows with on[i], preconditioned by prec (nil = identity):
// conjugate gradients when A is symmetric, BiCGSTAB otherwise. It returns x
// (zero off the active rows), the iterations and the largest relative
// residual.
func Solve(ctx context.Context, apply func(out, x []float64) error, b []float64, prec func(out, in []float64), on []bool, C int,
	tol float64, maxIter int, sym bool, prog func(string, int, int)) ([]float64, int, float64, error) {
	N := len(b)
	x := make([]float64, N)
	r := append([]float64(nil), b...)
	bn := colNorms(b, C, on)
	if prec == nil {
		prec = func(out, in []float64) { copy(out, in) }
	}
	relres := func() (float64, []bool) {
		rn := colNorms(r, C, on)
		worst := 0.0
		done := make([]bool, C)
		for c := range rn {
			rel := 0.0
			if bn[c] > 0 {
				rel = rn[c] / bn[c]
			}
			done[c] = rel <= tol
			worst = max(worst, rel)
		}
		return worst, done
	}
	worst, done := relres()
	if worst <= tol {
		return x, 0, worst, nil
	}
	if sym {
		z := make([]float64, N)
		prec(z, r)
		pv := append([]float64(nil), z...)
		q := make([]float64, N)
		rz := colDots(r, z, C, on)
		for it := 1; it <= maxIter; it++ {
			if err := ctx.Err(); err != nil {
				return nil, 0, 0, err
			}
			if err := apply(q, pv); err != nil {
				return nil, 0, 0, err
			}
			pq := colDots(pv, q, C, on)
			alpha := make([]float64, C)
			for c := range alpha {
				if !done[c] && pq[c] > 0 {
					alpha[c] = rz[c] / pq[c]
				}
			}
			axpyCols(x, alpha, pv, C, on, 1)
			axpyCols(r, alpha, q, C, on, -1)
			worst, done = relres()
			progress(prog, "solve", it, maxIter)
			if worst <= tol {
				return x, it, worst, nil
			}
			prec(z, r)
			rzNew := colDots(r, z, C, on)
			for i := 0; i < N/C; i++ {
				if !on[i] {
					continue
				}
				for c := 0; c < C; c++ {
					beta := 0.0
					if rz[c] > 0 {
						beta = rzNew[c] / rz[c]
					}
					pv[i*C+c] = z[i*C+c] + beta*pv[i*C+c]
				}
			}
			rz = rzNew
		}
		return x, maxIter, worst, nil
	}
	// BiCGSTAB (van der Vorst 1992), right-preconditioned, per column.
	rh := append([]float64(nil), r...)
	pv := make([]float64, N)
	v := make([]float64, N)
	s := make([]float64, N)
	t := make([]float64, N)
	ph := make([]float64, N)
	sh := make([]float64, N)
	rho := make([]float64, C)
	alpha := make([]float64, C)
	omega := make([]float64, C)
	for c := range rho {
		rho[c], alpha[c], omega[c] = 1, 1, 1
	}
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, 0, err
		}
		rhoNew := colDots(rh, r, C, on)
		for c := 0; c < C; c++ {
			if done[c] {
				continue
			}
			if rhoNew[c] == 0 || omega[c] == 0 { // breakdown: restart the shadow residual
				for i := 0; i < N/C; i++ {
					rh[i*C+c] = r[i*C+c]
					pv[i*C+c] = 0
					v[i*C+c] = 0
				}
				rho[c], alpha[c], omega[c] = 1, 1, 1
				rhoNew[c] = colDot(rh, r, C, on, c)
			}
			beta := (rhoNew[c] / rho[c]) * (alpha[c] / omega[c])
			for i := 0; i < N/C; i++ {
				if on[i] {
					k := i*C + c
					pv[k] = r[k] + beta*(pv[k]-omega[c]*v[k])
				}
			}
			rho[c] = rhoNew[c]
		}
		prec(ph, pv)
		if err := apply(v, ph); err != nil {
			return nil, 0, 0, err
		}
		rv := colDots(rh, v, C, on)
		for c := 0; c < C; c++ {
			alpha[c] = 0
			if !done[c] && rv[c] != 0 {
				alpha[c] = rho[c] / rv[c]
			}
		}
		copy(s, r)
		axpyCols(s, alpha, v, C, on, -1)
		prec(sh, s)
		if err := apply(t, sh); err != nil {
			return nil, 0, 0, err
		}
		ts, tt := colDots(t, s, C, on), colDots(t, t, C, on)
		for c := 0; c < C; c++ {
			omega[c] = 0
			if !done[c] && tt[c] > 0 {
				omega[c] = ts[c] / tt[c]
			}
		}
		axpyCols(x, alpha, ph, C, on, 1)
		axpyCols(x, omega, sh, C, on, 1)
		copy(r, s)
		axpyCols(r, omega, t, C, on, -1)
		worst, done = relres()
		progress(prog, "solve", it, maxIter)
		if worst <= tol {
			return x, it, worst, nil
		}
	}
	return x, maxIter, worst, nil
}

// The vector helpers below ignore the mask: every vector of solve is zero
// off the active rows (b is, and apply and prec write only active rows), so
// the inactive rows add nothing.

func colNorms(a []float64, C int, on []bool) []float64 {
	out := colDots(a, a, C, on)
	for c := range out {
		out[c] = math.Sqrt(out[c])
	}
	return out
}

func colDots(a, b []float64, C int, _ []bool) []float64 {
	out := make([]float64, C)
	if C == 1 {
		b = b[:len(a)]
		var s0, s1 float64
		i := 0
		for ; i+2 <= len(a); i += 2 {
			s0 += a[i] * b[i]
			s1 += a[i+1] * b[i+1]
		}
		for ; i < len(a); i++ {
			s0 += a[i] * b[i]
		}
		out[0] = s0 + s1
		return out
	}
	for i := 0; i < len(a)/C; i++ {
		for c := 0; c < C; c++ {
			out[c] += a[i*C+c] * b[i*C+c]
		}
	}
	return out
}

func colDot(a, b []float64, C int, _ []bool, c int) float64 {
	s := 0.0
	for i := 0; i < len(a)/C; i++ {
		s += a[i*C+c] * b[i*C+c]
	}
	return s
}

// axpyCols: y[:, c] += sign·alpha[c]·x[:, c].
func axpyCols(y, alpha, x []float64, C int, _ []bool, sign float64) {
	if C == 1 {
		a := sign * alpha[0]
		x = x[:len(y)]
		for i := range y {
			y[i] += a * x[i]
		}
		return
	}
	for i := 0; i < len(y)/C; i++ {
		for c := 0; c < C; c++ {
			y[i*C+c] += sign * alpha[c] * x[i*C+c]
		}
	}
}

func progress(f func(string, int, int), stage string, done, total int) {
	if f != nil {
		f(stage, done, total)
	}
}
