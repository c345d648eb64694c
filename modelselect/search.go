package modelselect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// Scorings: the score of one fit on the rows of the held-out fold.
const (
	// Accuracy is the share of the fold's rows given their class
	// (scikit-learn's scoring="accuracy"); a row a learner leaves
	// unlabelled counts as wrong.
	Accuracy = "accuracy"
	// Breakeven is the micro-averaged precision–recall breakeven point
	// of the fold's class scores against their classes (every class of a
	// multi-label row), as ssl.BEPEval computes it (metrics.Breakeven):
	// for the learners with class scores, soft kNN and label propagation.
	Breakeven = "breakeven"
	// BreakevenMacro is the macro-averaged breakeven point (the mean over
	// the classes the fold's rows carry).
	BreakevenMacro = "breakeven-macro"
)

// ErrScoring marks an unknown scoring or a learner it cannot score.
var ErrScoring = errors.New("scoring")

// Search is a grid search with cross-validation over the labelled rows:
// every candidate of the grids (Expand) is fitted once per fold, on the
// labelled rows outside the fold (and every unlabelled row, which
// transductive learners use), and scored on the fold's rows. The best
// candidate has the highest mean score over the folds; among equal means
// the first in grid order (GridSearchCV's best_index_).
//
// Features are scaled once with Scale fitted on every row, and each kernel
// is built once over every row and shared by the candidates and folds
// that use it (kernels and scalings read no label: the semi-supervised
// protocol of package ssl), one kernel at a time.
type Search struct {
	Grids []Grid
	Folds Folds
	// CV says how the folds were made ("stratified:5", "kfold:5
	// shuffled, seed 1", "folds.txt"); it is recorded with a refit model.
	CV string
	// Scoring is Accuracy (the default, ""), Breakeven or BreakevenMacro.
	Scoring string
	// Scale is the feature scaling ("std", the default "", "minmax",
	// "none"), as pipeline.Settings.Scale. Scaler, when not nil, says the
	// data are already scaled by it (it is saved with a refit model) and
	// Scale is not read.
	Scale  string
	Scaler *dataset.Scaler
	// Seed seeds the learners that draw (s4vm, hibust), as
	// pipeline.Settings.Seed.
	Seed uint64
	// Refit, when set, fits the best candidate on every labelled row
	// (pipeline.Fit) into Result.Refit.
	Refit bool
	// Progress, if not nil, reports kernel building and ("search", done,
	// total) over the candidate × fold fits; calls are serialised.
	Progress func(stage string, done, total int)
	// Log, if not nil, receives the fits' warnings (non-convergence),
	// each naming the candidate and fold, in grid order after each
	// kernel's fits, and the refit's notes.
	Log io.Writer
}

// Result is a finished search: scikit-learn's cv_results_ and best_index_.
type Result struct {
	Candidates []Candidate // in grid order
	// Split[c][f] is candidate c's score on fold f (NaN: the fit failed;
	// Errors[c] says why).
	Split [][]float64
	// Mean and Std are NumPy's mean and population standard deviation of
	// each candidate's split scores (mean_test_score, std_test_score).
	Mean, Std []float64
	// Rank ranks the means, 1 for the best, ties sharing the lowest rank
	// (rank_test_score).
	Rank []int
	// Best is the first candidate of rank 1.
	Best int
	// Errors[c] is the first failed fit of candidate c (nil if none).
	Errors []error

	Scoring string
	CV      string
	Folds   Folds
	// Refit is the best candidate fitted on every labelled row (with
	// Search.Refit).
	Refit *pipeline.Result
}

// Settings returns the pipeline settings of candidate c of the search
// (what Refit fits).
func (s Search) Settings(c Candidate) pipeline.Settings {
	return pipeline.Settings{Scale: s.Scale, Scaler: s.Scaler, Kernel: c.Kernel, Learner: c.Learner, Params: c.Params, Seed: s.Seed, Progress: s.Progress, Log: s.Log}
}

// Selection is the search's choice as a saved model records it
// (pipeline.Selection).
func (r *Result) Selection() *pipeline.Selection {
	b := r.Candidates[r.Best]
	return &pipeline.Selection{
		Learner: b.Learner, Kernel: b.Kernel, Params: b.Params, Scoring: r.Scoring, CV: r.CV,
		Folds: len(r.Folds), Candidates: len(r.Candidates), MeanTestScore: r.Mean[r.Best], StdTestScore: r.Std[r.Best],
	}
}

