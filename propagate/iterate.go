package propagate

import (
	"context"
)

// iterate is scikit-learn's LabelPropagation loop: F ← rownorm(W·F) on the
// unlabelled rows, labelled rows clamped to their labels, stop when
// Σ|F − F_prev| < Tol (tested before each step). Multi-label: F ← D⁻¹W·F,
// clamped, without normalisation (paper 002 §3 steps 3-4).
func (p Propagation) iterate(ctx context.Context, g *graph, pr *problem, on []bool, res *Model) ([]float64, error) {
	n, C := pr.n, pr.C
	tol := p.Tol
	if tol == 0 {
		tol = 1e-3
	}
	maxIter := p.MaxIter
	if maxIter == 0 {
		maxIter = 1000
	}
	uon := make([]bool, n)
	for i := range uon {
		uon[i] = !pr.labeled[i]
	}
	var deg []float64
	if pr.multi {
		deg, _ = g.rowSums(on)
	}
	F := append([]float64(nil), pr.Y...)
	prev := make([]float64, n*C)
	next := make([]float64, n*C)
	// Single-label shortcut: once every row of F sums to 1, the row sums of
	// W·F are the degrees, so the last column of W·F is deg − Σ of the
	// others and only C−1 columns need the product (the rows are then
	// normalised as before; the results agree to rounding).
	var degAll, Fs, Ns []float64
	if !pr.multi {
		degAll, _ = g.rowSums(allTrue(n))
		Fs = make([]float64, n*(C-1))
		Ns = make([]float64, n*(C-1))
	}
	res.Converged = false
	it := 0
	for ; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Change = sumAbsDiff(F, prev)
		if res.Change < tol {
			res.Converged = true
			break
		}
		if Fs != nil && rowsFull(F, C) {
			Cs := C - 1
			for i := 0; i < n; i++ {
				copy(Fs[i*Cs:(i+1)*Cs], F[i*C:i*C+Cs])
			}
			if err := g.mul(ctx, Ns, Fs, Cs, uon); err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				if !uon[i] {
					continue
				}
				s := 0.0
				for c := 0; c < Cs; c++ {
					v := Ns[i*Cs+c]
					next[i*C+c] = v
					s += v
				}
				next[i*C+Cs] = degAll[i] - s
			}
		} else if err := g.mul(ctx, next, F, C, uon); err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			row := next[i*C : (i+1)*C]
			if pr.labeled[i] {
				copy(row, pr.Y[i*C:(i+1)*C])
				continue
			}
			if pr.multi {
				if deg[i] > 0 {
					for c := range row {
						row[c] /= deg[i]
					}
				}
				continue
			}
			s := 0.0
			for _, v := range row {
				s += v
			}
			if s != 0 {
				for c := range row {
					row[c] /= s
				}
			}
		}
		F, prev, next = next, F, prev
		progress(p.Progress, "iterate", it+1, maxIter)
	}
	res.Iter = it
	if !res.Converged {
		res.Change = sumAbsDiff(F, prev)
		res.Warnings = append(res.Warnings, notConverged(maxIter, res.Change, tol))
	}
	return F, nil
}

// rowsFull reports whether every row of F has a positive sum.
func rowsFull(F []float64, C int) bool {
	for i := 0; i < len(F); i += C {
		s := 0.0
		for _, v := range F[i : i+C] {
			s += v
		}
		if !(s > 0) {
			return false
		}
	}
	return true
}

func allTrue(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}
