package treelets

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
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

// BenchmarkFull: the command line's path on every point: the RBF kernel
// into one huge-page buffer, then treelets in it as scratch (compacted).
func BenchmarkFull(b *testing.B) {
	for _, n := range []int{1500, 4000} {
		X, _ := blobs(n/3, 3)
		g := kernel.Points{K: kernel.RBF{Gamma: 1}, X: X}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := (Sample{}).Fit(context.Background(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSample: kernel treelets on a sample of 500 of 3000 points (RBF)
// with the SVM and kNN extensions.
func BenchmarkSample(b *testing.B) {
	X, _ := blobs(1000, 3)
	g := kernel.Points{K: kernel.RBF{Gamma: 0.5}, X: X}
	for _, ext := range []Extension{ExtendSVM, ExtendKNN} {
		b.Run(ext.String(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := (Sample{M: 500, Seed: 1, Clusters: 3, Extend: ext}).Fit(context.Background(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
