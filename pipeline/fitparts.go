package pipeline

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/svm"
)

// LandmarkChoice says which rows are landmarks: M of them (0: the exact
// method), chosen by Method (landmark.KMeans or landmark.Random) with
// Seed, the labelled rows first when there are fewer than M.
type LandmarkChoice struct {
	M      int
	Method string
	Seed   uint64
}

// Features fits the landmark feature map of spec on M landmarks of X
// (FitMap) and returns it with the features of X, the gamma
// rbf:scale resolved to, and a description for stderr.
//
// y, when not nil, gives the labels: the labelled rows are then landmarks
// (l.choose), so that every kernel value the learners read between a row
// and a labelled row is the kernel's own.
//
// labelledScale: rbf:scale takes gamma from the labelled rows of y, as the
// exact SVM does (svmScaleRows, ssl.SVM); otherwise from all rows, as the
// exact kNN and the kernel command do. With the labelled rows among the
// landmarks the landmark SVM and kNN are then the exact ones for rbf:scale
// too (gamma matters to kNN only through rounding: exp(−γd²) underflows
// for a large gamma, and the tied zeros rank by index).
func (l LandmarkChoice) Features(ctx context.Context, X *mat.Dense, spec kernel.Spec, y []int, labelledScale bool) (landmark.Map, *mat.Dense, float64, string, error) {
	fm, t, gamma, desc, err := l.Training(ctx, X, spec, y, labelledScale)
	if err != nil {
		return nil, nil, 0, "", err
	}
	Z, err := t.All(ctx)
	if err != nil {
		return nil, nil, 0, "", err
	}
	return fm, Z, gamma, desc, nil
}

// Training is Features with the features of X as a landmark.Training,
// given a block of rows at a time, instead of the N×r matrix.
func (l LandmarkChoice) Training(ctx context.Context, X *mat.Dense, spec kernel.Spec, y []int, labelledScale bool) (landmark.Map, *landmark.Training, float64, string, error) {
	n, _ := X.Dims()
	if l.M > n {
		return nil, nil, 0, "", learner.Settingsf("--landmarks %d: more than the %d rows", l.M, n)
	}
	switch spec.Kind {
	case kernel.KindPoint, kernel.KindHCK, kernel.KindConnectivity, kernel.KindISOMAP, kernel.KindMultiType:
	default:
		return nil, nil, 0, "", learner.Settingsf("--landmarks works with point kernels, the cluster kernels (hck, hckg, connectivity), isomap and multitype, not %s", spec)
	}
	lm, which, err := l.Choose(ctx, X, y)
	if err != nil {
		return nil, nil, 0, "", err
	}
	scaled := 0.0
	if spec.Kind == kernel.KindPoint && spec.Scale && labelledScale {
		if Xl, ok := labelledRowsOf(X, y); ok {
			spec.Point, scaled = spec.Resolve(Xl)
			spec.Scale = false
		}
	}
	fm, Z, gamma, err := FitMapTraining(ctx, X, spec, lm)
	if err != nil {
		return nil, nil, 0, "", err
	}
	if scaled > 0 {
		gamma = scaled
	}
	var desc string
	switch m := fm.(type) {
	case *landmark.ISOMAP:
		desc = fmt.Sprintf("landmarks %d (%s): landmark ISOMAP (shortest paths from the landmarks, landmark MDS), rank %d (%d eigenvalues clipped)",
			len(lm), which, m.Rank, m.Clipped)
	case *landmark.Nystrom:
		desc = fmt.Sprintf("landmarks %d (%s): Nyström rank %d (%d eigenvalues clipped)", len(lm), which, m.Rank, m.Clipped)
		if m.AllRows {
			desc += fmt.Sprintf("; %s: exact kernel rows against the landmarks", allRowsTree(spec, n))
		}
		if j := m.Joins(); j > 0 {
			desc += fmt.Sprintf("; geodesics from the landmarks on the graph of all %d rows, %d components joined by paper 000 Eq. 4", n, j+1)
		}
	case *landmark.MultiType:
		desc = fmt.Sprintf("landmarks %d (%s): multi-type kernel on the Nyström affinity, %d features", len(lm), which, m.Rank)
	}
	return fm, Z, gamma, desc, nil
}

