package modelselect

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
)

// TestGOMAXPROCS: the same table, bit for bit, on one processor and on
// several.
func TestGOMAXPROCS(t *testing.T) {
	ds, _ := dataset.Embedded("wine")
	folds, _ := StratifiedKFold(ds.Y, 4, true, 5)
	s := Search{
		Grids: []Grid{
			{Learner: "svm", Params: map[string][]string{"C": {"0.5", "5"}}, Kernels: []string{"rbf:0.05", "hck:average"}},
			{Learner: "knn", Params: map[string][]string{"k": {"1", "5"}}, Kernels: []string{"hck:average"}},
			{Learner: "lp", Params: map[string][]string{"affinity": {"knn:5", "rbf:0.5"}}},
		},
		Folds: folds,
	}
	run := func(procs int) *Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := s.Run(context.Background(), ds)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(1), run(4)
	if len(a.Candidates) != 2*2+2+2 {
		t.Fatalf("%d candidates, want 8", len(a.Candidates))
	}
	for c := range a.Split {
		for f := range a.Split[c] {
			if math.Float64bits(a.Split[c][f]) != math.Float64bits(b.Split[c][f]) {
				t.Fatalf("%s fold %d: %v with GOMAXPROCS 1, %v with 4", a.Candidates[c], f, a.Split[c][f], b.Split[c][f])
			}
		}
	}
	if a.Best != b.Best || !slices.Equal(a.Rank, b.Rank) {
		t.Fatal("other ranks")
	}
	if a.Candidates[6].Kernel != "" || a.Candidates[6].Params["affinity"] != "knn:5" {
		t.Fatalf("lp on its own affinity: candidate %s, want no kernel", a.Candidates[6])
	}
}

// TestUnlabelledRows: folds hold labelled rows only; each fold's score is
// the learner fitted with the fold's labels hidden (and the unlabelled
// rows present) scored on the fold, here recomputed with ssl.Transduce.
func TestUnlabelledRows(t *testing.T) {
	ds, _ := dataset.Embedded("two_moons")
	ds.X = dataset.Standardize(ds.X)
	for i := range ds.Y {
		if i%5 != 0 {
			ds.Y[i] = learner.Unlabeled // 80 labelled rows of 400
		}
	}
	folds, err := StratifiedKFold(ds.Y, 4, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := Search{Grids: []Grid{{Learner: "lp", Params: map[string][]string{"affinity": {"knn:7"}}}}, Folds: folds, Scale: "none"}
	res, err := s.Run(context.Background(), ds)
	if err != nil {
		t.Fatal(err)
	}
	ln := learner.AdaptPoints("lp", propagate.Propagation{Affinity: propagate.Affinity{Kind: propagate.KNN, K: 7}, Method: propagate.Iterative, Unreachable: propagate.UnreachableUnlabeled})
	for f, rows := range folds {
		yl := slices.Clone(ds.Y)
		for _, r := range rows {
			yl[r] = learner.Unlabeled
		}
		pred, _, err := ssl.Transduce(context.Background(), ln, ssl.Problem{X: ds.X, Y: yl})
		if err != nil {
			t.Fatal(err)
		}
		right := 0
		for _, r := range rows {
			if pred[r] == ds.Y[r] {
				right++
			}
		}
		if want := float64(right) / float64(len(rows)); res.Split[0][f] != want {
			t.Errorf("fold %d: %v, want %v", f, res.Split[0][f], want)
		}
	}
}

// TestBreakevenEqualsBEPEval: on fully labelled data the rows a fold
// holds out are all the rows ssl.BEPEval hides with the other folds as
// its split, so the two breakeven points are the same numbers.
func TestBreakevenEqualsBEPEval(t *testing.T) {
	ds, _ := dataset.Embedded("iris")
	ds.X = dataset.Standardize(ds.X)
	folds, _ := StratifiedKFold(ds.Y, 3, false, 0)
	for _, scoring := range []string{Breakeven, BreakevenMacro} {
		s := Search{Grids: []Grid{{Learner: "knn", Params: map[string][]string{"k": {"3", "10"}}, Kernels: []string{"rbf:0.5"}},
			{Learner: "lp", Params: map[string][]string{"affinity": {"knn:5"}}, Kernels: []string{"rbf:0.5"}}},
			Folds: folds, Scale: "none", Scoring: scoring}
		res, err := s.Run(context.Background(), ds)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Candidates) != 3 || res.Candidates[2].Kernel != "rbf:0.5" {
			t.Fatalf("candidates %v", res.Candidates)
		}
		sets := make([][]int, ds.Len())
		for i, c := range ds.Y {
			sets[i] = []int{c}
		}
		var splits [][]int
		for f := range folds {
			var train []int
			for i := range ds.Y {
				if !slices.Contains(folds[f], i) {
					train = append(train, i)
				}
			}
			splits = append(splits, train)
		}
		sp, _ := kernel.ParseSpec("rbf:0.5")
		ev := ssl.BEPEval{Kernels: []kernel.Spec{sp}, Learners: []ssl.SetScorer{
			ssl.SoftKNN{Settings: knn.Classifier{K: 3}}, ssl.SoftKNN{Settings: knn.Classifier{K: 10}},
			ssl.SetPropagation{Standardize: true, Settings: propagate.Propagation{Affinity: propagate.Affinity{Kind: propagate.KNN, K: 5}, Unreachable: propagate.UnreachableUnlabeled}},
		}}
		want, err := ev.Run(context.Background(), ds.X, sets, 3, splits)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want { // split, then learner
			got := res.Split[slices.IndexFunc(ev.Learners, func(l ssl.SetScorer) bool { return l.Name() == w.Learner })][w.Split]
			v := w.MicroBEP
			if scoring == BreakevenMacro {
				v = w.MacroBEP
			}
			if got != v {
				t.Errorf("%s %s fold %d: %v, BEPEval %v", scoring, w.Learner, w.Split, got, v)
			}
		}
	}
	s := Search{Grids: []Grid{{Learner: "svm"}}, Folds: folds, Scoring: Breakeven}
	if _, err := s.Run(context.Background(), ds); !errors.Is(err, ErrScoring) {
		t.Fatalf("svm with breakeven: %v, want ErrScoring", err)
	}
}
