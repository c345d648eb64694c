package knn

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
)

// TestUSPS1NN reproduces paper 002 Table 1, first row: 1-NN with the linear
// kernel on USPS/100 (first official split, no scaling) is 94.00% accurate on
// the 1400 unlabelled rows (shared/data/README.md; peers.py gives the same).
func TestUSPS1NN(t *testing.T) {
	if testing.Short() {
		t.Skip("USPS Gram matrix")
	}
	ctx := context.Background()
	d, err := dataset.Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	splits, err := dataset.EmbeddedSplits("usps", 100)
	if err != nil {
		t.Fatal(err)
	}
	semi := d.WithLabeled(splits[0])
	K, err := kernel.Gram(ctx, nil, kernel.Linear{}, d.X)
	if err != nil {
		t.Fatal(err)
	}
	U := semi.UnlabeledRows()
	m, err := Classifier{K: 1}.FitGram(ctx, K, semi.Y)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.PredictRows(ctx, nil, U)
	if err != nil {
		t.Fatal(err)
	}
	truth := make([]int, len(U))
	for i, r := range U {
		truth[i] = d.Y[r]
	}
	acc, err := metrics.Accuracy(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	if len(U) != 1400 || acc != 1316.0/1400 {
		t.Errorf("1-NN linear on USPS/100: %d rows, accuracy %.4f, want 1400 rows and 0.9400", len(U), acc)
	}
}
