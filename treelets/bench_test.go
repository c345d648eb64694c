package treelets

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkFit: full kernel treelets on an RBF kernel over n points in
// three blobs (fixed seed), one n×n buffer (FitInPlace on a fresh copy).
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{1500, 4000} {
		K := randomRBF(rand.New(rand.NewPCG(7, 8)), n, 1)
		work := mat.NewSymDense(n, nil)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				work.CopySym(K)
				b.StartTimer()
				if _, err := (Settings{}).FitInPlace(context.Background(), work); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
