package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
	"github.com/arbor-ml/arbor/svm"
)

// Settings say what Fit fits: plain values, the same choices as arbor
// classify's flags. The zero value is the linear-kernel SVM (C = 1) on
// standardised features.
type Settings struct {
	// Scale is the feature scaling fitted on the training rows: "std"
	// (the default, ""), "minmax" or "none" (dataset.FitScaler). Scaler,
	// when not nil, says the data (and Fit's test rows) are already
	// scaled by it (it is saved with the pipeline) and Scale is not read.
	Scale  string
	Scaler *dataset.Scaler
	// Impute fills missing feature values (NaN) before scaling, with
	// values fitted on the training rows (dataset.FitImputer): "none" (the
	// default, ""), "mean", "median", "most_frequent" or "zero"; the test
	// rows and a saved pipeline's new points are filled the same way. It
	// is read with Scale, when Scaler is nil.
	Impute string
	// Kernel is the kernel spec ("linear", "rbf:scale", "hck:average",
	// …; kernel.ParseSpec); "" is linear.
	Kernel string
	// Learner is a registered learner family ("svm", "knn", "lp", …;
	// learner.Lookup), "" for svm; Params its settings by flag name
	// ({"C": "10"}, {"k": "3"}); a setting not given takes its Flag's
	// default.
	Learner string
	Params  map[string]string
	// Landmarks, when M > 0, fits with M landmark rows instead of the N×N
	// kernel (Nyström, tree and landmark ISOMAP features, the anchor
	// graph): the learner fits on the labelled rows' features and labels
	// the rows a block of features at a time (landmark.Training), in
	// O(M² + block·M) memory besides the points (O(N·M) for isomap,
	// multitype and hckg above its row limit, whose features come from
	// the N×M geodesics); LandmarkMethod (landmark.KMeans, the default,
	// or landmark.Random) and Seed choose them. Seed also seeds the
	// learners that draw (s4vm, hibust).
	Landmarks      int
	LandmarkMethod string
	Seed           uint64
	// Rule is the out-of-sample rule of the cluster kernels for new
	// points: kernel.RuleTree (the default) or kernel.RuleLinear.
	Rule string
	// Float32 stores the N×N kernel matrix in float32 (kernel.Build32).
	Float32 bool
	// Proba asks for class probabilities of every row (Result.Proba): the
	// SVM then fits its Platt sigmoids (svm.Classifier.Probability, the
	// folds as its platt-folds setting says); Decision for decision values
	// (Result.Decision; the SVM, and linsvm with Landmarks).
	Proba, Decision bool
	// MemoryBudget, when > 0, is the memory in bytes the fit may take:
	// Fit refuses settings whose Cost is above it, before the work, with
	// an error wrapping ErrMemory. MemoryBudgetSource, if not "", says in
	// that error where the budget comes from ("--max-memory").
	MemoryBudget       int64
	MemoryBudgetSource string

	// Progress, if not nil, reports long work; Log, if not nil, receives
	// the fit's notes and warnings, one per line (what arbor classify
	// prints on stderr).
	Progress func(stage string, done, total int)
	Log      io.Writer
	// Hold, if not nil, is called once a landmark run's long-lived
	// memory is allocated (the map, the model and the block of features
	// the rows are labelled in; the command line caps the heap's growth
	// there).
	Hold func()
}

// values reads Params as learner.Values: a setting given, else its Flag's
// default.
type values struct {
	p    map[string]string
	seed uint64
}

func (v values) text(name string) string {
	if s, ok := v.p[name]; ok {
		return s
	}
	flags, _ := learner.Flags()
	for _, f := range flags {
		if f.Name == name {
			return f.Default
		}
	}
	return ""
}

