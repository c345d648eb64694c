package main

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/learner"
	"io"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

// knnGraphSpreading reports whether --landmarks runs ln on the kNN graph
// of all n rows (d features) instead of the anchor graph, and returns its
// settings: label spreading with a knn:K affinity (the default knn:10)
// when that graph's exact search is affordable (knnGraphAffordable). The
// graph has N·K edges and no N×N matrix (the exact learner's own memory is
// O(N·K)), so, as landmark single linkage uses the exact tree of all rows,
// the landmark run uses the exact graph: its labels are the exact
// spreading's. The anchor graph stands in for it where the exact graph is
// dense (rbf:γ, --affinity kernel) or its search too slow; on UCI letter
// it was 2.0 points below the exact spreading (README, "Landmark vs exact
// accuracy"). lp keeps the anchor graph (its exact closed form is a
// sparse solve that does not scale the same way; the anchor graph's is
// M×M).
func knnGraphSpreading(ln learner.Learner, n, d int) (propagate.Spreading, bool) {
	s, ok := learner.As[propagate.Spreading](ln)
	if !ok || s.Affinity.Kind != propagate.KNN || !knnGraphAffordable(n, d) {
		return propagate.Spreading{}, false
	}
	return s, true
}

// knnBruteMax bounds the brute-force kNN graph --landmarks accepts:
// N²·d multiply-adds, 2.5·10¹¹ ≈ 50,000 rows in 100 dimensions, a few CPU
// minutes here.
const knnBruteMax = 2.5e11

// knnTreeMaxN bounds the rows of a k-d tree search in 11–20 dimensions.
const knnTreeMaxN = 250000

// knnGraphAffordable reports whether the exact kNN graph of n rows in d
// dimensions is cheap enough for --landmarks. The k-d tree's work grows
// with the intrinsic dimension of the data (internal/neighbors): on
// full-dimensional Gaussian clusters (bench/knngraph, k = 10) 10-D costs
// 1.2 CPU s at 5·10⁴ rows, 9.9 at 2·10⁵ and about 150–270 at 10⁶, but
// 20-D 2.6 and 41 CPU s at 5·10⁴ and 2·10⁵ — quadratic, as a brute force,
// so 10⁶ rows would take about half an hour. Hence: any N up to 10
// dimensions; up to knnTreeMaxN rows up to 20; beyond, a brute force of
// at most knnBruteMax multiply-adds (N²·d).
func knnGraphAffordable(n, d int) bool {
	switch {
	case d <= 10:
		return true
	case d <= neighbors.MaxTreeDim && n <= knnTreeMaxN:
		return true
	}
	return float64(n)*float64(n)*float64(d) <= knnBruteMax
}

// anchorInstead says why spreading on a knn:K affinity runs on the anchor
// graph ("" for other learners): its exact kNN graph is not affordable.
func anchorInstead(ln learner.Learner, n, d int) string {
	s, ok := learner.As[propagate.Spreading](ln)
	if !ok || s.Affinity.Kind != propagate.KNN || knnGraphAffordable(n, d) {
		return ""
	}
	if d <= neighbors.MaxTreeDim {
		return fmt.Sprintf(" (not the exact kNN graph: its k-d tree search of %d rows in %d dimensions, above %d rows, can approach a brute force of %.2g multiply-adds)",
			n, d, knnTreeMaxN, float64(n)*float64(n)*float64(d))
	}
	return fmt.Sprintf(" (not the exact kNN graph: %d rows in %d > %d dimensions need a brute-force search of %.2g multiply-adds, more than %.2g)",
		n, d, neighbors.MaxTreeDim, float64(n)*float64(n)*float64(d), knnBruteMax)
}

// knnGraphFit fits label spreading s on the kNN graph of the rows of X
// (propagate.Spreading.FitKNN) and describes it for stderr.
func knnGraphFit(ctx context.Context, X *mat.Dense, y []int, s propagate.Spreading) (*propagate.KNNModel, string, error) {
	m, err := s.FitKNN(ctx, X, y)
	if err != nil {
		return nil, "", err
	}
	alpha := s.Alpha
	if alpha == 0 {
		alpha = 0.2
	}
	n, _ := X.Dims()
	return m, fmt.Sprintf("label spreading (alpha %g) on the exact %d-NN graph of all %d rows (sparse, O(N·K) memory; the landmarks are not needed: the labels are the exact spreading's)",
		alpha, m.K(), n), nil
}

// knnGraphClassify is classify --landmarks with spreading on a kNN
// affinity: the fit on the kNN graph of all rows, the --test rows by the
// out-of-sample rule (the saved model's, propagate.KNNModel.Predict).
func knnGraphClassify(ctx context.Context, stderr io.Writer, ds, test *dataset.Dataset, s propagate.Spreading) ([]int, *landmarkFit, error) {
	m, what, err := knnGraphFit(ctx, ds.X, ds.Y, s)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "--landmarks: %s\n", what)
	for _, w := range m.Model.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	pred := m.Transduction()
	keepGiven(pred, ds.Y) // as ssl.Transduce: labelled rows keep their labels
	if test != nil {
		pt, err := m.Predict(ctx, nil, test.X)
		if err != nil {
			return nil, nil, err
		}
		pred = append(pred, pt...)
	}
	return pred, &landmarkFit{model: m}, nil
}

// landmarkNeed is the memory estimate of eval --landmarks: the N×M
// features and M×M blocks for the learners that use the landmarks, the
// sparse graph (propagationBytes) for spreading on the kNN graph.
// It returns the largest, what it is for, and the hint for the error.
func landmarkNeed(learners []learner.Learner, ds *dataset.Dataset, m int) (float64, string, string) {
	need, what, hint := 0.0, "", ""
	for _, l := range learners {
		b, w, h := landmarkBytes(ds.Len(), ds.Dim(), m), fmt.Sprintf("%d landmarks for %d rows", m, ds.Len()), "use fewer --landmarks"
		if _, ok := knnGraphSpreading(l, ds.Len(), ds.Dim()); ok {
			b, w, _ = propagationBytes(l, ds)
			h = "use fewer neighbours (--affinity knn:K)"
		}
		if b > need {
			need, what, hint = b, w, h
		}
	}
	return need, what, hint
}

// isKNNGraphSpreading is knnGraphSpreading's report alone.
func isKNNGraphSpreading(ln learner.Learner, ds *dataset.Dataset) bool {
	_, ok := knnGraphSpreading(ln, ds.Len(), ds.Dim())
	return ok
}

// withGraphProgress hands the command's progress display to spreading
// (stages "affinity", "iterate" on the kNN graph; the anchor graph does
// not report); other learners are returned unchanged.
func withGraphProgress(ln learner.Learner, p func(stage string, done, total int)) learner.Learner {
	if s, ok := learner.As[propagate.Spreading](ln); ok && p != nil {
		s.Progress = p
		if _, points := ln.(learner.PointFitter); points {
			return learner.AdaptPoints(ln.Name(), s)
		}
		return learner.Adapt(ln.Name(), s)
	}
	return ln
}
