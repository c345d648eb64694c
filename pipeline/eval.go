package pipeline

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// EvalSettings say what Eval and EvalBEP compare, the choices of arbor
// eval's flags: every learner with every kernel on every split.
type EvalSettings struct {
	Kernels []kernel.Spec
	// Learners are scored by accuracy (Eval); Scorers, by the
	// precision–recall breakeven of their class scores (EvalBEP, Metric
	// "bep"; ssl.SetScorers builds them).
	Learners []learner.Learner
	Scorers  []ssl.SetScorer
	// Metric is "accuracy" (the default, "") or "bep".
	Metric string
	// Landmarks, when M > 0, evaluates the landmark fits
	// (EvalLandmarks) instead of the kernel matrices; LandmarkMethod and
	// Seed choose the landmarks.
	Landmarks      int
	LandmarkMethod string
	Seed           uint64
	// Float32 builds the kernel matrices in float32 storage, one at a
	// time (ssl.Eval.Float32).
	Float32 bool
	// MemoryBudget and MemoryBudgetSource are Settings'.
	MemoryBudget       int64
	MemoryBudgetSource string
	// Progress, if not nil, reports long work; Log, if not nil, receives
	// notes and warnings, one per line.
	Progress func(stage string, done, total int)
	Log      io.Writer
}

// Check refuses settings that do not fit together, with an error
// wrapping learner.ErrSettings: an unknown metric; a learner that needs
// landmarks without them (NeedLandmarks); float32 storage with
// landmarks, with the breakeven metric, or for a kernel without it
// (isomap, multitype).
func (s EvalSettings) Check() error {
	if s.Metric != "" && s.Metric != "accuracy" && s.Metric != "bep" {
		return learner.Settingsf("--metric must be accuracy or bep, got %q", s.Metric)
	}
	if s.Metric != "bep" {
		if err := NeedLandmarks(s.Learners, s.Landmarks); err != nil {
			return err
		}
	}
	if !s.Float32 {
		return nil
	}
	if s.Landmarks > 0 {
		return learner.Settingsf("--float32 and --landmarks: the landmark features are N×M, not an N×N matrix; leave out --float32")
	}
	if s.Metric == "bep" {
		return learner.Settingsf("--float32 is not available with --metric bep (its scorers take float64 kernels)")
	}
	for _, sp := range s.Kernels {
		if kernel.Bytes32(sp, 2) == 0 {
			return learner.Settingsf("--float32 takes point kernels and hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix; use --landmarks)", sp)
		}
	}
	return nil
}

// EvalShape is the shape of an evaluation on ds with perClass labelled
// rows per class (0: splits not known, every row counted as labelled): the
// Shape EvalCost takes before the splits are drawn.
func EvalShape(ds *dataset.Dataset, perClass int) Shape {
	sh := ShapeOf(ds, nil)
	if perClass > 0 {
		sh.Labeled = min(sh.Rows, perClass*max(sh.Classes, 1))
	}
	return sh
}

// EvalCost is the memory Eval (or EvalBEP) needs on data of shape sh,
// known before the work: the kernel matrices Eval keeps for every split
// (or, with Float32, one float32 matrix at a time), lp/spreading's sparse
// kNN graph or dense affinity, or the landmark runs (LandmarkRunBytes:
// sh.Labeled is a split's labelled rows, EvalShape). Its Hint names the
// settings that fit s.MemoryBudget. Errors: Check's.
func EvalCost(s EvalSettings, sh Shape) (Estimate, error) {
	if err := s.Check(); err != nil {
		return Estimate{}, err
	}
	e := Estimate{Budget: s.MemoryBudget, Source: s.MemoryBudgetSource}
	learners := s.Learners
	if s.Metric == "bep" {
		learners = nil // the scorers take the kernel matrices
	}
	n := sh.Rows
	need := evalNeed(learners, s.Kernels, sh)
	hint := func() string {
		if s.Metric == "bep" {
			return LandmarkHint(s.MemoryBudget, n, func(m int) float64 { return LandmarkBytes(n, sh.Features, m) })
		}
		return LandmarkHint(s.MemoryBudget, n, func(m int) float64 {
			b, _, _ := landmarkEvalNeed(learners, s.Kernels, sh, m)
			return b
		})
	}
	switch {
	case need > 0 && s.Landmarks > 0:
		e.Bytes, e.What, e.Hint = landmarkEvalNeed(learners, s.Kernels, sh, s.Landmarks)
	case s.Float32:
		e.Bytes, e.What, e.Hint = evalNeed32(learners, s.Kernels, sh), fmt.Sprintf("holding the kernel matrices of %d rows (--float32)", n), hint()
	case need > 0:
		var hint32 float64
		if s.Metric != "bep" && anyUsesKernel(learners) {
			if n32 := evalNeed32(learners, s.Kernels, sh); n32 < need {
				hint32 = n32
			}
		}
		e.Bytes, e.What = need, fmt.Sprintf("holding the kernel matrices of %d rows", n)
		e.Hint = memory.JoinHints(Float32Hint(s.MemoryBudget, hint32), hint())
	}
	return e, nil
}

