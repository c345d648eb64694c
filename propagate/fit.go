package propagate

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Fit propagates the labels y (learner.Unlabeled = −1 for unlabelled points)
// over the affinity graph of the rows of X. See the package documentation
// for the methods, and the errors.
func (p Propagation) Fit(ctx context.Context, X mat.Matrix, y []int) (*Model, error) {
	return p.fit(ctx, X, nil, y, nil)
}

// FitSets is Fit for multi-label data: sets[i] lists the labels of point i
// (nil or empty = unlabelled). Each label column is propagated independently
// (paper 002 §3, E₂ = tr(fᵀLf)).
func (p Propagation) FitSets(ctx context.Context, X mat.Matrix, sets [][]int) (*Model, error) {
	if sets == nil {
		sets = [][]int{}
	}
	return p.fit(ctx, X, nil, nil, sets)
}

// FitGram propagates over a given symmetric matrix: the affinity W itself
// (Affinity.Kind "" or Precomputed; W ≥ 0), or an RBF / kNN graph over the
// matrix's kernel-induced distances.
func (p Propagation) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	return p.fit(ctx, nil, K, y, nil)
}

// FitGramSets is FitGram for multi-label data.
func (p Propagation) FitGramSets(ctx context.Context, K mat.Symmetric, sets [][]int) (*Model, error) {
	if sets == nil {
		sets = [][]int{}
	}
	return p.fit(ctx, nil, K, nil, sets)
}

func progress(f func(string, int, int), stage string, done, total int) {
	if f != nil {
		f(stage, done, total)
	}
}

func buildGraph(ctx context.Context, a Affinity, X mat.Matrix, K mat.Symmetric) (*graph, error) {
	if K != nil {
		return a.fromGram(ctx, K)
	}
	return a.fromPoints(ctx, X)
}

func dims(X mat.Matrix, K mat.Symmetric) (int, error) {
	if K != nil {
		return K.SymmetricDim(), nil
	}
	if X == nil {
		return 0, fmt.Errorf("%w: nil X", ErrShape)
	}
	n, _ := X.Dims()
	return n, nil
}

func (p Propagation) fit(ctx context.Context, X mat.Matrix, K mat.Symmetric, y []int, sets [][]int) (*Model, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	pr, g, on, res, err := setup(ctx, X, K, y, sets, p.Classes, p.Affinity, p.Unreachable, p.Method, Closed, p.Progress, false)
	if err != nil {
		return nil, err
	}
	var F []float64
	if res.Method == Closed {
		// L = D − W does not depend on W_ii; computing D_ii − W_ii and
		// (W·x)_i − W_ii·x_i would cancel the tiny neighbour weights of
		// a large RBF gamma (a zero Jacobi pivot: NaN scores).
		g.dropSelfLoops()
		F, err = p.closed(ctx, g, pr, on, res)
	} else {
		F, err = p.iterate(ctx, g, pr, on, res)
	}
	if err != nil {
		return nil, err
	}
	if err := checkScores(F, pr.C); err != nil {
		return nil, err
	}
	finish(res, pr, F, on, !pr.multi, p.Threshold)
	res.first(p.Unreachable)
	return res, nil
}

// setup is the part Propagation and Spreading share: the labelled problem,
// the affinity graph, which points a label can reach, and the Result shell
// (Method defaults to def).
func setup(ctx context.Context, X mat.Matrix, K mat.Symmetric, y []int, sets [][]int, classes int, aff Affinity,
	unrPolicy, method, def string, prog func(string, int, int), allLabeled bool) (*problem, *graph, []bool, *Model, error) {
	n, err := dims(X, K)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	pr, err := newProblem(y, sets, classes, n, allLabeled)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	progress(prog, "affinity", 0, 1)
	g, err := buildGraph(ctx, aff, X, K)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	progress(prog, "affinity", 1, 1)
	on := g.reach(pr.labeled)
	unr, warns, err := unreachable(on, pr.labeled, unrPolicy)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	res := &Model{NClasses: pr.C, Unreachable: unr, Warnings: warns, Method: method}
	if res.Method == "" {
		res.Method = def
	}
	return pr, g, on, res, nil
}
