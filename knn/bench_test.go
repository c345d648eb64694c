package knn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkPredictGram: transductive kNN (k=5, uniform) of the unlabelled rows
// of an n×n RBF Gram matrix with n/10 labelled points.
func BenchmarkPredictGram(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(1, 2))
			X := mat.NewDense(n, 10, nil)
			y := make([]int, n)
			for i := 0; i < n; i++ {
				for j := 0; j < 10; j++ {
					X.Set(i, j, rng.Float64())
				}
				y[i] = dataset.Unlabeled
				if i%10 == 0 {
					y[i] = int(2 * X.At(i, 0))
				}
			}
			K, _ := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 0.1}, X)
			var U []int
			for i, v := range y {
				if v == dataset.Unlabeled {
					U = append(U, i)
				}
			}
			dst := make([]int, len(U))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m, err := Classifier{K: 5}.FitGram(ctx, K, y)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.PredictRows(ctx, dst, U); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredict: inductive kNN (k=5, distance weights, RBF kernel) of n
// new points against n/10 labelled points in 10 dimensions.
func BenchmarkPredict(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(3, 4))
			l := n / 10
			X := mat.NewDense(l, 10, nil)
			Q := mat.NewDense(n, 10, nil)
			y := make([]int, l)
			for i := 0; i < l; i++ {
				for j := 0; j < 10; j++ {
					X.Set(i, j, rng.Float64())
				}
				y[i] = int(2 * X.At(i, 0))
			}
			for i := 0; i < n; i++ {
				for j := 0; j < 10; j++ {
					Q.Set(i, j, rng.Float64())
				}
			}
			m, err := Classifier{K: 5, Weights: Distance, Kernel: kernel.RBF{Gamma: 0.1}}.Fit(ctx, X, y)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]int, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := m.PredictPoints(ctx, dst, Q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