// Pipeline returns the refit model as a pipeline to save, recording the
// choice (Selection). Errors: no refit, and pipeline.Result.Pipeline's.
func (r *Result) Pipeline() (*pipeline.Pipeline, error) {
	if r.Refit == nil {
		return nil, fmt.Errorf("modelselect: the search did not refit the best candidate")
	}
	p, err := r.Refit.Pipeline()
	if err != nil {
		return nil, err
	}
	p.Selection = r.Selection()
	return p, nil
}

// Run searches the grids on ds (labelled rows: a class; the others
// dataset.Unlabeled). Results do not depend on GOMAXPROCS: the fits run
// in parallel (internal/parallel), each writing its own score, and
// everything after them runs in grid order. Memory: one kernel matrix
// (8N² bytes, plus what building it takes) and the fits running at once.
// Errors: ErrFolds, ErrScoring, those wrapping learner.ErrSettings (the
// grids), kernel errors, the first fit's error when every candidate
// fails, the refit's, ctx.Err().
func (s Search) Run(ctx context.Context, ds *dataset.Dataset) (*Result, error) {
	scoring := s.Scoring
	if scoring == "" {
		scoring = Accuracy
	}
	switch scoring {
	case Accuracy, Breakeven, BreakevenMacro:
	default:
		return nil, fmt.Errorf("%w: unknown %q (want %s, %s or %s)", ErrScoring, scoring, Accuracy, Breakeven, BreakevenMacro)
	}
	if err := s.Folds.Check(ds.Y); err != nil {
		return nil, err
	}
	cands, err := expand(s.Grids, s.Seed, scoring)
	if err != nil {
		return nil, err
	}
	X := ds.X
	if s.Scaler == nil {
		sc, err := dataset.FitScaler(ds.X, orDefault(s.Scale, "std"))
		if err != nil {
			return nil, learner.Settingsf("scale: %v", err)
		}
		if X, err = sc.Transform(nil, ds.X); err != nil {
			return nil, err
		}
	}
	classes := make([]int, len(ds.Classes))
	for i := range classes {
		classes[i] = i
	}
	fits := make([]fitter, len(cands))
	for i, c := range cands {
		ln, err := c.build(s.Seed)
		if err != nil {
			return nil, err
		}
		ln = learner.WithRun(ln, learner.Run{Classes: classes})
		if fits[i], err = newFitter(scoring, c, ln); err != nil {
			return nil, err
		}
	}
	k := len(s.Folds)
	res := &Result{Candidates: cands, Scoring: scoring, CV: s.CV, Folds: s.Folds,
		Split: make([][]float64, len(cands)), Errors: make([]error, len(cands))}
	for c := range res.Split {
		res.Split[c] = make([]float64, k)
	}
	log := s.Log
	if log == nil {
		log = io.Discard
	}
	var mu sync.Mutex
	done, total := 0, len(cands)*k
	// kernels in order of first use; "" (no kernel) last
	var order []string
	group := map[string][]int{}
	for i, c := range cands {
		if _, ok := group[c.Kernel]; !ok && c.Kernel != "" {
			order = append(order, c.Kernel)
		}
		group[c.Kernel] = append(group[c.Kernel], i)
	}
	if _, ok := group[""]; ok {
		order = append(order, "")
	}
	sets := ds.Sets
	if sets == nil {
		sets = make([][]int, ds.Len())
		for i, c := range ds.Y {
			if c != learner.Unlabeled {
				sets[i] = []int{c}
			}
		}
	}
	for _, kn := range order {
		var spec *kernel.Spec
		var K *mat.SymDense
		if kn != "" {
			sp, err := kernel.ParseSpec(kn)
			if err != nil {
				return nil, err
			}
			bs, err := kernel.BuildAll(ctx, X, []kernel.Spec{sp}, kernel.BuildOptions{Progress: s.Progress})
			if err != nil {
				return nil, fmt.Errorf("kernel %s: %w", kn, err)
			}
			spec, K = &bs[0].Spec, bs[0].K
		}
		idx := group[kn]
		warns := make([][]error, len(idx)*k)
		errs := make([]error, len(idx)*k)
		err := parallel.For(ctx, len(idx)*k, func(t int) {
			c, f := idx[t/k], t%k
			task := task{X: X, K: K, Spec: spec, Y: ds.Y, Sets: sets, Classes: len(ds.Classes), Fold: s.Folds[f], TrainY: s.Folds.trainLabels(ds.Y, f)}
			var sc float64
			sc, warns[t], errs[t] = fits[c].score(ctx, task)
			res.Split[c][f] = sc
			if s.Progress != nil {
				mu.Lock()
				done++
				s.Progress("search", done, total)
				mu.Unlock()
			}
		})
		if err != nil {
			return nil, err
		}
		for t := range errs {
			c, f := idx[t/k], t%k
			for _, w := range warns[t] {
				fmt.Fprintf(log, "warning: %s, fold %d: %s\n", cands[c], f+1, pipeline.WarnText(w))
			}
			if errs[t] != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				res.Split[c][f] = math.NaN()
				if res.Errors[c] == nil {
					res.Errors[c] = fmt.Errorf("%s, fold %d: %w", cands[c], f+1, errs[t])
				}
			}
		}
	}
	failed := 0
	for _, e := range res.Errors {
		if e != nil {
			failed++
			fmt.Fprintf(log, "warning: %v (its score is NaN)\n", e)
		}
	}
	if failed == len(cands) {
		return nil, fmt.Errorf("every candidate failed; the first: %w", res.Errors[0])
	}
	res.Mean, res.Std = make([]float64, len(cands)), make([]float64, len(cands))
	for c, sp := range res.Split {
		res.Mean[c], res.Std[c] = meanStd(sp)
	}
	res.Rank = rankMin(res.Mean)
	res.Best = slices.Index(res.Rank, 1)
	if s.Refit {
		if res.Refit, err = pipeline.Fit(ctx, s.Settings(cands[res.Best]), ds, nil); err != nil {
			return nil, fmt.Errorf("refitting %s on every labelled row: %w", cands[res.Best], err)
		}
	}
	return res, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// task is one fit of the cross-validation.
