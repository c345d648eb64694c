package ssl

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	_ "github.com/arbor-ml/arbor/learner/builtin"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// TestLearnerContract drives every learner through the one interface
// (learner.Learner → learner.Model): fit on the kernel over all rows of two
// moons (5 labels per class), predict the unlabelled rows from their kernel
// rows K_UL (the new-point path), save, load, predict again: identical. For
// the inductive learners, predicting a training row from its kernel row
// equals its transduction (the same decision function); for every learner
// the labelled rows' transduction is their label (propagation clamps them;
// spreading may relabel, so it is exempt).
func TestLearnerContract(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.Embedded("two_moons")
	if err != nil {
		t.Fatal(err)
	}
	K, err := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 2}, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	n := ds.Len()
	y := make([]int, n)
	var lab, unl []int
	seen := map[int]int{}
	for i := range y {
		y[i] = learner.Unlabeled
		if seen[ds.Y[i]] < 5 {
			seen[ds.Y[i]]++
			y[i] = ds.Y[i]
			lab = append(lab, i)
		} else {
			unl = append(unl, i)
		}
	}
	Kt := mat.NewDense(len(unl), n, nil)
	diag := make([]float64, len(unl))
	for a, r := range unl {
		for j := range n {
			Kt.Set(a, j, K.At(r, j))
		}
		diag[a] = K.At(r, r)
	}
	type loader func(io.Reader) (learner.Model, error)
	wrap := func(f any) loader {
		return func(r io.Reader) (learner.Model, error) {
			switch f := f.(type) {
			case func(io.Reader) (*svm.Model, error):
				return f(r)
			case func(io.Reader) (*knn.Model, error):
				return f(r)
			case func(io.Reader) (*propagate.Model, error):
				return f(r)
			}
			panic("loader")
		}
	}
	// registered loads through the learner registry, as saved pipelines do.
	registered := func(name string) loader {
		return func(r io.Reader) (learner.Model, error) {
			m, err := learner.Load(name, r)
			if err != nil {
				return nil, err
			}
			return m.(learner.Model), nil
		}
	}
	cases := []struct {
		l         learner.Learner
		load      loader
		inductive bool
	}{
		{learner.Adapt("svm", svm.Classifier{C: 1}), wrap(svm.Load), true},
		{learner.Adapt("svm", svm.Classifier{C: 10, OneVsRest: true}), wrap(svm.Load), true},
		{learner.Adapt("knn3", knn.Classifier{K: 3}), wrap(knn.Load), true},
		{learner.Adapt("knn4", knn.Classifier{K: 4, Weights: knn.Distance}), wrap(knn.Load), true},
		{learner.Adapt("lp", propagate.Propagation{}), wrap(propagate.Load), false},
		{learner.Adapt("spreading", propagate.Spreading{}), wrap(propagate.Load), false},
		{learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true}), registered("svm"), true},
		{learner.Adapt("knn1", knn.Classifier{K: 1}), registered("knn"), true},
		{learner.Adapt("lp_precomputed", propagate.Propagation{Affinity: propagate.Affinity{Kind: propagate.Precomputed}}), registered("propagate"), false},
	}
	predict := func(m learner.Model) ([]int, error) {
		if dp, ok := m.(learner.DiagPredictor); ok {
			return dp.PredictDiag(ctx, nil, Kt, diag)
		}
		return m.Predict(ctx, nil, Kt)
	}
	for _, c := range cases {
		name := c.l.Name()
		if err := c.l.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m, err := c.l.FitGram(ctx, K, y)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(m.Classes(), []int{0, 1}) {
			t.Errorf("%s: classes %v", name, m.Classes())
		}
		tr := m.Transduction()
		if len(tr) != n {
			t.Fatalf("%s: transduction has %d labels for %d rows", name, len(tr), n)
		}
		if _, spreading := learner.As[propagate.Spreading](c.l); !spreading {
			for _, r := range lab {
				if tr[r] != y[r] {
					t.Errorf("%s: labelled row %d transduced to %d, label %d", name, r, tr[r], y[r])
				}
			}
		}
		pred, err := predict(m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.inductive {
			for a, r := range unl {
				if pred[a] != tr[r] {
					t.Errorf("%s: row %d predicted %d from its kernel row, transduced %d", name, r, pred[a], tr[r])
					break
				}
			}
		}
		correct := 0
		for a, r := range unl {
			if pred[a] == ds.Y[r] {
				correct++
			}
		}
		if acc := float64(correct) / float64(len(unl)); acc < 0.7 {
			t.Errorf("%s: accuracy %.3f on the unlabelled rows", name, acc)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatalf("%s: save: %v", name, err)
		}
		back, err := c.load(&buf)
		if err != nil {
			t.Fatalf("%s: load: %v", name, err)
		}
		again, err := predict(back)
		if err != nil {
			t.Fatalf("%s: predict after load: %v", name, err)
		}
		if !slices.Equal(again, pred) || !slices.Equal(back.Transduction(), tr) || !slices.Equal(back.Classes(), m.Classes()) {
			t.Errorf("%s: the loaded model differs", name)
		}
	}
}
