package kernel_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// The hierarchical cluster kernel on the embedded two moons: points of the
// same moon are more similar than points of different moons.
func ExampleHCK() {
	d, err := dataset.Embedded("two_moons")
	if err != nil {
		panic(err)
	}
	g := kernel.DefaultGraph() // symmetrised 7-NN graph
	K, info, err := kernel.HCK{Method: hclust.Average, Graph: &g}.Gram(context.Background(), d.X)
	if err != nil {
		panic(err)
	}
	same, diff := 0.0, 0.0
	var ns, nd int
	for i := 0; i < d.Len(); i++ {
		for j := 0; j < i; j++ {
			if d.Y[i] == d.Y[j] {
				same += K.At(i, j)
				ns++
			} else {
				diff += K.At(i, j)
				nd++
			}
		}
	}
	fmt.Printf("N=%d joins=%d merges=%d\n", K.SymmetricDim(), info.Joins, len(info.Tree.Merges))
	fmt.Printf("mean K same moon > other moon: %v\n", same/float64(ns) > diff/float64(nd))
	// Output:
	// N=400 joins=0 merges=399
	// mean K same moon > other moon: true
}

// Double centring of a small ultrametric (paper 000 §3.4, Theorem 4).
func ExampleCenter() {
	// Leaves {0,1} merge at height 1, {2} joins them at 3.
	M := mat.NewSymDense(3, []float64{
		0, 1, 3,
		1, 0, 3,
		3, 3, 0,
	})
	K := kernel.Center(nil, M)
	fmt.Printf("%.4f\n", mat.Formatted(K))
	// Output:
	// ⎡ 0.5556   0.0556  -0.6111⎤
	// ⎢ 0.0556   0.5556  -0.6111⎥
	// ⎣-0.6111  -0.6111   1.2222⎦
}

// Parse a kernel list as the CLI does and build all of them at once (values
// checked against peers.py: 1.1472/-1.1528, 0.3550/-0.3550, 0.7088/-0.7982).
func ExampleBuildAll() {
	X := mat.NewDense(6, 1, []float64{0, 0.1, 0.3, 5, 5.2, 5.3})
	specs, err := kernel.ParseSpecs("linear,rbf:0.5,hck:single,hckg:average:knn:2,isomap:knn:2")
	if err != nil {
		panic(err)
	}
	built, err := kernel.BuildAll(context.Background(), X, specs, kernel.BuildOptions{})
	if err != nil {
		panic(err)
	}
	for _, b := range built {
		fmt.Printf("%-22s K[0,1]=%7.4f K[0,5]=%8.4f joins=%d\n", b.Spec, b.K.At(0, 1), b.K.At(0, 5), b.Info.Joins)
	}
	// Output:
	// linear                 K[0,1]= 0.0000 K[0,5]=  0.0000 joins=0
	// rbf:0.5                K[0,1]= 0.9950 K[0,5]=  0.0000 joins=0
	// hck:single             K[0,1]= 1.1472 K[0,5]= -1.1528 joins=0
	// hckg:average:knn:2     K[0,1]= 0.3550 K[0,5]= -0.3550 joins=1
	// isomap:knn:2           K[0,1]= 0.7088 K[0,5]= -0.7982 joins=1
}
