package ssl

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/svm"
)

// TestPaper000Tables reproduces Bodó (2008) Tables 1-3 on USPS with the
// papers' protocol (first official split, no scaling, SVM C = 1 on
// precomputed kernels over all 1500 points, 7-NN graph): every published
// accuracy to the hundredth (the reference pipeline, SciPy + LIBSVM, gives
// the same numbers; see shared/data/README.md).
func TestPaper000Tables(t *testing.T) {
	if testing.Short() {
		t.Skip("USPS kernels take a few seconds")
	}
	want := map[string][2]float64{ // USPS/10, USPS/100
		"linear":              {72.82, 86.43},
		"hck:single":          {80.07, 81.79},
		"hck:complete":        {82.01, 89.50},
		"hck:average":         {81.48, 92.86},
		"hckg:single:knn:7":   {80.07, 81.79},
		"hckg:complete:knn:7": {88.26, 95.64},
		"hckg:average:knn:7":  {89.26, 95.64},
		"isomap:knn:7":        {85.10, 86.71},
	}
	ds, err := dataset.Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	specs, err := kernel.ParseSpecs("linear,hck:single,hck:complete,hck:average,hckg:single,hckg:complete,hckg:average,isomap")
	if err != nil {
		t.Fatal(err)
	}
	built, err := kernel.BuildAll(context.Background(), ds.X, specs, kernel.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for col, nl := range []int{10, 100} {
		splits, err := dataset.EmbeddedSplits("usps", nl)
		if err != nil {
			t.Fatal(err)
		}
		y := make([]int, ds.Len())
		for i := range y {
			y[i] = dataset.Unlabeled
		}
		for _, r := range splits[0] {
			y[r] = ds.Y[r]
		}
		for _, b := range built {
			pred, _, err := Transduce(context.Background(), learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true}), Problem{X: ds.X, K: b.K, Y: y})
			if err != nil {
				t.Fatal(err)
			}
			correct, total := 0, 0
			for i, c := range y {
				if c == dataset.Unlabeled {
					total++
					if pred[i] == ds.Y[i] {
						correct++
					}
				}
			}
			acc := 100 * float64(correct) / float64(total)
			w := want[b.Spec.String()][col]
			if got := fmt.Sprintf("%.2f", acc); math.Abs(acc-w) > 0.005 {
				t.Errorf("USPS/%d %s: %s%%, paper %.2f%%", nl, b.Spec, got, w)
			}
		}
	}
}

// TestPaper002Table1 checks paper 002's kNN results on USPS/100 (first
// split, no scaling): 1-NN with the linear kernel 94.00 exactly; kNN on the
// average-linkage cluster kernel over a symmetrised 5-NN graph reaches the
// paper's 96.64 at k = 3; the multi-type cluster kernel (linear step,
// λ_cut = 0.1, γ = 0.05) reaches at least 94.5 for some k in 1..5 (paper:
// 95.00; with the reference pipeline's tie rule the best is 94.64 at k = 4).
func TestPaper002Table1(t *testing.T) {
	if testing.Short() {
		t.Skip("USPS kernels take a few seconds")
	}
	ds, err := dataset.Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	splits, err := dataset.EmbeddedSplits("usps", 100)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := kernel.ParseSpecs("linear,hckg:average:knn:5,multitype:linstep:0.1:0.05")
	if err != nil {
		t.Fatal(err)
	}
	var learners []learner.Learner
	for k := 1; k <= 5; k++ {
		learners = append(learners, learner.Adapt(fmt.Sprintf("knn%d", k), knn.Classifier{K: k}))
	}
	res, err := Eval{Kernels: specs, Learners: learners}.Run(context.Background(), ds.X, ds.Y, splits[:1])
	if err != nil {
		t.Fatal(err)
	}
	acc := map[string]float64{}
	for _, r := range res {
		acc[r.Learner+" "+r.Kernel] = 100 * r.Accuracy
	}
	if a := acc["knn1 linear"]; math.Abs(a-94.00) > 0.005 {
		t.Errorf("1-NN linear: %.2f%%, paper 94.00%%", a)
	}
	if a := acc["knn3 hckg:average:knn:5"]; math.Abs(a-96.64) > 0.005 {
		t.Errorf("3-NN on hckg:average:knn:5: %.2f%%, paper 96.64%%", a)
	}
	best := 0.0
	for k := 1; k <= 5; k++ {
		best = math.Max(best, acc[fmt.Sprintf("knn%d multitype:linstep:0.1:0.05", k)])
	}
	if best < 94.5 {
		t.Errorf("multi-type kernel + kNN: best %.2f%% over k = 1..5, want ≥ 94.5%%", best)
	}
}
