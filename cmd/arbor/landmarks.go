package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/arbor-ml/arbor/learner"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/pipeline"
	"gonum.org/v1/gonum/mat"
)

// landmarkFlags are --landmarks M, --landmark-method and --seed.
type landmarkFlags struct {
	m      int
	method string
	seed   uint64
	// sharedSeed: the command has its own --seed (eval's split seed), which
	// also seeds the landmarks.
	sharedSeed bool
}

// landmarkCount is the value of --landmarks: a count ≥ 0 (0 = exact).
type landmarkCount struct{ p *int }

func (c landmarkCount) String() string {
	if c.p == nil {
		return "0"
	}
	return strconv.Itoa(*c.p)
}

func (c landmarkCount) Set(s string) error {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not a whole number", s)
	}
	if v < 0 {
		return fmt.Errorf("%d: want a number of landmark rows ≥ 1, or 0 for the exact method", v)
	}
	*c.p = v
	return nil
}

func (l *landmarkFlags) register(fs interface {
	Var(value flag.Value, name, usage string)
	StringVar(p *string, name, value, usage string)
	Uint64Var(p *uint64, name string, value uint64, usage string)
}) {
	fs.Var(landmarkCount{&l.m}, "landmarks", "use M landmark points instead of the N×N kernel matrix: Nyström features (point kernels; cluster kernels through the tree on the landmarks) and a learner on them in O(N·M) memory (svm: the C-SVC with the linear kernel on the features; knn: kNN on the features; lp: label propagation on the anchor graph of the landmarks; spreading: on the kNN graph of all rows with --affinity knn:K, which needs no N×N matrix, else on the anchor graph); 0 = exact")
	fs.StringVar(&l.method, "landmark-method", landmark.KMeans, "how --landmarks are chosen besides the labelled rows (which are landmarks when fewer than M): random or kmeans (rows nearest the k-means centres)")
	if l.sharedSeed {
		return // the command's own --seed sets l.seed
	}
	fs.Uint64Var(&l.seed, "seed", 0, "seed of the landmark choice")
}

