package knn_test

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
)

// TestFloat32TieQuantum: on a float32 kernel (kernel.Sym32) the tie
// quantum is 2⁻²⁰ of the largest d² instead of 1e-9, since the entries are
// rounded to 2⁻²⁴: the connectivity kernel's induced distances are its
// ultrametric, full of exact ties that float32 rounding would otherwise
// order by rounding noise. kNN on the rounded matrix then labels every
// row as on the float64 one (two moons, 200 rows, 4 labels per class,
// k = 1, 3, 5).
func TestFloat32TieQuantum(t *testing.T) {
	ctx := context.Background()
	ds := dataset.Moons(200, 0.1, 3)
	K, _, err := kernel.Connectivity{}.Gram(ctx, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	K32 := kernel.Sym32Of(K)
	y := make([]int, ds.Len())
	seen := map[int]int{}
	for i := range y {
		y[i] = learner.Unlabeled
		if seen[ds.Y[i]] < 4 {
			seen[ds.Y[i]]++
			y[i] = ds.Y[i]
		}
	}
	for _, k := range []int{1, 3, 5} {
		m64, err := knn.Classifier{K: k}.FitGram(ctx, K, y)
		if err != nil {
			t.Fatal(err)
		}
		m32, err := knn.Classifier{K: k}.FitGram(ctx, K32, y)
		if err != nil {
			t.Fatal(err)
		}
		a, b := m64.Transduction(), m32.Transduction()
		diff := 0
		for i := range a {
			if a[i] != b[i] {
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("k = %d: %d rows labelled otherwise on the float32 kernel", k, diff)
		}
	}
}