// Eval runs every learner with every kernel on every split of ds (every
// row labelled; each split the sorted rows whose labels are shown) and
// scores the accuracy on the other rows: the kernel matrices built once
// and shared (ssl.Eval), or with Landmarks the landmark fits
// (EvalLandmarks). The learners are told ds's classes (a split leaving a
// class without a labelled row is then an error, not a class that can
// never be predicted). It is what arbor eval runs. Errors: EvalCost's,
// one wrapping ErrMemory when the cost is above MemoryBudget (before any
// work), and ssl.Eval's.
func Eval(ctx context.Context, s EvalSettings, ds *dataset.Dataset, splits [][]int) ([]ssl.Result, error) {
	if err := s.checkCost(ds, splits); err != nil {
		return nil, err
	}
	log := s.Log
	if log == nil {
		log = io.Discard
	}
	all := make([]int, len(ds.Classes))
	for i := range all {
		all[i] = i
	}
	learners := make([]learner.Learner, len(s.Learners))
	for i, l := range s.Learners {
		learners[i] = learner.WithRun(l, learner.Run{Classes: all})
	}
	if s.Landmarks > 0 {
		lm := LandmarkChoice{M: s.Landmarks, Method: orDefault(s.LandmarkMethod, landmark.KMeans), Seed: s.Seed}
		return EvalLandmarks(ctx, lm, ds, s.Kernels, learners, splits, log)
	}
	if s.Progress != nil {
		for i, l := range learners {
			learners[i] = learner.WithRun(l, learner.Run{Progress: s.Progress})
		}
	}
	warn := func(err error) { fmt.Fprintln(log, "warning:", ClassWarnText(err, ds.Classes)) }
	return ssl.Eval{Kernels: s.Kernels, Learners: learners, Progress: s.Progress, Warn: warn, Float32: s.Float32}.Run(ctx, ds.X, ds.Y, splits)
}

// EvalBEP is Eval with the breakeven metric: every scorer with every
// kernel on every split, scored by the micro- and macro-averaged
// precision–recall breakeven over the hidden rows (ssl.BEPEval), on
// multi-label data (ds.Sets) or single-label data (each row's class).
func EvalBEP(ctx context.Context, s EvalSettings, ds *dataset.Dataset, splits [][]int) ([]ssl.BEPResult, error) {
	s.Metric = "bep"
	if err := s.checkCost(ds, splits); err != nil {
		return nil, err
	}
	log := s.Log
	if log == nil {
		log = io.Discard
	}
	sets := ds.Sets
	if sets == nil {
		sets = make([][]int, ds.Len())
		for i, c := range ds.Y {
			sets[i] = []int{c}
		}
	}
	warn := func(err error) { fmt.Fprintln(log, "warning:", err) }
	return ssl.BEPEval{Kernels: s.Kernels, Learners: s.Scorers, Progress: s.Progress, Warn: warn}.Run(ctx, ds.X, sets, len(ds.Classes), splits)
}

// checkCost refuses s over its budget on ds.
func (s EvalSettings) checkCost(ds *dataset.Dataset, splits [][]int) error {
	sh := ShapeOf(ds, nil)
	sh.Labeled = 0
	for _, sp := range splits {
		sh.Labeled = max(sh.Labeled, len(sp))
	}
	e, err := EvalCost(s, sh)
	if err != nil {
		return err
	}
	return e.Err()
}

// evalBytes is eval's kernel matrices: kernel.BuildAll returns all of
// them and eval keeps them for every split (8N² each), plus the largest
// transient of one build (pdist, a linkage's working matrix, geodesics).
func evalBytes(specs []kernel.Spec, n int) float64 {
	nn := 8 * float64(n) * float64(n)
	held, transient := 0.0, 0.0
	for _, s := range specs {
		held += nn
		transient = max(transient, kernel.Bytes(s, n)-nn)
	}
	return held + transient
}

