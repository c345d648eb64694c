package kernel_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Benchmarks use uniform data in [0,1)^d with d = 10 and a fixed seed, the
// setting of peers.py timing and testdata/peer_time.py, which runs the
// numpy/scikit-learn equivalents and these benchmarks side by side.

func benchData(n, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(0, 1))
	X := mat.NewDense(n, d, nil)
	for i := range X.RawMatrix().Data {
		X.RawMatrix().Data[i] = rng.Float64()
	}
	return X
}

func benchSizes(b *testing.B, sizes []int, f func(b *testing.B, n int)) {
	for _, n := range sizes {
		if testing.Short() && n > 2000 {
			continue
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { f(b, n) })
	}
}

func BenchmarkGram(b *testing.B) {
	ks := []struct {
		name string
		k    kernel.Kernel
	}{
		{"linear", kernel.Linear{}},
		{"poly", kernel.Poly{A: 0.1, B: 1, Degree: 3}},
		{"rbf", kernel.RBF{Gamma: 0.5}},
		{"laplacian", kernel.Laplacian{Gamma: 0.5}},
	}
	for _, k := range ks {
		b.Run("kernel="+k.name, func(b *testing.B) {
			benchSizes(b, []int{2000, 8000}, func(b *testing.B, n int) {
				X := benchData(n, 10)
				dst := mat.NewSymDense(n, nil)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := kernel.Gram(context.Background(), dst, k.k, X); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func BenchmarkCross(b *testing.B) {
	benchSizes(b, []int{2000}, func(b *testing.B, n int) {
		X := benchData(n, 10)
		dst := mat.NewDense(n, n, nil)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := kernel.Cross(context.Background(), dst, kernel.RBF{Gamma: 0.5}, X, X); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// randSym returns a symmetric n×n matrix with entries in [0, 2).
func randSym(n int) *mat.SymDense {
	rng := rand.New(rand.NewPCG(0, 2))
	M := mat.NewSymDense(n, nil)
	raw := M.RawSymmetric()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			raw.Data[i*raw.Stride+j] = 2 * rng.Float64()
		}
	}
	return M
}

func BenchmarkCenter(b *testing.B) {
	benchSizes(b, []int{2000, 8000}, func(b *testing.B, n int) {
		M := randSym(n)
		dst := mat.NewSymDense(n, nil)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			kernel.Center(dst, M)
		}
	})
}

func BenchmarkInducedDistance(b *testing.B) {
	benchSizes(b, []int{2000}, func(b *testing.B, n int) {
		K, _ := kernel.Gram(context.Background(), nil, kernel.RBF{Gamma: 0.5}, benchData(n, 10))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			kernel.InducedDistance(K)
		}
	})
}

func BenchmarkClipPSD(b *testing.B) {
	ctx := context.Background()
	benchSizes(b, []int{500, 1500}, func(b *testing.B, n int) {
		K := kernel.Center(nil, randSym(n))
		dst := mat.NewSymDense(n, nil)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, _, err := kernel.ClipPSD(ctx, dst, K); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkPseudoInverse(b *testing.B) {
	ctx := context.Background()
	benchSizes(b, []int{500}, func(b *testing.B, n int) {
		K := kernel.Center(nil, randSym(n))
		dst := mat.NewSymDense(n, nil)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, _, err := kernel.PseudoInverse(ctx, dst, K, 1e-10); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEmbed(b *testing.B) {
	ctx := context.Background()
	benchSizes(b, []int{500, 1500}, func(b *testing.B, n int) {
		K := kernel.Center(nil, randSym(n))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := kernel.Embed(ctx, K, 2); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkExtend(b *testing.B) {
	benchSizes(b, []int{2000}, func(b *testing.B, n int) {
		X := benchData(n, 10)
		K, _ := kernel.Gram(context.Background(), nil, kernel.RBF{Gamma: 0.5}, X)
		Xt := benchData(500, 10)
		b.Run("stage=fit", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := kernel.Extend(context.Background(), X, K, kernel.ExtendOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		e, _ := kernel.Extend(context.Background(), X, K, kernel.ExtendOptions{})
		b.Run("stage=rows/t=500", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := e.Rows(context.Background(), Xt); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkCopheneticCenter times the cophenetic (ultrametric) matrix of an
// average-linkage tree plus double centring, the "cophenetic +
// centering" step (peer: scipy cophenet + squareform + numpy double_center).
func BenchmarkCopheneticCenter(b *testing.B) {
	benchSizes(b, []int{2000, 8000}, func(b *testing.B, n int) {
		tree, err := hclust.FromPoints(context.Background(), benchData(n, 10), hclust.Average)
		if err != nil {
			b.Fatal(err)
		}
		dst := mat.NewSymDense(n, nil)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			kernel.Center(dst, tree.Ultrametric(dst))
		}
	})
}

// BenchmarkHCK times the whole cluster kernel (Euclidean distances,
// linkage, ultrametric, centring). Peer: peers.py build_kernels' hck_*:
// double_center(squareform(cophenet(linkage(pdist(X), m)))).
func BenchmarkHCK(b *testing.B) {
	for _, m := range []hclust.Method{hclust.Single, hclust.Average} {
		b.Run("method="+m.String(), func(b *testing.B) {
			benchSizes(b, []int{2000}, func(b *testing.B, n int) {
				X := benchData(n, 10)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, _, err := (kernel.HCK{Method: m}).Gram(context.Background(), X); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkISOMAP times geodesics + centring + PSD clipping (O(N³)); 1500
// is the size of the paper's USPS set.
func BenchmarkISOMAP(b *testing.B) {
	benchSizes(b, []int{500, 1500}, func(b *testing.B, n int) {
		X := benchData(n, 10)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, _, err := (kernel.ISOMAP{}).Gram(context.Background(), X); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBuildAll times the paper's Euclidean and graph cluster kernels
// (three linkages each) sharing one pdist and one geodesic matrix.
func BenchmarkBuildAll(b *testing.B) {
	benchSizes(b, []int{2000}, func(b *testing.B, n int) {
		X := benchData(n, 10)
		specs, err := kernel.ParseSpecs("hck:single,hck:complete,hck:average,hckg:single,hckg:complete,hckg:average")
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := kernel.BuildAll(context.Background(), X, specs, kernel.BuildOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGramUSPS: the paper's data shape, N = 1500, d = 241 (uniform
// data of that shape; timings do not depend on the values).
func BenchmarkGramUSPS(b *testing.B) {
	X := benchData(1500, 241)
	dst := mat.NewSymDense(1500, nil)
	for _, k := range []struct {
		name string
		k    kernel.Kernel
	}{{"linear", kernel.Linear{}}, {"rbf", kernel.RBF{Gamma: 1e-3}}} {
		b.Run("kernel="+k.name+"/n=1500/d=241", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := kernel.Gram(context.Background(), dst, k.k, X); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
