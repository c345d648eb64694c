package svm_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// From a data file to predictions on new points, as scikit-learn's
// make_pipeline(StandardScaler(), SVC()).fit(X, y).predict(X_new): read the
// file (here the embedded iris; dataset.Load("iris.csv", ...) for a file),
// scale, fit on the points with a kernel, predict new points scaled the
// same way. The zero value of C is LIBSVM's default, 1.
func ExampleClassifier_Fit() {
	ctx := context.Background()
	d, err := dataset.Embedded("iris")
	if err != nil {
		panic(err)
	}
	scaler, err := dataset.FitScaler(d.X, "std")
	if err != nil {
		panic(err)
	}
	X, _ := scaler.Transform(nil, d.X)
	m, err := svm.Classifier{Kernel: kernel.RBF{Gamma: 0.25}}.Fit(ctx, X, d.Y)
	if err != nil {
		panic(err)
	}
	flowers := mat.NewDense(3, 4, []float64{
		5.0, 3.4, 1.5, 0.2,
		6.0, 2.8, 4.5, 1.4,
		7.0, 3.1, 6.0, 2.2,
	})
	scaler.Transform(flowers, flowers)
	pred, err := m.PredictPoints(ctx, nil, flowers)
	if err != nil {
		panic(err)
	}
	for i, c := range pred {
		fmt.Printf("flower %d: class %s\n", i+1, d.Classes[c])
	}
	// Output:
	// flower 1: class 0
	// flower 2: class 1
	// flower 3: class 2
}
