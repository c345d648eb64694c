package ssl_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/ssl"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// From a data file with a few labels to labels for every row and for new
// points: read the file (here the embedded two moons; dataset.Load for a
// file), keep 5 labels per moon, build the hierarchical cluster kernel on
// 7-NN graph distances over all 400 points, fit an SVM through ssl.Fit,
// read the transduction, and label new points through the kernel's
// out-of-sample rows (kernel.Built.Extend).
func Example() {
	ctx := context.Background()
	d, err := dataset.Embedded("two_moons")
	if err != nil {
		panic(err)
	}
	labeled, err := ssl.PerClass(d.Y, 5, 0)
	if err != nil {
		panic(err)
	}
	semi := d.WithLabeled(labeled)
	specs, err := kernel.ParseSpecs("hckg:average")
	if err != nil {
		panic(err)
	}
	built, err := kernel.BuildAll(ctx, d.X, specs, kernel.BuildOptions{})
	if err != nil {
		panic(err)
	}
	m, err := ssl.Fit(ctx, learner.Adapt("svm", svm.Classifier{AllowSingleton: true}), ssl.Problem{X: d.X, K: built[0].K, Y: semi.Y})
	if err != nil {
		panic(err)
	}
	acc, _ := metrics.Accuracy(d.Y, m.Transduction())
	fmt.Printf("%d labels, accuracy on all 400 rows %.3f\n", len(labeled), acc)

	pts := mat.NewDense(2, 2, []float64{-1, 0.1, 2, 0.4}) // the tips of the two moons
	Kt, _, err := built[0].Extend(ctx, d.X, pts, "")
	if err != nil {
		panic(err)
	}
	pred, err := m.Predict(ctx, nil, Kt)
	if err != nil {
		panic(err)
	}
	fmt.Println("new points:", pred)
	// Output:
	// 10 labels, accuracy on all 400 rows 1.000
	// new points: [0 1]
}