// Choose returns the landmark rows of X and how they were chosen: every
// labelled row of y (when fewer than M; landmark.ChooseIncluding)
// and the rest by --landmark-method; with y nil, or M or more labelled
// rows, all M by --landmark-method.
func (l LandmarkChoice) Choose(ctx context.Context, X *mat.Dense, y []int) ([]int, string, error) {
	lab := labelledRows(y)
	lm, all, err := landmark.ChooseIncluding(ctx, X, l.M, l.Method, l.Seed, lab)
	if err != nil {
		return nil, "", err
	}
	switch {
	case len(lab) == 0:
		return lm, fmt.Sprintf("%s, seed %d", l.Method, l.Seed), nil
	case all:
		return lm, fmt.Sprintf("the %d labelled rows and %d by %s, seed %d", len(lab), len(lm)-len(lab), l.Method, l.Seed), nil
	}
	return lm, fmt.Sprintf("%s, seed %d; the %d labelled rows are not all landmarks: as many as M or more", l.Method, l.Seed, len(lab)), nil
}

// landmarkFit is what classify --landmarks fitted, for --save-model.
type landmarkFit struct {
	spec  kernel.Spec
	gamma float64
	fm    landmark.Map // nil for the anchor graph
	model learner.Saver
	// out holds the probabilities and decision values (model classes'
	// columns) of the training rows, then the test rows, when asked.
	out *Prediction
}

// anchorFit is label propagation (lp) or spreading on the anchor graph of
// the M landmarks (propagate.AnchorGraph, Liu, He & Chang 2010;
// propagate.AnchorSpreading; 3 nearest anchors), or spreading with a knn:K
// affinity on the kNN graph of all rows (knnGraphSpreading).
func anchorFit(ctx context.Context, log io.Writer, l LandmarkChoice, ds, test *dataset.Dataset, ln learner.Learner) ([]int, *landmarkFit, error) {
	if s, ok := KNNGraphSpreading(ln, ds.Len(), ds.Dim()); ok {
		// Spreading on a knn:K affinity: the kNN graph of all rows (knngraphspread.go).
		return knnGraphClassify(ctx, log, ds, test, s)
	}
	if l.M > ds.Len() {
		return nil, nil, learner.Settingsf("--landmarks %d: more than the %d rows", l.M, ds.Len())
	}
	lm, which, err := l.Choose(ctx, ds.X, ds.Y)
	if err != nil {
		return nil, nil, err
	}
	m, what, err := AnchorFit(ctx, ds.X, rowsOf(ds.X, lm), ds.Y, ln)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(log, "landmarks %d (%s): %s%s\n", len(lm), which, what, AnchorInstead(ln, ds.Len(), ds.Dim()))
	for _, w := range m.Warnings {
		fmt.Fprintln(log, "warning:", ClassWarnText(w, ds.Classes))
	}
	pred := m.Transduction()
	if test != nil {
		pt, err := m.Predict(ctx, nil, test.X)
		if err != nil {
			return nil, nil, err
		}
		pred = append(pred, pt...)
	}
	return pred, &landmarkFit{model: m}, nil
}

// LandmarkKNN fits kNN (knn.Classifier, Euclidean) on the features of the
// labelled rows of Z. With landmark ISOMAP the queries' own squared norms
// are left out of the ranking (knn.Classifier.IgnoreSelf): a row that is
// not a landmark carries the geodesics' non-Euclidean misfit along B's
// small eigenvalues in ‖z(x)‖², which the ranking does not depend on but
// whose size would swamp the computed distances and the tie quantum.
func LandmarkKNN(ctx context.Context, Z *mat.Dense, y []int, k int, spec kernel.Spec) (*knn.Model, error) {
	Zl, yl := LabelledFeatures(Z, y)
	if k >= len(yl) {
		return nil, learner.Settingsf("--k %d: only %d labelled rows (want fewer neighbours than labelled rows)", k, len(yl))
	}
	return knn.Classifier{K: k, IgnoreSelf: spec.Kind == kernel.KindISOMAP}.Fit(ctx, Zl, yl)
}

// LabelledFeatures returns the rows of Z that carry a label in y and
// their labels: what every learner on landmark features fits on.
func LabelledFeatures(Z *mat.Dense, y []int) (*mat.Dense, []int) {
	lab := labelledRows(y)
	_, r := Z.Dims()
	yl := make([]int, len(lab))
	if len(lab) == 0 {
		return &mat.Dense{}, yl
	}
	Zl := mat.NewDense(len(lab), r, nil)
	for a, i := range lab {
		Zl.SetRow(a, Z.RawRowView(i))
		yl[a] = y[i]
	}
	return Zl, yl
}

