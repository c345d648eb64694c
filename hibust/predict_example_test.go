package hibust_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// HiBUST labels new points too: each internal node of the fitted tree
// keeps a C-SVC trained on the node's final transductive labels, and a new
// point is routed from the root to a leaf. Here the model is fitted on 100
// iris flowers (10 labelled per class among them) and labels the other 50
// from their linear-kernel rows against the 100 training flowers.
func ExampleModel_Predict() {
	ctx := context.Background()
	ds, _ := dataset.Embedded("iris")
	X := dataset.MinMax(ds.X)
	train, test := make([]int, 0, 100), make([]int, 0, 50)
	for i := range ds.Len() {
		if i%3 == 2 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	Xtr, Xte := rows(X, train), rows(X, test)
	ytr := make([]int, len(train))
	for i := range ytr {
		ytr[i] = hibust.Unlabeled
	}
	trainY := make([]int, len(train))
	for i, r := range train {
		trainY[i] = ds.Y[r]
	}
	labelled, _ := ssl.PerClass(trainY, 10, 0)
	for _, i := range labelled {
		ytr[i] = trainY[i]
	}
	m, err := hibust.Classifier{Seed: 0}.Fit(ctx, Xtr, ytr)
	if err != nil {
		fmt.Println(err)
		return
	}
	var Kt mat.Dense
	Kt.Mul(Xte, Xtr.T()) // linear kernel rows of the new points
	pred, err := m.Predict(ctx, nil, &Kt)
	if err != nil {
		fmt.Println(err)
		return
	}
	correct := 0
	for i, r := range test {
		if pred[i] == ds.Y[r] {
			correct++
		}
	}
	fmt.Printf("%d of %d new flowers labelled correctly\n", correct, len(test))
	// Output:
	// 45 of 50 new flowers labelled correctly
}

func rows(X *mat.Dense, idx []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for a, i := range idx {
		out.SetRow(a, X.RawRowView(i))
	}
	return out
}
