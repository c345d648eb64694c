package ssl

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/svm"
)

// TestLabeler: new points that are the training rows themselves get, from
// Labeler, the labels Transduce gives those rows as new points (kernel rows
// = rows of K): for the SVM (Predict) and for kNN (PredictDiag with
// k(x, x)), under a point kernel and a cluster kernel's tree rule.
func TestLabeler(t *testing.T) {
	ctx := context.Background()
	moons, err := dataset.Embedded("two_moons")
	if err != nil {
		t.Fatal(err)
	}
	labeled, err := PerClass(moons.Y, 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	y := moons.WithLabeled(labeled).Y
	for _, ks := range []string{"rbf:2", "hck:average"} {
		sp, err := kernel.ParseSpec(ks)
		if err != nil {
			t.Fatal(err)
		}
		built, err := kernel.BuildAll(ctx, moons.X, []kernel.Spec{sp}, kernel.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := built[0]
		Kt, diag, err := b.Extend(ctx, moons.X, moons.X, kernel.RuleTree)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []learner.Learner{learner.Adapt("svm", svm.Classifier{C: 1}), learner.Adapt("knn", knn.Classifier{K: 3})} {
			want, m, err := Transduce(ctx, l, Problem{X: moons.X, K: b.K, Y: y, Kt: Kt, TestDiag: diag, Spec: &b.Spec})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Labeler(ctx, m, b, moons.X, kernel.RuleTree)(mat.DenseCopyOf(moons.X))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want[moons.Len():]) {
				t.Errorf("%s, %s: Labeler differs from Transduce's new-point labels", ks, l.Name())
			}
		}
	}
}