// features fits the landmark feature map of spec on M landmarks of X
// (pipeline.FitMap) and returns it with the features of X, the gamma
// rbf:scale resolved to, and a description for stderr.
//
// y, when not nil, gives the labels: the labelled rows are then landmarks
// (l.choose), so that every kernel value the learners read between a row
// and a labelled row is the kernel's own.
//
// labelledScale: rbf:scale takes gamma from the labelled rows of y, as the
// exact SVM does (svmScaleGamma, ssl.SVM); otherwise from all rows, as the
// exact kNN and the kernel command do. With the labelled rows among the
// landmarks the landmark SVM and kNN are then the exact ones for rbf:scale
// too (gamma matters to kNN only through rounding: exp(−γd²) underflows
// for a large gamma, and the tied zeros rank by index).
func (l landmarkFlags) features(ctx context.Context, X *mat.Dense, spec kernel.Spec, y []int, labelledScale bool) (landmark.Map, *mat.Dense, float64, string, error) {
	n, _ := X.Dims()
	if l.m > n {
		return nil, nil, 0, "", usageError("--landmarks %d: more than the %d rows", l.m, n)
	}
	switch spec.Kind {
	case kernel.KindPoint, kernel.KindHCK, kernel.KindConnectivity, kernel.KindISOMAP, kernel.KindMultiType:
	default:
		return nil, nil, 0, "", usageError("--landmarks works with point kernels, the cluster kernels (hck, hckg, connectivity), isomap and multitype, not %s", spec)
	}
	lm, which, err := l.choose(ctx, X, y)
	if err != nil {
		return nil, nil, 0, "", err
	}
	scaled := 0.0
	if spec.Kind == kernel.KindPoint && spec.Scale && labelledScale {
		if g, ok := labelledScaleGamma(X, y); ok {
			scaled = g
			spec.Point, spec.Scale = kernel.RBF{Gamma: g}, false
		}
	}
	fm, Z, gamma, err := pipeline.FitMap(ctx, X, spec, lm)
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

// choose returns the landmark rows of X and how they were chosen: every
// labelled row of y (when fewer than M; landmark.ChooseIncluding)
// and the rest by --landmark-method; with y nil, or M or more labelled
// rows, all M by --landmark-method.
func (l landmarkFlags) choose(ctx context.Context, X *mat.Dense, y []int) ([]int, string, error) {
	lab := labelledRows(y)
	lm, all, err := landmark.ChooseIncluding(ctx, X, l.m, l.method, l.seed, lab)
	if err != nil {
		return nil, "", err
	}
	switch {
	case len(lab) == 0:
		return lm, fmt.Sprintf("%s, seed %d", l.method, l.seed), nil
	case all:
		return lm, fmt.Sprintf("the %d labelled rows and %d by %s, seed %d", len(lab), len(lm)-len(lab), l.method, l.seed), nil
	}
	return lm, fmt.Sprintf("%s, seed %d; the %d labelled rows are not all landmarks: as many as M or more", l.method, l.seed, len(lab)), nil
}

// landmarkFit is what classify --landmarks fitted, for --save-model.
type landmarkFit struct {
	spec  kernel.Spec
	gamma float64
	fm    landmark.Map // nil for the anchor graph
	model learner.Saver
}

// anchorFit is label propagation (lp) or spreading on the anchor graph of
// the M landmarks (propagate.AnchorGraph, Liu, He & Chang 2010;
// propagate.AnchorSpreading; 3 nearest anchors), or spreading with a knn:K
// affinity on the kNN graph of all rows (knnGraphSpreading).
func anchorFit(ctx context.Context, stderr io.Writer, l landmarkFlags, ds, test *dataset.Dataset, ln learner.Learner) ([]int, *landmarkFit, error) {
	if s, ok := knnGraphSpreading(ln, ds.Len(), ds.Dim()); ok {
		// Spreading on a knn:K affinity: the kNN graph of all rows (knngraphspread.go).
		return knnGraphClassify(ctx, stderr, ds, test, s)
	}
	if l.m > ds.Len() {
		return nil, nil, usageError("--landmarks %d: more than the %d rows", l.m, ds.Len())
	}
	lm, which, err := l.choose(ctx, ds.X, ds.Y)
	if err != nil {
		return nil, nil, err
	}
	m, what, err := anchorFitRows(ctx, ds.X, landmarkPoints(ds.X, lm), ds.Y, ln)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "landmarks %d (%s): %s%s\n", len(lm), which, what, anchorInstead(ln, ds.Len(), ds.Dim()))
	for _, w := range m.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
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

// landmarkKNN fits kNN (knn.Classifier, Euclidean) on the features of the
// labelled rows of Z. With landmark ISOMAP the queries' own squared norms
// are left out of the ranking (knn.Classifier.IgnoreSelf): a row that is
// not a landmark carries the geodesics' non-Euclidean misfit along B's
// small eigenvalues in ‖z(x)‖², which the ranking does not depend on but
// whose size would swamp the computed distances and the tie quantum.
func landmarkKNN(ctx context.Context, Z *mat.Dense, y []int, k int, spec kernel.Spec) (*knn.Model, error) {
	Zl, yl := labelledFeatures(Z, y)
	if k >= len(yl) {
		return nil, usageError("--k %d: only %d labelled rows (want fewer neighbours than labelled rows)", k, len(yl))
	}
	return knn.Classifier{K: k, IgnoreSelf: spec.Kind == kernel.KindISOMAP}.Fit(ctx, Zl, yl)
}

// labelledFeatures returns the rows of Z that carry a label in y and
// their labels: what every learner on landmark features fits on.
func labelledFeatures(Z *mat.Dense, y []int) (*mat.Dense, []int) {
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

// predictBlocks labels every row of Z with predict, 65,536 rows at a time
// (a kNN query holds block × labelled kernel values), into dst (nil
// allocates).
func predictBlocks(Z *mat.Dense, predict func(dst []int, Zb *mat.Dense) ([]int, error), pred []int) ([]int, error) {
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
func classifyLandmarks(ctx context.Context, stderr io.Writer, l landmarkFlags, ds, test *dataset.Dataset, spec kernel.Spec, ln learner.Learner, lf learnerFlags, k int) ([]int, *landmarkFit, error) {
	learner, C := lf.learner, lf.Float("C")
	switch learnerFamily(learner) {
	case "lp", "spreading":
		return anchorFit(ctx, stderr, l, ds, test, ln)
	case "svm", "knn", "linsvm":
	default:
		return nil, nil, usageError("--landmarks works with --learner svm, linsvm, knn, lp or spreading, not %s", learner)
	}
	fm, Z, gamma, desc, err := l.features(ctx, ds.X, spec, ds.Y, learnerFamily(learner) != "knn")
	if err != nil {
		return nil, nil, err
	}
	holdHeapNear() // Z stays live to the end: no room for a second one of garbage (heaplimit.go)
	fmt.Fprintln(stderr, desc)
	fit := &landmarkFit{spec: spec, gamma: gamma, fm: fm}
	var predict func(dst []int, Z *mat.Dense) ([]int, error)
	switch learnerFamily(learner) {
	case "svm":
		m, err := landmarkSVM(ctx, Z, ds.Y, C)
		if err != nil {
			return nil, nil, err
		}
		for _, w := range m.Warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
		fit.model = m
		predict = func(dst []int, Z *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Z) }
	case "linsvm":
		m, err := landmarkLinSVM(ctx, Z, ds.Y, lf)
		if err != nil {
			return nil, nil, err
		}
		if w := linsvmWarning(m); w != "" {
			fmt.Fprintln(stderr, "warning:", w)
		}
		fit.model = m
		predict = func(dst []int, Z *mat.Dense) ([]int, error) { return m.Predict(ctx, dst, Z) }
	case "knn":
		m, err := landmarkKNN(ctx, Z, ds.Y, k, spec)
		if err != nil {
			return nil, nil, err
		}
		fit.model = m
		predict = func(dst []int, Z *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Z) }
	}
	n := ds.Len()
	pred := make([]int, n)
	if test != nil {
		// As a saved pipeline labels new points (arbor predict).
		pt, err := (&pipeline.Landmarks{Map: fm, Model: fit.model}).Predict(ctx, test.X)
		if err != nil {
			return nil, nil, err
		}
		pred = append(pred, pt...)
	}
	if _, err := predictBlocks(Z, predict, pred[:n]); err != nil {
		return nil, nil, err
	}
	keepGiven(pred[:n], ds.Y)
	return pred, fit, nil
}

// saveLandmarkPipeline writes the landmark pipeline to path (atomically).
func saveLandmarkPipeline(info io.Writer, path string, ds *dataset.Dataset, sc *dataset.Scaler, fit *landmarkFit) error {
	if path == "" {
		return nil
	}
	p, err := pipeline.NewLandmarks(ds, sc, fit.spec, fit.gamma, fit.fm, fit.model)
	if err != nil {
		return fmt.Errorf("--save-model %s: %w", path, err)
	}
	if err := writeAtomic(path, func(f *os.File) error { return p.Save(f) }); err != nil {
		return err
	}
	fmt.Fprintf(info, "model    %s\n", path)
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

// kernelLandmarks is arbor kernel --landmarks M: the N×r landmark features
// Z of the rows, written to out (K ≈ Z·Zᵀ), in O(N·M) memory.
func kernelLandmarks(ctx context.Context, e *env, l landmarkFlags, mf memFlags, ds *dataset.Dataset, spec kernel.Spec, out string) error {
	if err := mf.check(landmarkBytes(ds.Len(), ds.Dim(), l.m), fmt.Sprintf("%d landmarks for %d rows", l.m, ds.Len()), "use fewer --landmarks"); err != nil {
		return err
	}
	_, Z, gamma, desc, err := l.features(ctx, ds.X, spec, nil, false)
	if err != nil {
		return err
	}
	n, r := Z.Dims()
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s", spec)
	if gamma > 0 {
		fmt.Fprintf(e.stdout, " (gamma %.6g)", gamma)
	}
	fmt.Fprintf(e.stdout, "\n%s\nsize    %d×%d features Z, K ≈ Z·Zᵀ\n", desc, n, r)
	var batch outputBatch
	defer batch.abort()
	if err := batch.write(out, matrixWriter(ctx, out, Z)); err != nil {
		return err
	}
	if err := batch.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", out)
	return nil
}

// allRowsTree names the tree of all rows a landmark cluster kernel was
// restricted from (pipeline.FitMap).
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