// PredictBlocks labels every row of Z with predict, 65,536 rows at a time
// (a kNN query holds block × labelled kernel values), into dst (nil
// allocates).
func PredictBlocks(Z *mat.Dense, predict func(dst []int, Zb *mat.Dense) ([]int, error), pred []int) ([]int, error) {
	n, r := Z.Dims()
	if pred == nil {
		pred = make([]int, n)
	}
	for lo := 0; lo < n; lo += 65536 {
		hi := min(lo+65536, n)
		if _, err := predict(pred[lo:hi], Z.Slice(lo, hi, 0, r).(*mat.Dense)); err != nil {
			return nil, err
		}
	}
	return pred, nil
}

// LabelBlockRows is the block of training rows whose features are
// labelled at once (PredictTraining): 65,536 for knn, whose tie quantum is
// taken over the block (as PredictBlocks takes it), 8,192 for svm and
// linsvm, whose labels are row by row.
func LabelBlockRows(family string) int {
	if family == "knn" {
		return 65536
	}
	return 2 * landmark.BlockRows
}

// PredictTraining labels every training row of t with predict, block rows
// at a time (a multiple of landmark.BlockRows), into pred: the features of
// one block at a time, so that memory is block × r, not N × r. The labels
// equal PredictBlocks' on t's dense features (bit for bit the same blocks
// for knn; rows independent of the block for svm and linsvm). hold, if not
// nil, is called once the block's buffer is allocated.
func PredictTraining(ctx context.Context, t *landmark.Training, block int, predict func(dst []int, Zb *mat.Dense) ([]int, error), pred []int, hold func()) error {
	return labelTraining(ctx, t, block, func(lo, hi int, Zb *mat.Dense) error {
		_, err := predict(pred[lo:hi], Zb)
		return err
	}, hold)
}

// labelTraining calls label with the features Zb of the training rows
// lo..hi of t, block rows at a time in row order (PredictTraining).
func labelTraining(ctx context.Context, t *landmark.Training, block int, label func(lo, hi int, Zb *mat.Dense) error, hold func()) error {
	n, r := t.Len(), t.Rank()
	if block%landmark.BlockRows != 0 || block <= 0 {
		return fmt.Errorf("pipeline: block of %d rows, want a multiple of %d", block, landmark.BlockRows)
	}
	buf := mat.NewDense(max(min(block, n), 1), r, nil)
	if hold != nil {
		hold()
	}
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		Zb, err := t.Block(ctx, buf.Slice(0, hi-lo, 0, r).(*mat.Dense), lo, hi)
		if err != nil {
			return err
		}
		if err := label(lo, hi, Zb); err != nil {
			return err
		}
	}
	return nil
}

func labelledRows(y []int) []int {
	var lab []int
	for i, c := range y {
		if c >= 0 {
			lab = append(lab, i)
		}
	}
	return lab
}

