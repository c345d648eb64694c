package ssl_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// TestMeanStd: the mean and the ddof = 1 standard deviation in closed
// form; one value has deviation 0.
func TestMeanStd(t *testing.T) {
	m, s := ssl.MeanStd([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(s-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("MeanStd(1..4) = %v, %v; want 2.5, √(5/3)", m, s)
	}
	if m, s := ssl.MeanStd([]float64{7}); m != 7 || s != 0 {
		t.Errorf("MeanStd(7) = %v, %v", m, s)
	}
}

// TestSummarize: one summary per method in order of first appearance,
// accuracy in percent, fit time per split, unreached rows summed.
func TestSummarize(t *testing.T) {
	res := []ssl.Result{
		{Learner: "svm", Kernel: "rbf", Split: 0, Accuracy: 0.5, FitS: 1},
		{Learner: "knn", Kernel: "rbf", Split: 0, Accuracy: 1, FitS: 2, Unreached: 1},
		{Learner: "svm", Kernel: "rbf", Split: 1, Accuracy: 0.75, FitS: 3},
		{Learner: "knn", Kernel: "rbf", Split: 1, Accuracy: 1, FitS: 2, Unreached: 2},
	}
	m, s := ssl.MeanStd([]float64{50, 75})
	want := []ssl.Summary{
		{Learner: "svm", Kernel: "rbf", Splits: 2, Mean: m, Std: s, FitS: 2},
		{Learner: "knn", Kernel: "rbf", Splits: 2, Mean: 100, Std: 0, FitS: 2, Unreached: 3},
	}
	if got := ssl.Summarize(res); !slices.Equal(got, want) {
		t.Errorf("Summarize = %+v\nwant %+v", got, want)
	}
}

// TestSummarizeBEP: the means of the breakeven points per method, and the
// best by their mean, the first on ties.
func TestSummarizeBEP(t *testing.T) {
	res := []ssl.BEPResult{
		{Learner: "a", Kernel: "k", MicroBEP: 0.5, MacroBEP: 0.25},
		{Learner: "b", Kernel: "k", MicroBEP: 0.25, MacroBEP: 0.5},
		{Learner: "a", Kernel: "k", MicroBEP: 0.75, MacroBEP: 0.75},
		{Learner: "b", Kernel: "k", MicroBEP: 0.75, MacroBEP: 0.5},
	}
	want := []ssl.BEPSummary{{"a", "k", 2, 62.5, 50}, {"b", "k", 2, 50, 50}}
	got := ssl.SummarizeBEP(res)
	if !slices.Equal(got, want) {
		t.Errorf("SummarizeBEP = %+v, want %+v", got, want)
	}
	if b := ssl.BestBEP(got); b != 0 {
		t.Errorf("BestBEP = %d, want 0", b)
	}
	if b := ssl.BestBEP([]ssl.BEPSummary{{"a", "k", 1, 50, 50}, {"b", "k", 1, 60, 40}}); b != 0 {
		t.Errorf("BestBEP on a tie = %d, want the first", b)
	}
	if b := ssl.BestBEP(nil); b != -1 {
		t.Errorf("BestBEP(nil) = %d, want -1", b)
	}
}

// TestPerClassSplits: split r is PerClass with seed seed + r; bad repeats
// and seeds are ErrSplit.
func TestPerClassSplits(t *testing.T) {
	y := []int{0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2}
	splits, err := ssl.PerClassSplits(y, 2, 3, 7)
	if err != nil || len(splits) != 3 {
		t.Fatalf("PerClassSplits: %v, %d splits", err, len(splits))
	}
	for r, l := range splits {
		want, _ := ssl.PerClass(y, 2, uint32(7+r))
		if !slices.Equal(l, want) {
			t.Errorf("split %d = %v, want PerClass with seed %d: %v", r, l, 7+r, want)
		}
	}
	for _, c := range []struct {
		repeats int
		seed    uint64
	}{{0, 0}, {2, math.MaxUint32}} {
		if _, err := ssl.PerClassSplits(y, 2, c.repeats, c.seed); !errors.Is(err, ssl.ErrSplit) {
			t.Errorf("repeats %d seed %d: %v, want ErrSplit", c.repeats, c.seed, err)
		}
	}
	if got := ssl.Singletons([]int{0, 1, 1, 2, 3, 3}, 5); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("Singletons = %v, want [0 2]", got)
	}
}

// values are learner settings by name, for SetScorers.
type values map[string]string

func (v values) Float(string) float64   { return 0 }
func (v values) Int(string) int         { return 0 }
func (v values) String(n string) string { return v[n] }
func (v values) Bool(string) bool       { return false }
func (v values) Seed() uint64           { return 0 }

// TestSetScorers: soft kNN per k, label propagation on the kernel or an
// affinity; learners without class scores and bad affinities are settings
// errors.
func TestSetScorers(t *testing.T) {
	sc, err := ssl.SetScorers("knn, lp", values{"k": "3,5", "weights": knn.Uniform, "affinity": "kernel"})
	if err != nil || len(sc) != 3 {
		t.Fatalf("SetScorers: %v, %d scorers", err, len(sc))
	}
	if k, ok := sc[1].(ssl.SoftKNN); !ok || k.Settings.K != 5 {
		t.Errorf("scorer 1 = %#v, want soft kNN with K 5", sc[1])
	}
	if _, ok := sc[2].(ssl.SetPropagation); !ok {
		t.Errorf("scorer 2 = %#v, want label propagation", sc[2])
	}
	for _, c := range []struct{ names, affinity string }{{"svm", "kernel"}, {"lp", "nosuch:1"}, {" ", "kernel"}} {
		if _, err := ssl.SetScorers(c.names, values{"affinity": c.affinity}); !errors.Is(err, learner.ErrSettings) {
			t.Errorf("%q, affinity %q: %v, want a settings error", c.names, c.affinity, err)
		}
	}
}
