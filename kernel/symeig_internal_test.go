package kernel

import (
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSymEigMatchesGonum: symEig performs gonum's dsyev operations in the
// same order, so eigenvalues and eigenvectors equal mat.EigenSym's bit for
// bit, for GOMAXPROCS 1 and 2 (n = 300 takes the parallel rotation path).
func TestSymEigMatchesGonum(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17, 300} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, rng.NormFloat64())
			}
		}
		if n == 17 { // repeated eigenvalues: rank-2 matrix
			x := mat.NewVecDense(n, nil)
			for i := 0; i < n; i++ {
				x.SetVec(i, float64(i%3))
			}
			a.SymOuterK(1, x)
		}
		var es mat.EigenSym
		if !es.Factorize(a, true) {
			t.Fatal("gonum failed")
		}
		var wantV mat.Dense
		es.VectorsTo(&wantV)
		wantW := es.Values(nil)
		for p := 1; p <= 2; p++ {
			old := runtime.GOMAXPROCS(p)
			w, v, ok := symEig(a.RawSymmetric())
			runtime.GOMAXPROCS(old)
			if !ok {
				t.Fatalf("n=%d: symEig failed", n)
			}
			for i := range w {
				if w[i] != wantW[i] {
					t.Fatalf("n=%d p=%d: eigenvalue %d = %v, gonum %v", n, p, i, w[i], wantW[i])
				}
			}
			if !mat.Equal(v, &wantV) {
				t.Fatalf("n=%d p=%d: eigenvectors differ from gonum", n, p)
			}
		}
	}
}

func benchSym(n int) *mat.SymDense {
	rng := rand.New(rand.NewPCG(1, 3))
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, rng.NormFloat64())
		}
	}
	return a
}

func BenchmarkSymEig(b *testing.B) {
	a := benchSym(500)
	b.Run("impl=arbor/n=500", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for i := 0; i < b.N; i++ {
			symEig(a.RawSymmetric())
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("impl=gonum/n=500", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for i := 0; i < b.N; i++ {
			var es mat.EigenSym
			es.Factorize(a, true)
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime returns the process's user+system CPU time in ns (benchmarks
// report it besides wall time, which other processes on the machine skew).
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
