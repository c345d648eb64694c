package hibust

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

func benchProblem(b testing.TB, name string) (*mat.SymDense, []int) {
	ds, err := dataset.Embedded(name)
	if err != nil {
		b.Fatal(err)
	}
	l, _ := ssl.PerClass(ds.Y, 10, 0)
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = Unlabeled
	}
	for _, i := range l {
		y[i] = ds.Y[i]
	}
	K, err := kernel.Gram(context.Background(), nil, kernel.Linear{}, dataset.MinMax(ds.X))
	if err != nil {
		b.Fatal(err)
	}
	return K, y
}

// BenchmarkMCCK: 10 restarts of MCCK on the linear Gram matrix.
func BenchmarkMCCK(b *testing.B) {
	for _, name := range []string{"iris", "gauss9", "usps"} {
		K, y := benchProblem(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (MCCK{Seed: 1}).Cluster(context.Background(), K, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFit: the whole of HiBUST with S4VMs at the nodes.
func BenchmarkFit(b *testing.B) {
	for _, name := range []string{"iris", "wine", "usps"} {
		K, y := benchProblem(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (Classifier{Seed: 1}).FitGram(context.Background(), K, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
