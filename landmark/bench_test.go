package landmark

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
)

func BenchmarkNystromFeatures(b *testing.B) {
	X := randPoints(20000, 10, 3)
	ctx := context.Background()
	lm, err := Choose(ctx, X, 300, KMeans, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		fit  func() (*Nystrom, error)
	}{
		{"rbf", func() (*Nystrom, error) { return newNystrom(ctx, X, kernel.RBF{Gamma: 0.1}, lm, 0) }},
		{"hck-average", func() (*Nystrom, error) { return newNystromHCK(ctx, X, kernel.HCK{Method: hclust.Average}, lm, 0) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ny, err := c.fit()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ny.Features(ctx, X); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
