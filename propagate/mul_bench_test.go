package propagate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMul times the dense row product W·x with C columns (the step of
// every dense solver).
func BenchmarkMul(b *testing.B) {
	n := 5000
	rng := rand.New(rand.NewPCG(1, 1))
	W := make([]float64, n*n)
	for i := range W {
		W[i] = rng.Float64()
	}
	g := &graph{n: n, dense: W, sym: true}
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	for _, C := range []int{1, 2} {
		x := make([]float64, n*C)
		for i := range x {
			x[i] = rng.Float64()
		}
		y := make([]float64, n*C)
		b.Run(fmt.Sprintf("rows/C=%d", C), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				g.mul(context.Background(), y, x, C, all)
			}
		})
	}
}
