package gemm

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkGEMM times C = A·B for n×n matrices (fixed seed) with the
// active kernel on 1 and 2 goroutines and reports GFLOP/s (2n³ flops).
// bench/gemm prints the same beside numpy.dot (OpenBLAS) in one run.
func BenchmarkGEMM(b *testing.B) {
	for _, n := range []int{256, 1000, 2000, 4000} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/threads=%d/%s", n, threads, Kernel()), func(b *testing.B) {
				benchProduct(b, n, threads, func(x, y, c []float64) {
					Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, x, n, y, n, 0, c, n)
				})
			})
		}
	}
}

// BenchmarkGEMMKernel compares the micro-kernels at n = 1000, one goroutine.
func BenchmarkGEMMKernel(b *testing.B) {
	saved := active
	defer func() { active = saved }()
	for _, kern := range kernels() {
		active = kern
		b.Run(kern.name, func(b *testing.B) {
			benchProduct(b, 1000, 1, func(x, y, c []float64) {
				Dgemm(blas.NoTrans, blas.NoTrans, 1000, 1000, 1000, 1, x, 1000, y, 1000, 0, c, 1000)
			})
		})
	}
}

// BenchmarkGonumDgemm is the baseline: gonum's pure-Go Dgemm.
func BenchmarkGonumDgemm(b *testing.B) {
	for _, n := range []int{1000} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/threads=%d", n, threads), func(b *testing.B) {
				benchProduct(b, n, threads, func(x, y, c []float64) {
					gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, x, n, y, n, 0, c, n)
				})
			})
		}
	}
}

// BenchmarkSYRK times the upper triangle of A·Aᵀ (n×n, k = 256: the Gram
// shape) and reports GFLOP/s of the n²·k flops done.
func BenchmarkSYRK(b *testing.B) {
	for _, n := range []int{2000, 6000} {
		k := 256
		b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			x := randSlice(r, n*k)
			c := make([]float64, n*n)
			b.ReportAllocs()
			for b.Loop() {
				Upper(blas.NoTrans, blas.Trans, n, k, 1, x, k, x, k, 0, c, n)
			}
			b.ReportMetric(float64(n)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func benchProduct(b *testing.B, n, threads int, f func(x, y, c []float64)) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
	r := rand.New(rand.NewPCG(1, 1))
	x, y := randSlice(r, n*n), randSlice(r, n*n)
	c := make([]float64, n*n)
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		f(x, y, c)
	}
	flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
	b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(flops/(cpuTime()-c0).Seconds()/1e9, "GFLOP/cpu-s")
}

// cpuTime is the user + system CPU time of this process (all threads): on
// a shared machine, flops per CPU-second measure the kernel when wall
// time measures the load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