type task struct {
	X       *mat.Dense
	K       *mat.SymDense // nil for a learner that uses no kernel
	Spec    *kernel.Spec
	Y       []int   // every row's label (Unlabeled where none)
	Sets    [][]int // every row's classes (nil where none)
	Classes int
	Fold    []int // the held-out rows
	TrainY  []int // Y without the fold
}

// fitter fits one candidate on a task and scores it on the fold.
type fitter interface {
	score(ctx context.Context, t task) (float64, []error, error)
}

// accuracyFit scores a learner's labels (ssl.Transduce).
type accuracyFit struct{ ln learner.Learner }

func (a accuracyFit) score(ctx context.Context, t task) (float64, []error, error) {
	var warns []error
	p := ssl.Problem{X: t.X, K: t.K, Y: t.TrainY, Spec: t.Spec, Warn: func(err error) { warns = append(warns, err) }}
	pred, _, err := ssl.Transduce(ctx, a.ln, p)
	if err != nil {
		return math.NaN(), warns, err
	}
	right := 0
	for _, r := range t.Fold {
		if pred[r] == t.Y[r] {
			right++
		}
	}
	return float64(right) / float64(len(t.Fold)), warns, nil
}

// Row is one candidate's line of the results table, with scikit-learn's
// cv_results_ names.
type Row struct {
	Candidate
	Rank  int     `json:"rank_test_score"`
	Mean  Score   `json:"mean_test_score"`
	Std   Score   `json:"std_test_score"`
	Split []Score `json:"split_test_scores"`
	Best  bool    `json:"best,omitempty"`
	Error string  `json:"error,omitempty"` // the first failed fit (its score is NaN)
}

// Score is a score that is null in JSON when it is NaN (a failed fit).
type Score float64

// MarshalJSON writes the shortest decimal that reads back as s, or null.
func (s Score) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(s), 'g', -1, 64), nil
}

// Rows returns the table in grid order.
func (r *Result) Rows() []Row {
	out := make([]Row, len(r.Candidates))
	for c, cand := range r.Candidates {
		out[c] = Row{Candidate: cand, Rank: r.Rank[c], Mean: Score(r.Mean[c]), Std: Score(r.Std[c]), Best: c == r.Best}
		for _, v := range r.Split[c] {
			out[c].Split = append(out[c].Split, Score(v))
		}
		if r.Errors[c] != nil {
			out[c].Error = r.Errors[c].Error()
		}
	}
	return out
}
