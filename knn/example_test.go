package knn_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/metrics"
)

// Transductive kNN on iris with 5 labelled points per class: a Gram matrix
// over all 150 points, the unlabelled rows classified by their 3 nearest
// labelled points in the RBF-induced distance (peers.kernel_knn: 0.9111).
func Example() {
	ctx := context.Background()
	d, err := dataset.Embedded("iris")
	if err != nil {
		panic(err)
	}
	var labeled []int
	for c := 0; c < 3; c++ {
		for i := 0; i < 5; i++ {
			labeled = append(labeled, 50*c+10*i)
		}
	}
	semi := d.WithLabeled(labeled)
	K, err := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 0.5}, d.X)
	if err != nil {
		panic(err)
	}
	m, err := knn.Classifier{K: 3}.FitGram(ctx, K, semi.Y)
	if err != nil {
		panic(err)
	}
	U := semi.UnlabeledRows()
	pred, err := m.PredictRows(ctx, nil, U)
	if err != nil {
		panic(err)
	}
	truth := make([]int, len(U))
	for i, r := range U {
		truth[i] = d.Y[r]
	}
	acc, _ := metrics.Accuracy(truth, pred)
	fmt.Printf("%d unlabelled rows, accuracy %.4f\n", len(U), acc)
	// Output:
	// 135 unlabelled rows, accuracy 0.9111
}