// classifyLandmarks labels every row of ds (and of test) with a learner on
// landmark features: "svm" → the C-SVC with the linear kernel on the
// features (landmarkSVM), "knn" → kNN on the
// features (knn.Classifier), "lp"/"spreading" → the anchor graph.
func classifyLandmarks(ctx context.Context, log io.Writer, l LandmarkChoice, ds, test *dataset.Dataset, spec kernel.Spec, ln learner.Learner, family string, hold func(), w Want) ([]int, *landmarkFit, error) {
	switch family {
	case "lp", "spreading":
		pred, fit, err := anchorFit(ctx, log, l, ds, test, ln)
		if err == nil && w.Proba {
			err = fit.pointOutputs(ctx, ds, test)
		}
		return pred, fit, err
	case "svm", "knn", "linsvm":
	default:
		return nil, nil, learner.Settingsf("--landmarks works with --learner svm, linsvm, knn, lp or spreading, not %s", family)
	}
	fm, tr, gamma, desc, err := l.Training(ctx, ds.X, spec, ds.Y, family != "knn")
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintln(log, desc)
	// The learners fit on the labelled rows' features alone.
	lab := labelledRows(ds.Y)
	Zl, err := tr.Rows(ctx, lab)
	if err != nil {
		return nil, nil, err
	}
	yl := make([]int, len(lab))
	for a, i := range lab {
		yl[a] = ds.Y[i]
	}
	fit := &landmarkFit{spec: spec, gamma: gamma, fm: fm}
	var predict func(dst []int, Z *mat.Dense) ([]int, error)
	switch family {
	case "svm":
		c, _ := learner.As[svm.Classifier](ln)
		m, err := LandmarkSVMWith(ctx, Zl, yl, c)
		if err != nil {
			return nil, nil, err
		}
		for _, w := range m.Warnings {
			fmt.Fprintln(log, "warning:", w)
		}
		fit.model = m
		predict = func(dst []int, Z *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Z) }
	case "linsvm":
		c, _ := learner.As[linsvm.Classifier](ln)
		m, err := LandmarkLinSVM(ctx, Zl, yl, c)
		if err != nil {
			return nil, nil, err
		}
		if w := LinsvmWarning(m); w != "" {
			fmt.Fprintln(log, "warning:", w)
		}
		fit.model = m
		predict = func(dst []int, Z *mat.Dense) ([]int, error) { return m.Predict(ctx, dst, Z) }
	case "knn":
		c, _ := learner.As[knn.Classifier](ln)
		m, err := LandmarkKNN(ctx, Zl, yl, c.K, spec)
		if err != nil {
			return nil, nil, err
		}
		fit.model = m
		predict = func(dst []int, Z *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Z) }
	}
	n := ds.Len()
	pred := make([]int, n)
	var testOut *Prediction
	if test != nil {
		// As a saved pipeline labels new points (arbor predict).
		testOut, err = (&Landmarks{Map: fm, Model: fit.model}).PredictWant(ctx, test.X, w)
		if err != nil {
			return nil, nil, err
		}
		pred = append(pred, testOut.Labels...)
	}
	label := func(lo, hi int, Zb *mat.Dense) error {
		_, err := predict(pred[lo:hi], Zb)
		return err
	}
	if w.Proba || w.Decision {
		// The outputs of each block of training rows from its features,
		// as its labels.
		fit.out = &Prediction{}
		var parts []*Prediction
		label = func(lo, hi int, Zb *mat.Dense) error {
			o := &Prediction{}
			parts = append(parts, o)
			if err := featureOutputs(ctx, fit.model, o, w, Zb, true); err != nil {
				return err
			}
			copy(pred[lo:hi], o.Labels)
			o.Labels = nil
			return nil
		}
		defer func() {
			if testOut != nil {
				parts = append(parts, testOut)
			}
			fit.out.Proba = stack(parts, func(q *Prediction) *mat.Dense { return q.Proba })
			fit.out.Decision = stack(parts, func(q *Prediction) *mat.Dense { return q.Decision })
		}()
	}
	if err := labelTraining(ctx, tr, LabelBlockRows(family), label, hold); err != nil {
		return nil, nil, err
	}
	keepGiven(pred[:n], ds.Y)
	return pred, fit, nil
}

// pointOutputs sets the probabilities of a model on the points (the anchor
// graph, the kNN graph) for the training rows of ds, then the test rows.
func (f *landmarkFit) pointOutputs(ctx context.Context, ds, test *dataset.Dataset) error {
	var parts []*Prediction
	switch m := f.model.(type) {
	case *propagate.AnchorModel:
		P, err := m.Proba(ctx, nil, ds.X)
		if err != nil {
			return err
		}
		parts = append(parts, &Prediction{Proba: P})
	case *propagate.KNNModel:
		parts = append(parts, &Prediction{Proba: m.TransductionProba()})
	default:
		return fmt.Errorf("%w: %T on the points", ErrLearner, f.model)
	}
	if test != nil {
		o, err := (&Landmarks{Model: f.model}).PredictWant(ctx, test.X, Want{Proba: true})
		if err != nil {
			return err
		}
		parts = append(parts, o)
	}
	f.out = &Prediction{Proba: stack(parts, func(q *Prediction) *mat.Dense { return q.Proba })}
	return nil
}

// keepGiven gives labelled rows their own labels (as ssl.Transduce does).
func keepGiven(pred, y []int) {
	for i, c := range y {
		if c >= 0 {
			pred[i] = c
		}
	}
}