// evalNeed is eval's largest allocation: the kernel matrices when a
// learner takes them, lp/spreading's kNN graph (sparse), and 2·8N² for a
// dense affinity; the kernel matrices for the breakeven scorers (no
// learners).
func evalNeed(learners []learner.Learner, specs []kernel.Spec, sh Shape) float64 {
	if len(learners) == 0 {
		return evalBytes(specs, sh.Rows)
	}
	need := 0.0
	n := float64(sh.Rows)
	for _, l := range learners {
		switch b, _, sparse := PropagationBytes(l, sh); {
		case ssl.UsesKernel(l):
			need = max(need, evalBytes(specs, sh.Rows))
		case sparse:
			need = max(need, b)
		default:
			need = max(need, 2*8*n*n)
		}
	}
	return need
}

// evalNeed32 is evalNeed with float32 storage: one float32 kernel matrix
// at a time (ssl.Eval.Float32), plus the dense float32 affinity (4N²,
// kept in float32 by propagate) of lp and spreading on the kernel; 0 when
// a kernel learner meets a kernel without float32 storage (isomap,
// multitype): then float32 storage is not an option.
func evalNeed32(learners []learner.Learner, specs []kernel.Spec, sh Shape) float64 {
	n := float64(sh.Rows)
	k32 := 0.0
	for _, s := range specs {
		b := kernel.Bytes32(s, sh.Rows)
		if b == 0 {
			k32 = -1
			break
		}
		k32 = max(k32, b)
	}
	need := 0.0
	for _, l := range learners {
		switch b, _, sparse := PropagationBytes(l, sh); {
		case ssl.UsesKernel(l):
			if k32 < 0 {
				return 0
			}
			aff := 0.0
			if _, ok := learner.As[learner.Transductive](l); ok {
				aff = 4 * n * n // label propagation and spreading
			}
			need = max(need, k32+aff)
		case sparse:
			need = max(need, b)
		default:
			need = max(need, 2*8*n*n)
		}
	}
	return need
}

// landmarkEvalNeed is the estimate of eval with m landmarks: the largest
// landmark run of a learner with a kernel (LandmarkRunBytes; EvalLandmarks
// labels the rows a block of features at a time as classify does), or
// the sparse graph of spreading on the kNN graph of all rows. It returns
// the largest, what it is for, and the hint. sh.Labeled is the largest
// split's labelled rows.
func landmarkEvalNeed(learners []learner.Learner, specs []kernel.Spec, sh Shape, m int) (float64, string, string) {
	need, what, hint := 0.0, "", ""
	for _, l := range learners {
		family := landmarkFamily(l)
		b := 0.0
		w, h := fmt.Sprintf("%d landmarks for %d rows", m, sh.Rows), "use fewer --landmarks"
		switch _, graph := KNNGraphSpreading(l, sh.Rows, sh.Features); {
		case graph:
			b, w, _ = PropagationBytes(l, sh)
			h = "use fewer neighbours (--affinity knn:K)"
		case family == "lp" || family == "spreading":
			b = LandmarkRunBytes(kernel.Spec{}, family, sh, m)
		default:
			for _, sp := range specs {
				b = max(b, LandmarkRunBytes(sp, family, sh, m))
			}
		}
		if b > need {
			need, what, hint = b, w, h
		}
	}
	return need, what, hint
}

func anyUsesKernel(learners []learner.Learner) bool {
	for _, l := range learners {
		if ssl.UsesKernel(l) {
			return true
		}
	}
	return false
}

// Learners builds the learners names lists (comma-separated registered
// names, as arbor eval's --learner) with settings params by flag name, as
// Settings.Params; seed seeds the learners that draw. A setting that
// lists values ("k": "1,3,5") gives one learner per value. Errors wrap
// learner.ErrSettings.
func Learners(names string, params map[string]string, seed uint64) ([]learner.Learner, error) {
	var out []learner.Learner
	for _, name := range strings.Split(names, ",") {
		if name = strings.TrimSpace(strings.ToLower(name)); name == "" {
			continue
		}
		e, ok := learner.Lookup(name)
		if !ok {
			return nil, learner.Settingsf("unknown learner %q", name)
		}
		ls, err := e.New(name, values{params, seed})
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	if len(out) == 0 {
		return nil, learner.Settingsf("no learner in %q", names)
	}
	return out, nil
}
