package propagate_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/propagate"
)

// Two moons with 5 labelled points per class: propagation over the default
// RBF graph (γ = 20 on z-scored features, scikit-learn's default) labels the
// rest (scikit-learn's LabelPropagation: accuracy 0.995).
func Example() {
	ctx := context.Background()
	d, err := dataset.Embedded("two_moons")
	if err != nil {
		panic(err)
	}
	X := dataset.Standardize(d.X)
	var labeled []int
	for i := 0; len(labeled) < 10; i++ {
		if c := d.Y[i]; (c == 0) == (len(labeled) < 5) {
			labeled = append(labeled, i)
		}
	}
	semi := d.WithLabeled(labeled)
	r, err := propagate.Propagation{}.Fit(ctx, X, semi.Y)
	if err != nil {
		panic(err)
	}
	acc, _ := metrics.Accuracy(d.Y, r.Transduction())
	fmt.Printf("closed form: %d CG steps, converged %v, accuracy %.4f\n", r.Iter, r.Converged, acc)

	// The directed 7-NN graph strands some points: no path of neighbours
	// leads from them to a label. They are an error, or left unlabelled.
	knn := propagate.Affinity{Kind: propagate.KNN, K: 7}
	_, err = propagate.Propagation{Affinity: knn}.Fit(ctx, X, semi.Y)
	fmt.Println(err)
	r, err = propagate.Propagation{Affinity: knn, Unreachable: propagate.UnreachableUnlabeled}.Fit(ctx, X, semi.Y)
	if err != nil {
		panic(err)
	}
	acc, _ = metrics.Accuracy(d.Y, r.Transduction())
	fmt.Printf("knn graph: %d left unlabelled, accuracy %.4f\n", len(r.Unreachable), acc)
	// Output:
	// closed form: 60 CG steps, converged true, accuracy 0.9950
	// propagate: unlabelled points no label can reach: 12 points (components of the affinity graph without a labelled point): 39, 97, 124, 131, 179, 209, 219, 232, 233, 240, 322, 378
	// knn graph: 12 left unlabelled, accuracy 0.9600
}
