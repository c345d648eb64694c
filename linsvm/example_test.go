package linsvm_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/linsvm"
)

// A linear SVM on the embedded iris set (three classes, one-versus-rest),
// trained on every fifth row and applied to all rows. On these unscaled
// features the dual does not meet Tol in 1000 passes, as scikit-learn's
// LinearSVC(C=1) on the same rows warns ("Liblinear failed to converge")
// and gets the same 143 of 150.
func Example() {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		panic(err)
	}
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = linsvm.Unlabeled
		if i%5 == 0 {
			y[i] = ds.Y[i]
		}
	}
	m, err := linsvm.Classifier{C: 1, Seed: 1}.Fit(context.Background(), ds.X, y)
	if err != nil {
		panic(err)
	}
	pred, err := m.Predict(context.Background(), nil, ds.X)
	if err != nil {
		panic(err)
	}
	correct := 0
	for i, c := range pred {
		if c == ds.Y[i] {
			correct++
		}
	}
	fmt.Printf("%d classes, converged %v, %d of %d right\n", len(m.Classes()), m.Converged, correct, ds.Len())
	// Output:
	// 3 classes, converged false, 143 of 150 right
}
