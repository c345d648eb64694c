package graph_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/graph"
	"gonum.org/v1/gonum/mat"
)

// Two groups of points on a line, 10 apart: the 1-NN graph has two
// components, joined by Eq. 4 with length g_max + d_min/d_max.
func ExampleGeodesic() {
	X := mat.NewDense(5, 1, []float64{0, 1, 3, 13, 14})
	spec, _ := graph.ParseSpec("knn:1")
	res, err := graph.Geodesic(context.Background(), X, spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("components:", res.Components, "joins:", res.Joins)
	fmt.Printf("join edge %d-%d, length %.4f = g_max 3 + 10/14\n", res.JoinEdges[0].I, res.JoinEdges[0].J, res.JoinEdges[0].W)
	fmt.Printf("G(0,4) = %.4f\n", res.G.At(0, 4))
	// Output:
	// components: 2 joins: 1
	// join edge 2-3, length 3.7143 = g_max 3 + 10/14
	// G(0,4) = 7.7143
}

// Geodesic distances on the embedded two-moons set with the paper's
// 7-nearest-neighbour graph (the same numbers as peers.knn_geodesic).
func ExampleGeodesics_Compute() {
	d, err := dataset.Embedded("two_moons")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := graph.Geodesics{Spec: graph.Spec{Kind: graph.KindKNN, K: 7}}.Compute(context.Background(), d.X)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := res.G.Dims()
	fmt.Println("points:", n, "edges:", res.Graph.Edges(), "joins:", res.Joins)
	fmt.Printf("largest geodesic: %.6f\n", mat.Max(res.G))
	// Output:
	// points: 400 edges: 1729 joins: 0
	// largest geodesic: 5.062792
}
