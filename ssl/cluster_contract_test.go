package ssl

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/svcluster"
	"gonum.org/v1/gonum/mat"
)

// TestClusteringContract drives support vector clustering through the
// same interface as TestLearnerContract (learner.Learner → learner.Model).
// A clustering has no y and its classes are cluster ids, so the table's
// class checks do not apply; the contract's invariants do: fit on the
// kernel over all rows, predict every row from its kernel row (the
// new-point path, with k(x, x)), save, load, predict again: identical; a
// training row's kernel row predicts its transduction; Classes are the ids.
func TestClusteringContract(t *testing.T) {
	ctx := context.Background()
	ds := dataset.Blobs(150, 3, 2, 0.6, 1)
	K, err := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 0.3}, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	n := ds.Len()
	y := make([]int, n)
	for i := range y {
		y[i] = learner.Unlabeled
	}
	Kt := mat.NewDense(n, n, nil)
	diag := make([]float64, n)
	for i := range n {
		for j := range n {
			Kt.Set(i, j, K.At(i, j))
		}
		diag[i] = K.At(i, i)
	}
	for _, l := range []svcluster.Learner{
		{Clusterer: svcluster.Clusterer{C: 1, Kernel: svcluster.Gaussian, Labelling: svcluster.Cone}},
		{Clusterer: svcluster.Clusterer{C: 10 / float64(n), Kernel: svcluster.Gaussian, Labelling: svcluster.Cone}},
		{Clusterer: svcluster.Clusterer{C: 10 / float64(n), Kernel: svcluster.Gaussian, Labelling: svcluster.Cone, Unassigned: true}},
	} {
		var ll learner.Learner = l
		if err := ll.Validate(); err != nil {
			t.Fatal(err)
		}
		m, err := ll.FitGram(ctx, K, y)
		if err != nil {
			t.Fatal(err)
		}
		dp, ok := m.(learner.DiagPredictor)
		if !ok {
			t.Fatal("svcluster model is not a DiagPredictor")
		}
		k := len(m.Classes())
		if k < 1 || !slices.Equal(m.Classes(), seqInts(k)) {
			t.Errorf("classes %v", m.Classes())
		}
		tr := m.Transduction()
		pred, err := dp.PredictDiag(ctx, nil, Kt, diag)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := m.Predict(ctx, nil, Kt)
		if err != nil || !slices.Equal(plain, pred) {
			t.Errorf("Predict (k(x, x) = 1) differs from PredictDiag (%v)", err)
		}
		noise := 0
		for i, c := range tr {
			if c == learner.Unlabeled {
				noise++
				continue
			}
			if pred[i] != c {
				t.Fatalf("C=%g: row %d predicted %d, transduction %d", l.C, i, pred[i], c)
			}
		}
		if l.Unassigned != (noise > 0) {
			t.Errorf("C=%g Unassigned=%v: %d unassigned rows", l.C, l.Unassigned, noise)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		m2, err := svcluster.Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		pred2, err := m2.PredictDiag(ctx, nil, Kt, diag)
		if err != nil || !slices.Equal(pred2, pred) || !slices.Equal(m2.Transduction(), tr) {
			t.Errorf("C=%g: save → load → predict differs (%v)", l.C, err)
		}
		t.Logf("C=%g: %d clusters, %d unassigned", l.C, k, noise)
	}
}

func seqInts(k int) []int {
	s := make([]int, k)
	for i := range s {
		s[i] = i
	}
	return s
}
