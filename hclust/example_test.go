package hclust_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

func Example() {
	// two groups on a line: {0, 1, 3} and {10, 11}; the values printed
	// equal scipy.cluster.hierarchy.linkage(X, "average")
	X := mat.NewDense(5, 1, []float64{0, 1, 3, 10, 11})
	t, err := hclust.FromPoints(context.Background(), X, hclust.Average)
	if err != nil {
		panic(err)
	}
	for _, m := range t.Merges { // SciPy's linkage matrix rows
		fmt.Printf("%d %d %.4g %d\n", m.A, m.B, m.Height, m.Size)
	}
	labels, _ := t.CutK(2)
	fmt.Println("k=2:", labels)
	fmt.Println("h=1.5:", t.CutHeight(1.5))
	fmt.Println("leaves:", t.Leaves())
	fmt.Println(t.Newick([]string{"a", "b", "c", "d", "e"}))
	M := t.Ultrametric(nil)
	fmt.Println("M[0,4] =", M.At(0, 4))
	// Output:
	// 0 1 1 2
	// 3 4 1 2
	// 2 5 2.5 3
	// 6 7 9.167 5
	// k=2: [0 0 0 1 1]
	// h=1.5: [0 0 1 2 2]
	// leaves: [3 4 2 0 1]
	// ((d:1,e:1):8.166666666666666,(c:2.5,(a:1,b:1):1.5):6.666666666666666);
	// M[0,4] = 9.166666666666666
}

func ExampleLinkage() {
	// a condensed distance matrix in SciPy's pdist layout: d(0,1), d(0,2), d(1,2)
	d := distance.Condensed{N: 3, Data: []float64{2, 6, 5}}
	t, err := hclust.Linkage(context.Background(), d, hclust.Complete)
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Merges)
	fmt.Println(t.Cophenetic().Data)
	// Output:
	// [{0 1 2 2} {2 3 6 3}]
	// [2 6 6]
}

func ExampleFromPointsLowMemory() {
	// Ward linkage from the points' centroids, without an n×n matrix; the
	// values printed equal scipy.cluster.hierarchy.ward(X)
	X := mat.NewDense(5, 1, []float64{0, 1, 3, 10, 11})
	t, err := hclust.FromPointsLowMemory(context.Background(), X, hclust.Ward, nil)
	if err != nil {
		panic(err)
	}
	for _, m := range t.Merges {
		fmt.Printf("%d %d %.4g %d\n", m.A, m.B, m.Height, m.Size)
	}
	// Output:
	// 0 1 1 2
	// 3 4 1 2
	// 2 5 2.887 3
	// 6 7 14.2 5
}
