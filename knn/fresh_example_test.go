package knn_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/knn"
	"gonum.org/v1/gonum/mat"
)

// From a data file to predictions on new points, as scikit-learn's
// KNeighborsClassifier(5).fit(X, y).predict(X_new): read the file (here the
// embedded wine; dataset.Load for a file), scale, fit on the points
// (Euclidean kNN: the nil kernel), predict new points scaled the same way.
func ExampleClassifier_Fit() {
	ctx := context.Background()
	d, err := dataset.Embedded("wine")
	if err != nil {
		panic(err)
	}
	scaler, err := dataset.FitScaler(d.X, "std")
	if err != nil {
		panic(err)
	}
	X, _ := scaler.Transform(nil, d.X)
	m, err := knn.Classifier{K: 5}.Fit(ctx, X, d.Y)
	if err != nil {
		panic(err)
	}
	// Two new wines: the first and last rows of the file, slightly changed.
	wines := mat.NewDense(2, d.Dim(), nil)
	wines.SetRow(0, d.X.RawRowView(0))
	wines.SetRow(1, d.X.RawRowView(d.Len()-1))
	wines.Set(0, 0, wines.At(0, 0)+0.2)
	wines.Set(1, 0, wines.At(1, 0)-0.2)
	scaler.Transform(wines, wines)
	pred, err := m.PredictPoints(ctx, nil, wines)
	if err != nil {
		panic(err)
	}
	fmt.Println("classes:", d.Classes[pred[0]], d.Classes[pred[1]])
	// Output:
	// classes: 0 2
}
