package propagate

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/internal/sparse"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Fit spreads the labels y (learner.Unlabeled = −1 for unlabelled points) over
// the affinity graph of the rows of X: F ← αSF + (1−α)Y with
// S = D^{-1/2}W₀D^{-1/2}, W₀ = W with a zero diagonal and D its column sums
// (scikit-learn's LabelSpreading), to convergence (Iterative) or solved
// exactly (Closed).
func (s Spreading) Fit(ctx context.Context, X mat.Matrix, y []int) (*Model, error) {
	return s.fit(ctx, X, nil, y)
}

// FitGram is Fit over a given symmetric matrix (see Propagation.FitGram).
func (s Spreading) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	return s.fit(ctx, nil, K, y)
}

func (s Spreading) fit(ctx context.Context, X mat.Matrix, K mat.Symmetric, y []int) (*Model, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	pr, g, on, res, err := setup(ctx, X, K, y, nil, s.Classes, s.Affinity, s.Unreachable, s.Method, Iterative, s.Progress, s.inductive)
	if err != nil {
		return nil, err
	}
	n := len(y)
	C := pr.C
	alpha := s.alpha()
	// S·x = D^{-1/2}·W₀·D^{-1/2}·x, with isolated points (degree 0) given
	// degree 1 as scipy's csgraph.laplacian does. W₀ is formed by zeroing
	// the diagonal: computing W·x − W_ii·x_i instead cancels catastrophically
	// when a point's off-diagonal weights are tiny against W_ii = 1 (RBF with
	// a large gamma: wrong labels).
	g.dropSelfLoops()
	w := g.colSums()
	isq := make([]float64, n)
	for i, v := range w {
		if math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: the affinities of point %d sum to %v (overflow)", ErrNonFinite, i, v)
		}
		if v == 0 {
			v = 1
		}
		isq[i] = 1 / math.Sqrt(v)
	}
	self := g.selfLoops()
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	xs := make([]float64, n*C)
	tmp := make([]float64, n*C)
	// mulS sets out = S·x on the rows with act[i].
	mulS := func(out, x []float64, act []bool) error {
		for i := 0; i < n; i++ {
			for c := 0; c < C; c++ {
				xs[i*C+c] = x[i*C+c] * isq[i]
			}
		}
		if err := g.mul(ctx, tmp, xs, C, act); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if !act[i] {
				continue
			}
			for c := 0; c < C; c++ {
				out[i*C+c] = isq[i] * (tmp[i*C+c] - self[i]*xs[i*C+c])
			}
		}
		return nil
	}
	var F []float64
	if res.Method == Closed {
		tol := s.Tol
		if tol == 0 {
			// I − αS has condition number ≤ (1+α)/(1−α): a tight tolerance
			// costs few steps and keeps the small scores of far points
			// accurate after row normalisation.
			tol = 1e-13
		}
		maxIter := s.MaxIter
		if maxIter == 0 {
			maxIter = n + 100
		}
		b := make([]float64, n*C)
		for i := range b {
			b[i] = (1 - alpha) * pr.Y[i]
		}
		sx := make([]float64, n*C)
		apply := func(out, x []float64) error {
			if err := mulS(sx, x, on); err != nil {
				return err
			}
			for i := 0; i < n; i++ {
				if !on[i] {
					continue
				}
				for c := 0; c < C; c++ {
					out[i*C+c] = x[i*C+c] - alpha*sx[i*C+c]
				}
			}
			return nil
		}
		x, it, rel, err := sparse.Solve(ctx, apply, b, nil, on, C, tol, maxIter, g.sym, s.Progress)
		if err != nil {
			return nil, err
		}
		F = x
		res.Iter, res.Change, res.Converged = it, rel, rel <= tol
		if !res.Converged {
			res.Warnings = append(res.Warnings, fmt.Errorf("%w: solver stopped at MaxIter = %d with relative residual %.3g > Tol = %g", ErrNotConverged, maxIter, rel, tol))
		}
	} else {
		tol := s.Tol
		if tol == 0 {
			tol = 1e-3
		}
		maxIter := s.MaxIter
		if maxIter == 0 {
			maxIter = 30
		}
		F = append([]float64(nil), pr.Y...)
		prev := make([]float64, n*C)
		next := make([]float64, n*C)
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
			if err := mulS(next, F, all); err != nil {
				return nil, err
			}
			for i := range next {
				next[i] = alpha*next[i] + (1-alpha)*pr.Y[i]
			}
			F, prev, next = next, F, prev
			progress(s.Progress, "iterate", it+1, maxIter)
		}
		res.Iter = it
		if !res.Converged {
			res.Change = sumAbsDiff(F, prev)
			res.Warnings = append(res.Warnings, notConverged(maxIter, res.Change, tol))
		}
	}
	if err := checkScores(F, C); err != nil {
		return nil, err
	}
	finish(res, pr, F, on, true, 0)
	res.first(s.Unreachable)
	return res, nil
}
