// Command kernels tries kernel-side variants of the ISOMAP kernel for paper
// 002 Table 1 (USPS/100, first split, symmetrised 5-NN graph): squared or
// plain geodesics, with and without clipping the negative eigenvalues,
// uniform or distance-weighted kNN, and the kernel truncated to its top r
// eigenpairs (r = 2..200); accuracy for k_kNN = 1..8.
//
//	go run ./bench/isomapvariants/kernels
package main

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"gonum.org/v1/gonum/mat"
)

func main() {
	ctx := context.Background()
	d, _ := dataset.Embedded("usps")
	sp, _ := dataset.EmbeddedSplits("usps", 100)
	n := d.Len()
	y := make([]int, n)
	for i := range y {
		y[i] = -1
	}
	for _, r := range sp[0] {
		y[r] = d.Y[r]
	}
	var u []int
	for i := range y {
		if y[i] < 0 {
			u = append(u, i)
		}
	}
	acc := func(K mat.Symmetric, w string) string {
		s := ""
		for kk := 1; kk <= 8; kk++ {
			m, err := knn.Classifier{K: kk, Weights: w}.FitGram(ctx, K, y)
			if err != nil {
				return err.Error()
			}
			p, err := m.PredictRows(ctx, nil, u)
			if err != nil {
				return err.Error()
			}
			c := 0
			for a, r := range u {
				if p[a] == d.Y[r] {
					c++
				}
			}
			s += fmt.Sprintf(" %6.2f", 100*float64(c)/float64(len(u)))
		}
		return s
	}
	for _, gk := range []int{5} {
		geo, _ := graph.Geodesic(ctx, d.X, graph.Spec{Kind: graph.KindKNN, K: gk})
		for _, sq := range []bool{true, false} {
			var K0 *mat.SymDense
			if sq {
				K0 = kernel.CenterSquared(nil, geo.G)
			} else {
				K0 = kernel.Center(nil, geo.G)
			}
			fmt.Printf("k=%d sq=%v raw (no clip) uniform %s\n", gk, sq, acc(K0, ""))
			K, _, _ := kernel.ClipPSD(ctx, nil, K0)
			for _, w := range []string{"", "distance"} {
				fmt.Printf("k=%d sq=%v clip %-9s %s\n", gk, sq, w, acc(K, w))
			}
			for _, r := range []int{2, 3, 5, 10, 20, 50, 100, 200} {
				Z, err := kernel.Embed(ctx, K, r)
				if err != nil {
					fmt.Println(err)
					continue
				}
				var KR mat.SymDense
				KR.SymOuterK(1, Z)
				fmt.Printf("k=%d sq=%v rank %-4d  %s\n", gk, sq, r, acc(&KR, ""))
			}
		}
	}
}
