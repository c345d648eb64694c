package hclust

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// benchPoints returns n uniform points in [0,1)^dim from a fixed seed.
func benchPoints(n, dim int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, dim, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			x.Set(i, j, r.Float64())
		}
	}
	return x
}

func pdist(x *mat.Dense) distance.Condensed {
	n, _ := x.Dims()
	d := distance.NewCondensed(n)
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d.Data[k] = distance.Dist(x.RawRowView(i), x.RawRowView(j))
			k++
		}
	}
	return d
}

func BenchmarkLinkage(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		d := pdist(benchPoints(n, 10, 0))
		for _, m := range []Method{Single, Complete, Average, Weighted, Ward} {
			b.Run(fmt.Sprintf("method=%v/n=%d", m, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Linkage(context.Background(), d, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkFromPoints(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		x := benchPoints(n, 10, 0)
		for _, m := range []Method{Single, Average} {
			b.Run(fmt.Sprintf("method=%v/n=%d", m, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := FromPoints(context.Background(), x, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkLinkageGeneric(b *testing.B) {
	n := 2000
	d := pdist(benchPoints(n, 10, 0))
	for _, m := range []Method{Centroid, Median} {
		b.Run(fmt.Sprintf("method=%v/n=%d", m, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Linkage(context.Background(), d, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUltrametric(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		t, err := Linkage(context.Background(), pdist(benchPoints(n, 10, 0)), Average)
		if err != nil {
			b.Fatal(err)
		}
		dst := mat.NewSymDense(n, nil)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t.Ultrametric(dst)
			}
		})
		b.Run(fmt.Sprintf("alloc/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t.Ultrametric(nil)
			}
		})
		b.Run(fmt.Sprintf("cophenetic/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t.Cophenetic()
			}
		})
	}
}