func (v values) Float(name string) float64 {
	var f float64
	if _, err := fmt.Sscan(v.text(name), &f); err != nil {
		return math.NaN()
	}
	return f
}
func (v values) Int(name string) int {
	var i int
	fmt.Sscan(v.text(name), &i)
	return i
}
func (v values) String(name string) string { return v.text(name) }
func (v values) Bool(name string) bool     { return v.text(name) == "true" }
func (v values) Seed() uint64              { return v.seed }

// Learner builds the one learner s names. Errors wrap
// learner.ErrSettings.
func (s Settings) learner() (learner.Learner, string, error) {
	name := s.Learner
	if name == "" {
		name = "svm"
	}
	e, ok := learner.Lookup(name)
	if !ok {
		return nil, "", learner.Settingsf("unknown learner %q", name)
	}
	ls, err := e.New(name, values{s.Params, s.Seed})
	if err != nil {
		return nil, "", err
	}
	if len(ls) != 1 {
		return nil, "", learner.Settingsf("%s: %d learners from these settings, want one", name, len(ls))
	}
	return ls[0], e.Name, nil
}

// Result is a fit: labels for the training rows (given labels kept) and
// the test rows, the model and what the kernel resolved to. Pipeline
// returns the savable pipeline.
type Result struct {
	// Labels holds a label for each training row, then one for each
	// test row (learner.Unlabeled where the model leaves one).
	Labels []int
	// Model is the exact fit's model (nil with landmarks).
	Model learner.Model
	// Spec is the kernel, Gamma what rbf:scale resolved to (0 otherwise).
	Spec  kernel.Spec
	Gamma float64
	// Learner is the fitted learner (its Name is the tables' name).
	Learner learner.Learner
	// Proba (Settings.Proba) has a row for each training row, then each
	// test row, and a column for each class of the data (Prediction.Proba);
	// Decision (Settings.Decision) the decision values, columns named by
	// DecisionColumns (class indices).
	Proba           *mat.Dense
	Decision        *mat.Dense
	DecisionColumns []learner.Pair

	ds     *dataset.Dataset
	scaler *dataset.Scaler
	built  kernel.Built
	rule   string
	lm     *landmarkFit
}

// Pipeline returns the fitted pipeline for Save and Predict. Errors:
// ErrLearner for a learner whose model cannot label new points from a
// file (label propagation on the kernel matrix, …).
func (r *Result) Pipeline() (*Pipeline, error) {
	if r.lm != nil {
		return NewLandmarks(r.ds, r.scaler, r.lm.spec, r.lm.gamma, r.lm.fm, r.lm.model)
	}
	if r.Model == nil {
		return nil, fmt.Errorf("%w: no model was fitted", ErrLearner)
	}
	p, err := New(r.ds, r.scaler, r.built, r.rule, r.Model)
	if err != nil {
		return nil, err
	}
	if a, ok := propagationAffinity(r.Learner); ok && !ssl.UsesKernel(r.Learner) && affinityHasRule(a) {
		p.Affinity = a.String()
	} else if !ssl.UsesKernel(r.Learner) {
		return nil, fmt.Errorf("%w: %s cannot label new points", ErrLearner, r.Learner.Name())
	}
	return p, nil
}

