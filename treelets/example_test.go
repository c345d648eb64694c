package treelets_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/treelets"
	"gonum.org/v1/gonum/mat"
)

// Classic treelets on a covariance matrix of four variables: two
// correlated pairs. The first two levels merge each pair (the sum
// variable keeps the smaller index when the variances are equal); the
// last level joins the pairs.
func Example() {
	C := mat.NewSymDense(4, []float64{
		1.0, 0.9, 0.2, 0.0,
		0.9, 1.0, 0.0, 0.1,
		0.2, 0.0, 1.0, -0.8,
		0.0, 0.1, -0.8, 1.0,
	})
	m, err := treelets.Settings{}.Fit(context.Background(), C)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, l := range m.Levels {
		fmt.Printf("level %d: sum %d, diff %d, similarity %.3f\n", i+1, l.Sum, l.Diff, l.Similarity)
	}
	lab, _ := m.CutK(2)
	fmt.Println("2 clusters:", lab)
	for _, mg := range m.Tree().Merges {
		fmt.Printf("linkage row: %d %d %.3f %d\n", mg.A, mg.B, mg.Height, mg.Size)
	}
	// Output:
	// level 1: sum 0, diff 1, similarity 0.900
	// level 2: sum 2, diff 3, similarity 0.800
	// level 3: sum 0, diff 2, similarity 0.027
	// 2 clusters: [0 0 1 1]
	// linkage row: 0 1 0.100 2
	// linkage row: 2 3 0.200 2
	// linkage row: 4 5 0.973 4
}
