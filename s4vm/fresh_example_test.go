package s4vm_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// From a data set with a few labels to predictions on new points: keep 5
// labels per moon, scale to [0, 1], fit S4VM on the linear Gram matrix of
// all rows, then label new points from their kernel rows against the
// training rows, scaled the same way.
func Example_newPoints() {
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
	scaler, err := dataset.FitScaler(d.X, "minmax")
	if err != nil {
		panic(err)
	}
	X, _ := scaler.Transform(nil, d.X)
	K, err := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	if err != nil {
		panic(err)
	}
	m, err := s4vm.S4VM{Samples: 20, Seed: 1}.FitGram(ctx, K, semi.Y)
	if err != nil {
		panic(err)
	}
	pts := mat.NewDense(2, 2, []float64{-1, 0.6, 2, -0.2}) // far left of the upper moon, far right of the lower
	scaler.Transform(pts, pts)
	Kt, err := kernel.Cross(ctx, nil, kernel.Linear{}, pts, X)
	if err != nil {
		panic(err)
	}
	pred, err := m.Predict(ctx, make([]int, 2), Kt)
	if err != nil {
		panic(err)
	}
	fmt.Println("new points:", pred)
	// Output:
	// new points: [0 1]
}