// Fit fits s on ds (every row; labelled rows have a class, the others
// dataset.Unlabeled) and labels its unlabelled rows and, if not nil, the
// test rows Xtest (unscaled, the training features' order). It is what
// arbor classify runs: the SVM and kNN on a point kernel compute kernel
// values on demand (no N×N matrix); with Landmarks the landmark features
// and a learner on them, or the anchor graph; otherwise the kernel matrix
// (float32 storage with Float32) and the learner on it. Errors: those
// wrapping learner.ErrSettings for settings that do not fit together, and
// the learners' and kernels' own, and one wrapping ErrMemory when the
// fit's Cost is above MemoryBudget (checked before any work).
func Fit(ctx context.Context, s Settings, ds *dataset.Dataset, Xtest *mat.Dense) (*Result, error) {
	ln, family, err := s.learner()
	if err != nil {
		return nil, err
	}
	spec, err := kernel.ParseSpec(orDefault(s.Kernel, "linear"))
	if err != nil {
		return nil, learner.Settingsf("kernel %q: %v", s.Kernel, err)
	}
	return FitLearner(ctx, s, spec, ln, family, ds, Xtest)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// FitLearner is Fit with the kernel and learner built by the caller
// (family is the learner's registered family name).
func FitLearner(ctx context.Context, s Settings, spec kernel.Spec, ln learner.Learner, family string, ds *dataset.Dataset, Xtest *mat.Dense) (*Result, error) {
	log := s.Log
	if log == nil {
		log = io.Discard
	}
	sh := Shape{Rows: ds.Len(), Labeled: len(ds.Labeled()), Features: ds.Dim(), Classes: len(ds.Classes)}
	if Xtest != nil {
		sh.Test, _ = Xtest.Dims()
	}
	est, err := CostLearner(s, spec, ln, family, sh)
	if err != nil {
		return nil, err
	}
	if err := est.Err(); err != nil {
		return nil, err
	}
	if err := outputsBeforeFit(ln, s); err != nil {
		return nil, err
	}
	if s.Proba {
		ln = learner.WithRun(ln, learner.Run{Proba: true})
	}
	rule := orDefault(s.Rule, kernel.RuleTree)
	sc, Xt := s.Scaler, Xtest
	if sc == nil {
		X := ds.X
		imp, err := dataset.FitImputer(X, s.Impute, ds.Features)
		if errors.Is(err, dataset.ErrUnknownImpute) {
			return nil, learner.Settingsf("impute: %v", err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ds.Name, err)
		}
		if imp != nil {
			X = mat.DenseCopyOf(X)
			if _, err := imp.Transform(X); err != nil {
				return nil, err
			}
		}
		if sc, err = dataset.FitScaler(X, orDefault(s.Scale, "std")); err != nil {
			return nil, learner.Settingsf("scale: %v", err)
		}
		sc.Impute = imp
		scaled, err := sc.Transform(nil, X)
		if err != nil {
			return nil, err
		}
		c := *ds
		c.X = scaled
		ds = &c
		if Xtest != nil {
			if Xt, err = sc.Transform(nil, Xtest); err != nil {
				return nil, err
			}
		}
	}
	var test *dataset.Dataset
	if Xt != nil {
		test = &dataset.Dataset{X: Xt}
		if r, _ := Xt.Dims(); r > 0 {
			test.Y = make([]int, r)
		}
	}
	lmc := LandmarkChoice{M: s.Landmarks, Method: orDefault(s.LandmarkMethod, landmark.KMeans), Seed: s.Seed}
	res := &Result{Spec: spec, Learner: ln, ds: ds, scaler: sc, rule: rule}
	method := s.method(spec, ln, family)
	p := ssl.Problem{X: ds.X, Y: ds.Y}
	var built kernel.Built
	var pred []int
	var model learner.Model
	switch method {
	case methodSVMPoints:
		// Kernel columns on demand, no N×N Gram.
		c, _ := learner.As[svm.Classifier](ln)
		built.Spec = spec
		var m *svm.Model
		pred, built.Gamma, m, err = svmOnPoints(ctx, log, ds, test, spec, c)
		if err != nil {
			return nil, err
		}
		model = m
	case methodKNNPoints:
		c, _ := learner.As[knn.Classifier](ln)
		built.Spec = spec
		var m *knn.Model
		pred, built.Gamma, m, err = knnOnPoints(ctx, ds, test, spec, c, s.Progress)
		if err != nil {
			return nil, err
		}
		model = m
	case methodLandmarks:
		built.Spec = spec
		pred, res.lm, err = classifyLandmarks(ctx, log, lmc, ds, test, spec, withGraphProgress(ln, s.Progress), family, s.Hold, Want{Proba: s.Proba, Decision: s.Decision})
		if err != nil {
			return nil, err
		}
		built.Gamma = res.lm.gamma
	case methodGram32:
		if test != nil && rule == kernel.RuleLinear && spec.Kind != kernel.KindPoint {
			return nil, learner.Settingsf("--extension linear needs the float64 kernel matrix: leave out --float32 or use --extension tree")
		}
		if kernel.Bytes32(spec, 2) == 0 {
			return nil, learner.Settingsf("--float32 takes a point kernel or hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix; use --landmarks)", spec)
		}
		built, p.K32, err = kernel.Build32(ctx, ds.X, spec, kernel.BuildOptions{})
		if err == nil && test != nil {
			p.Kt, p.TestDiag, err = built.Extend(ctx, ds.X, test.X, rule)
		}
		if err != nil {
			return nil, err
		}
	case methodGram:
		bs, err := kernel.BuildAll(ctx, ds.X, []kernel.Spec{spec}, kernel.BuildOptions{Progress: s.Progress})
		if err != nil {
			return nil, err
		}
		built = bs[0]
		if err := built.CheckFinite(); err != nil {
			return nil, err
		}
		p.K = built.K
		if test != nil {
			p.Kt, p.TestDiag, err = built.Extend(ctx, ds.X, test.X, rule)
			if built.Spec.Kind == kernel.KindHCK {
				r := "tree (new points enter the dendrogram through their nearest training point; the default)"
				if rule == kernel.RuleLinear {
					r = "linear (paper 000 §3.5)"
				}
				fmt.Fprintf(log, "out-of-sample rule: %s\n", r)
			}
			if err != nil {
				return nil, err
			}
		}
	default: // a learner on its own affinity over the points
		if a, ok := propagationAffinity(ln); test != nil && !(ok && affinityHasRule(a)) {
			return nil, learner.Settingsf("--test is not supported by %s (a transductive learner without a rule for new points): add the points to --data unlabelled", ln.Name())
		}
	}
	p.Warn = func(err error) { fmt.Fprintln(log, "warning:", ClassWarnText(err, ds.Classes)) }
	if pred == nil {
		ln = learner.WithRun(ln, learner.Run{Progress: s.Progress})
		pred, model, err = ssl.Transduce(ctx, ln, p)
		if errors.Is(err, propagate.ErrNegative) {
			return nil, fmt.Errorf("%w: --affinity kernel needs a kernel with non-negative entries (rbf, laplacian, exponential), not %s", err, built.Spec)
		}
		if err != nil {
			return nil, err
		}
	}
	if method == methodAffinity && test != nil {
		// New points by the saved model's rule (Pipeline.Predict), from
		// their affinities to the training rows.
		a, _ := propagationAffinity(ln)
		out, err := affinityPipeline(ds, a, model).predictScaled(ctx, model, test.X, Want{})
		if err != nil {
			return nil, err
		}
		pred = append(pred[:ds.Len():ds.Len()], out.Labels...)
	}
	res.Labels, res.Model, res.built, res.Gamma = pred, model, built, built.Gamma
	if (s.Proba || s.Decision) && res.lm != nil {
		res.landmarkOutputs()
	} else if s.Proba || s.Decision {
		if err := res.outputs(ctx, s, method, p, ds, test); err != nil {
			return nil, err
		}
	}
	if method != methodAffinity {
		res.Spec = built.Spec
	}
	return res, nil
}

// The ways Fit fits (Settings.Method).
const (
	methodSVMPoints = "svm on points"
	methodKNNPoints = "knn on points"
	methodLandmarks = "landmarks"
	methodGram32    = "float32 kernel matrix"
	methodGram      = "kernel matrix"
	methodAffinity  = "affinity"
)

// method chooses how to fit: the SVM or kNN on a point kernel compute its
// values on demand; landmarks; the kernel matrix (float32 or float64) for
// the learners on a kernel; the learner's own affinity otherwise.
func (s Settings) method(spec kernel.Spec, ln learner.Learner, family string) string {
	switch {
	case s.Landmarks == 0 && spec.Kind == kernel.KindPoint && family == "svm":
		return methodSVMPoints
	case s.Landmarks == 0 && spec.Kind == kernel.KindPoint && family == "knn":
		return methodKNNPoints
	case s.Landmarks > 0:
		return methodLandmarks
	case ssl.UsesKernel(ln) && s.Float32:
		return methodGram32
	case ssl.UsesKernel(ln):
		return methodGram
	}
	return methodAffinity
}

// Method names how Fit fits s with learner ln of family: "svm on
// points", "knn on points", "landmarks", "float32 kernel matrix", "kernel
// matrix" or "affinity" (a learner on its own affinity over the points).
func (s Settings) Method(spec kernel.Spec, ln learner.Learner, family string) string {
	return s.method(spec, ln, family)
}

// affinityHasRule reports whether new points can be given affinity rows
// of a (pipeline.affinityRows, knnRows): the RBF and kNN affinities.
func affinityHasRule(a propagate.Affinity) bool {
	return a.Kind == propagate.RBF || a.Kind == propagate.KNN
}

// affinityPipeline is the part of a pipeline that labels new (scaled)
// points from their affinities to the training rows ds.X.
func affinityPipeline(ds *dataset.Dataset, a propagate.Affinity, m learner.Model) *Pipeline {
	return &Pipeline{X: ds.X, Classes: ds.Classes, Model: m, Affinity: a.String()}
}

// propagationAffinity returns the affinity of label propagation or
// spreading (Precomputed for the kernel matrix); false for other learners.
func propagationAffinity(ln learner.Learner) (propagate.Affinity, bool) {
	if p, ok := learner.As[propagate.Propagation](ln); ok {
		return p.Affinity, true
	}
	if s, ok := learner.As[propagate.Spreading](ln); ok {
		return s.Affinity, true
	}
	return propagate.Affinity{}, false
}

// ClassWarnText is WarnText naming classes by the data's names (classes:
// label c is classes[c]).
func ClassWarnText(err error, classes []string) string {
	var fw *propagate.FirstClassWarning
	if errors.As(err, &fw) && len(classes) > 0 {
		return fw.Text(fmt.Sprintf("the first class %s", strconv.Quote(classes[0])))
	}
	return WarnText(err)
}

// WarnText is a fit warning's text, with the remedy for a label
// propagation that stopped at its iteration limit.
func WarnText(err error) string {
	s := err.Error()
	if errors.Is(err, propagate.ErrNotConverged) && strings.Contains(s, "MaxIter =") && strings.Contains(s, "reached") {
		s += " (raise --max-iter; for lp, --method closed solves for the fixed point directly)"
	}
	return s
}

// Tally counts the labels of the unlabelled training rows: per class, and
// left, those the model left unlabelled.
func (r *Result) Tally() (counts []int, left int) {
	counts = make([]int, len(r.ds.Classes))
	for i, y := range r.ds.Y {
		if y != dataset.Unlabeled {
			continue
		}
		if c := r.Labels[i]; c >= 0 && c < len(counts) {
			counts[c]++
		} else {
			left++
		}
	}
	return counts, left
}

// TestCorrect compares the labels of the test rows with test's own (by
// class name; test's classes need not be the training data's): of the
// labelled test rows, how many got their class. A test row left
// unlabelled is wrong.
func (r *Result) TestCorrect(test *dataset.Dataset) (correct, labelled int) {
	n := r.ds.Len()
	for _, i := range test.Labeled() {
		labelled++
		if c := r.Labels[n+i]; c >= 0 && c < len(r.ds.Classes) && r.ds.Classes[c] == test.Classes[test.Y[i]] {
			correct++
		}
	}
	return correct, labelled
}
