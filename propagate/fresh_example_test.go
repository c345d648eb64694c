package propagate_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// From a data file with a few labels to predictions on new points, as
// scikit-learn's LabelPropagation(gamma=20).fit(X, y).predict(X_new): read
// the file (here the embedded two moons; dataset.Load for a file), keep 5
// labels per moon, scale, propagate, and label new points by their
// affinities to the fitted rows (Model.Predict, scikit-learn's rule).
func ExamplePropagation_Fit() {
	ctx := context.Background()
	d, err := dataset.Embedded("two_moons")
	if err != nil {
		panic(err)
	}
	labeled, err := ssl.PerClass(d.Y, 5, 0)
	if err != nil {
		panic(err)
	}
	semi := d.WithLabeled(labeled) // the other 390 rows are unlabelled
	scaler, err := dataset.FitScaler(semi.X, "std")
	if err != nil {
		panic(err)
	}
	X, _ := scaler.Transform(nil, semi.X)
	const gamma = 20
	m, err := propagate.Propagation{Affinity: propagate.Affinity{Kind: propagate.RBF, Gamma: gamma}}.Fit(ctx, X, semi.Y)
	if err != nil {
		panic(err)
	}
	// New points: the tip of the upper moon and the tip of the lower one.
	pts := mat.NewDense(2, 2, []float64{-1, 0.1, 2, 0.4})
	scaler.Transform(pts, pts)
	W, err := kernel.Cross(ctx, nil, kernel.RBF{Gamma: gamma}, pts, X) // affinities, new × fitted
	if err != nil {
		panic(err)
	}
	pred, err := m.Predict(ctx, nil, W)
	if err != nil {
		panic(err)
	}
	fmt.Println("new points:", pred)
	// Output:
	// new points: [0 1]
}