// allRowsTree names the tree of all rows a landmark cluster kernel was
// restricted from (FitMap).
func allRowsTree(spec kernel.Spec, n int) string {
	m := hclust.Single
	if spec.Kind == kernel.KindHCK {
		m = spec.Method
	}
	graphs := spec.Graph != nil
	switch {
	case m == hclust.Single && graphs:
		return fmt.Sprintf("the single-linkage tree of all %d rows (the joined graph's minimum spanning tree)", n)
	case m == hclust.Single:
		return fmt.Sprintf("the single-linkage tree of all %d rows (Prim, O(N) memory)", n)
	case m == hclust.Ward:
		return fmt.Sprintf("the Ward tree of all %d rows (nearest-neighbour chain on centroids, O(N·d) memory)", n)
	case graphs:
		return fmt.Sprintf("the %s-linkage tree of all %d rows on the geodesics (no N×N matrix)", m, n)
	}
	return fmt.Sprintf("the %s-linkage tree of all %d rows (no N×N matrix)", m, n)
}

// KNNGraphSpreading reports whether --landmarks runs ln on the kNN graph
// of all n rows (d features) instead of the anchor graph, and returns its
// settings: label spreading with a knn:K affinity (the default knn:10)
// when that graph's exact search is affordable (knnGraphAffordable). The
// graph has N·K edges and no N×N matrix (the exact learner's own memory is
// O(N·K)), so, as landmark single linkage uses the exact tree of all rows,
// the landmark run uses the exact graph: its labels are the exact
// spreading's. The anchor graph stands in for it where the exact graph is
// dense (rbf:γ, --affinity kernel) or its search too slow; on UCI letter
// it was 2.0 points below the exact spreading (docs/landmarks.md, "Landmark vs exact
// accuracy"). lp keeps the anchor graph (its exact closed form is a
// sparse solve that does not scale the same way; the anchor graph's is
// M×M).
func KNNGraphSpreading(ln learner.Learner, n, d int) (propagate.Spreading, bool) {
	s, ok := learner.As[propagate.Spreading](ln)
	if !ok || s.Affinity.Kind != propagate.KNN || !KNNGraphAffordable(n, d) {
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

// KNNGraphAffordable reports whether the exact kNN graph of n rows in d
// dimensions is cheap enough for --landmarks. The k-d tree's work grows
// with the intrinsic dimension of the data (internal/neighbors): on
// full-dimensional Gaussian clusters (bench/knngraph, k = 10) 10-D costs
// 1.2 CPU s at 5·10⁴ rows, 9.9 at 2·10⁵ and about 150–270 at 10⁶, but
// 20-D 2.6 and 41 CPU s at 5·10⁴ and 2·10⁵ — quadratic, as a brute force,
// so 10⁶ rows would take about half an hour. Hence: any N up to 10
// dimensions; up to knnTreeMaxN rows up to 20; beyond, a brute force of
// at most knnBruteMax multiply-adds (N²·d).
func KNNGraphAffordable(n, d int) bool {
	switch {
	case d <= 10:
		return true
	case d <= neighbors.MaxTreeDim && n <= knnTreeMaxN:
		return true
	}
	return float64(n)*float64(n)*float64(d) <= knnBruteMax
}

// AnchorInstead says why spreading on a knn:K affinity runs on the anchor
// graph ("" for other learners): its exact kNN graph is not affordable.
func AnchorInstead(ln learner.Learner, n, d int) string {
	s, ok := learner.As[propagate.Spreading](ln)
	if !ok || s.Affinity.Kind != propagate.KNN || KNNGraphAffordable(n, d) {
		return ""
	}
	if d <= neighbors.MaxTreeDim {
		return fmt.Sprintf(" (not the exact kNN graph: its k-d tree search of %d rows in %d dimensions, above %d rows, can approach a brute force of %.2g multiply-adds)",
			n, d, knnTreeMaxN, float64(n)*float64(n)*float64(d))
	}
	return fmt.Sprintf(" (not the exact kNN graph: %d rows in %d > %d dimensions need a brute-force search of %.2g multiply-adds, more than %.2g)",
		n, d, neighbors.MaxTreeDim, float64(n)*float64(n)*float64(d), knnBruteMax)
}

// KNNGraphFit fits label spreading s on the kNN graph of the rows of X
// (propagate.Spreading.FitKNN) and describes it for stderr.
func KNNGraphFit(ctx context.Context, X *mat.Dense, y []int, s propagate.Spreading) (*propagate.KNNModel, string, error) {
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
func knnGraphClassify(ctx context.Context, log io.Writer, ds, test *dataset.Dataset, s propagate.Spreading) ([]int, *landmarkFit, error) {
	m, what, err := KNNGraphFit(ctx, ds.X, ds.Y, s)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(log, "--landmarks: %s\n", what)
	for _, w := range m.Model.Warnings {
		fmt.Fprintln(log, "warning:", ClassWarnText(w, ds.Classes))
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

// IsKNNGraphSpreading is knnGraphSpreading's report alone.
func IsKNNGraphSpreading(ln learner.Learner, ds *dataset.Dataset) bool {
	_, ok := KNNGraphSpreading(ln, ds.Len(), ds.Dim())
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

// AnchorFit fits lp or spreading on the anchor graph of anchors (ln is
// the exact learner the flags built: ssl.Propagation or ssl.Spreading) and
// returns the model with a description for stderr. The anchor graph takes
// the exact learner's settings where it has them: α, the --unreachable
// policy, and its kernel width σ from the exact affinity, so that it falls
// off at the scale of the graph it stands for (propagate's doc, "Anchor
// graph"): knn:K → propagate.KNNRadius (the mean distance of a row to its
// K-th nearest row, itself the first), rbf:γ → σ = 1/√γ (the same Gaussian
// exp(−d²/σ²)), kernel → the paper's width (mean distance to the S-th
// nearest anchor).
func AnchorFit(ctx context.Context, X, anchors *mat.Dense, y []int, ln learner.Learner) (*propagate.AnchorModel, string, error) {
	plan, err := AnchorPlanOf(ln)
	if err != nil {
		return nil, "", err
	}
	if plan.K > 0 {
		n, _ := X.Dims()
		r, err := propagate.KNNRadius(ctx, X, min(plan.K, n))
		if err != nil {
			return nil, "", err
		}
		plan.SetRadius(r)
	}
	var m *propagate.AnchorModel
	if plan.Spreading {
		m, err = propagate.AnchorSpreading{Alpha: plan.Alpha, Sigma: plan.Graph.Sigma, Unreachable: plan.Graph.Unreachable}.Fit(ctx, X, anchors, y)
	} else {
		m, err = plan.Graph.Fit(ctx, X, anchors, y)
	}
	if err != nil {
		return nil, "", err
	}
	return m, plan.Describe(), nil
}

// AnchorPlan is how AnchorFit fits a learner on the anchor graph: the
// graph's settings, and where its width σ comes from.
type AnchorPlan struct {
	// Graph holds σ (0: the paper's width, from the rows) and the
	// Unreachable policy; Spreading and Alpha say label spreading.
	Graph     propagate.AnchorGraph
	Spreading bool
	Alpha     float64
	// K > 0: σ is propagate.KNNRadius of the rows with K (a knn:K
	// affinity), still to be set by SetRadius.
	K     int
	width string
}

// AnchorPlanOf returns the plan for ln (ssl.Propagation or ssl.Spreading,
// as the flags build them). Errors: learner.ErrSettings for another
// learner.
func AnchorPlanOf(ln learner.Learner) (AnchorPlan, error) {
	var aff propagate.Affinity
	var plan AnchorPlan
	p, isLP := learner.As[propagate.Propagation](ln)
	s, isSpreading := learner.As[propagate.Spreading](ln)
	switch {
	case isLP:
		aff, plan.Graph.Unreachable = p.Affinity, p.Unreachable
	case isSpreading:
		aff, plan.Graph.Unreachable = s.Affinity, s.Unreachable
		plan.Spreading, plan.Alpha = true, s.Alpha
	default:
		return AnchorPlan{}, learner.Settingsf("the anchor graph runs lp or spreading, not %s", ln.Name())
	}
	plan.width = "the paper's width (mean distance to the 3rd nearest anchor)"
	switch aff.Kind {
	case propagate.KNN:
		plan.K = aff.K
		if plan.K == 0 {
			plan.K = 7 // propagate.Affinity's default
		}
		plan.width = fmt.Sprintf("the mean distance to the %d-th nearest row (knn:%d), from the rows", plan.K, plan.K)
	case propagate.RBF, "":
		g := aff.Gamma
		if g == 0 {
			g = 20 // propagate.Affinity's default
		}
		plan.Graph.Sigma = 1 / math.Sqrt(g)
		plan.width = fmt.Sprintf("width %.4g = 1/√γ (rbf:%g)", plan.Graph.Sigma, g)
	}
	return plan, nil
}

// SetRadius sets σ to r, KNNRadius of the rows with K.
func (p *AnchorPlan) SetRadius(r float64) {
	p.Graph.Sigma = r
	p.width = fmt.Sprintf("width %.4g, the mean distance to the %d-th nearest row (knn:%d)", r, p.K, p.K)
}

// Describe says what the plan fits, for stderr.
func (p AnchorPlan) Describe() string {
	what := "label propagation"
	if p.Spreading {
		what = fmt.Sprintf("label spreading (alpha %g)", p.Alpha)
	}
	return fmt.Sprintf("%s on the anchor graph, each point tied to its 3 nearest anchors, Gaussian weights of %s", what, p.width)
}

// svmOnPoints is classify's path for a point kernel with the SVM: the
// solver computes the kernel columns it needs from the points (with its
// column cache, as LIBSVM does) instead of forming the N×N Gram matrix, so
// memory is O(N·d + cache) and no kernel value is computed for a pair it
// never visits. Labelled rows keep their labels; unlabelled and --test rows
// get the fitted model's classes. It returns the labels and the gamma that
// rbf:scale resolved to (0 otherwise), and the fitted model. The predictions equal those of the
// Gram path (checked on the bench set of bench/classify_svm.py, C = 1 and
// 100: identical files).
func svmOnPoints(ctx context.Context, log io.Writer, ds, test *dataset.Dataset, spec kernel.Spec, c svm.Classifier) ([]int, float64, *svm.Model, error) {
	k, gamma := spec.Resolve(svmScaleRows(ds)) // rbf:scale on the labelled rows
	// A class with one labelled row is accepted, as LIBSVM and the exact
	// (Gram) path accept it (ssl.SVM).
	c.Kernel, c.AllowSingleton = k, true
	m, err := c.Fit(ctx, ds.X, ds.Y)
	if err != nil {
		return nil, 0, nil, err
	}
	for _, w := range m.Warnings {
		fmt.Fprintln(log, "warning:", w)
	}
	pred, err := pointsLabels(ctx, m, ds, test)
	return pred, gamma, m, err
}

// pointsModel is a model fitted on the points (svm, knn): its labels of
// the training rows and of new points.
type pointsModel interface {
	Transduction() []int
	PredictPoints(ctx context.Context, dst []int, X mat.Matrix) ([]int, error)
}

// pointsLabels returns the labels of ds's rows (labelled rows keep theirs)
// followed by those of test's rows (if any).
func pointsLabels(ctx context.Context, m pointsModel, ds, test *dataset.Dataset) ([]int, error) {
	pred := m.Transduction()
	keepGiven(pred, ds.Y)
	if test != nil {
		pt, err := m.PredictPoints(ctx, nil, test.X)
		if err != nil {
			return nil, err
		}
		pred = append(pred, pt...)
	}
	return pred, nil
}

// knnOnPoints is classify's path for a point kernel with kNN: the
// neighbours of each unlabelled (and --test) row are found among the
// labelled rows from the kernel values of those pairs alone, as
// scikit-learn's KNeighborsClassifier does, instead of forming the N×N
// Gram matrix (30,000 rows: 7.2 GB and minutes, where the pairs needed are
// unlabelled × labelled). The predictions equal the Gram path's (the same
// tie quantum over the batch of unlabelled rows; TestKNNOnPointsEqualsGram).
// rbf:scale resolves on all rows, as the Gram path does (for uniform and
// distance weights the neighbours do not depend on gamma).
func knnOnPoints(ctx context.Context, ds, test *dataset.Dataset, spec kernel.Spec, set knn.Classifier, progress func(string, int, int)) ([]int, float64, *knn.Model, error) {
	k, gamma := spec.Resolve(ds.X)
	set.Kernel = k
	if set.Progress == nil {
		set.Progress = progress
	}
	m, err := set.Fit(ctx, ds.X, ds.Y)
	if err != nil {
		return nil, 0, nil, err
	}
	pred, err := pointsLabels(ctx, m, ds, test)
	return pred, gamma, m, err
}

// knnPointsSettings returns the kNN settings of ln when classify can take
// the points path: kNN on a point kernel without landmarks.
func knnPointsSettings(ln learner.Learner, spec kernel.Spec, landmarks int) (knn.Classifier, bool) {
	c, ok := learner.As[knn.Classifier](ln)
	if !ok || landmarks > 0 || spec.Kind != kernel.KindPoint {
		return knn.Classifier{}, false
	}
	return c, true
}

// KNNPointsBytes is the kNN points path's memory: the points and the
// (unlabelled + test) × labelled kernel block (Cost's estimate for kNN on
// a point kernel).
func KNNPointsBytes(ds, test *dataset.Dataset) (float64, string) {
	return knnPointsBytes(ShapeOf(ds, test))
}

// svmScaleRows are the rows rbf:scale is resolved on for the SVM (by
// kernel.Spec.Resolve): the labelled rows, the rows scikit-learn's
// SVC(gamma="scale").fit(X_l, y_l) sees and the rows arbor eval uses
// (ssl's SVM), so classify, eval and scikit-learn train the same SVM; all
// rows when none is labelled.
func svmScaleRows(ds *dataset.Dataset) *mat.Dense {
	if Xl, ok := labelledRowsOf(ds.X, ds.Y); ok {
		return Xl
	}
	return ds.X
}

// labelledRowsOf returns the labelled rows of X (y[i] ≥ 0) as a matrix; ok
// is false when no row is labelled.
func labelledRowsOf(X *mat.Dense, y []int) (Xl *mat.Dense, ok bool) {
	var lab []int
	for i, c := range y {
		if c != dataset.Unlabeled {
			lab = append(lab, i)
		}
	}
	if len(lab) == 0 {
		return nil, false
	}
	_, d := X.Dims()
	Xl = mat.NewDense(len(lab), d, nil)
	for a, r := range lab {
		Xl.SetRow(a, X.RawRowView(r))
	}
	return Xl, true
}

// LandmarkLinSVM fits linsvm on the features of the labelled rows of Z.
func LandmarkLinSVM(ctx context.Context, Z *mat.Dense, y []int, c linsvm.Classifier) (*linsvm.Model, error) {
	Zl, yl := LabelledFeatures(Z, y)
	if len(yl) == 0 {
		return nil, fmt.Errorf("%w: no labelled rows", linsvm.ErrInput)
	}
	return c.Fit(ctx, Zl, yl)
}

// LinsvmWarning describes a linsvm model that stopped at its pass limit.
func LinsvmWarning(m *linsvm.Model) string {
	if m.Converged {
		return ""
	}
	its := make([]string, len(m.Iter))
	for i, v := range m.Iter {
		its[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("linsvm reached its pass limit before the tolerance (passes %s; raise --max-iter or --tol)", strings.Join(its, ", "))
}

// rowsOf returns the rows lm of X.
func rowsOf(X *mat.Dense, lm []int) *mat.Dense {
	_, d := X.Dims()
	L := mat.NewDense(len(lm), d, nil)
	for r, i := range lm {
		L.SetRow(r, X.RawRowView(i))
	}
	return L
}

// LandmarkSVM fits the C-SVC with the linear kernel on the features of the
// labelled rows of Z (the landmark SVM: with exact features, Z·Zᵀ = K, it
// predicts as the exact SVM does).
func LandmarkSVM(ctx context.Context, Z *mat.Dense, y []int, C float64) (*svm.Model, error) {
	return LandmarkSVMWith(ctx, Z, y, svm.Classifier{C: C})
}

// LandmarkSVMWith is LandmarkSVM with C and the probability settings of c
// (Probability: Platt sigmoids by svm-train -b 1's internal 5-fold
// cross-validation on the labelled rows' features, the folds drawn as
// Shuffle and Seed say); c's other settings are not read.
func LandmarkSVMWith(ctx context.Context, Z *mat.Dense, y []int, c svm.Classifier) (*svm.Model, error) {
	Zl, yl := LabelledFeatures(Z, y)
	if len(yl) == 0 {
		return nil, fmt.Errorf("%w: no labelled rows", svm.ErrEmpty)
	}
	return svm.Classifier{C: c.C, Kernel: kernel.Linear{}, AllowSingleton: true,
		Probability: c.Probability, Shuffle: c.Shuffle, Seed: c.Seed}.Fit(ctx, Zl, yl)
}
