package smo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// benchProblem is the problem of bench/classify_svm.py in distribution: n
// points uniform in [0,1]^10, y = sign(x1 + x2 − 1) with 10 % of the labels
// flipped, RBF with gamma = 1/(10·Var X) = 1.2 (rbf:scale).
func benchProblem(n int) (*Points, []int8) {
	const d = 10
	r := rand.New(rand.NewPCG(7, 1))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.Float64()
	}
	y := make([]int8, n)
	for i := range n {
		y[i] = -1
		if x[i*d]+x[i*d+1] > 1 {
			y[i] = 1
		}
		if r.Float64() < 0.1 {
			y[i] = -y[i]
		}
	}
	return &Points{X: x, D: d, Stride: d, K: kernel.RBF{Gamma: 1.2}}, y
}

// BenchmarkSolve is one binary C-SVC solve on points (kernel columns on
// demand, cache of 200 MB, shrinking), the work of
// `arbor classify --kernel rbf --learner svm` on the bench set.
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{4000} {
		for _, C := range []float64{1, 100} {
			b.Run(fmt.Sprintf("n=%d/C=%g", n, C), func(b *testing.B) {
				src, y := benchProblem(n)
				rows := make([]int, n)
				for i := range rows {
					rows[i] = i
				}
				var res Result
				b.ReportAllocs()
				c0 := cpuNow()
				for b.Loop() {
					pr := &Problem{Q: NewCache(src, rows, 200), P: make([]float64, n), Y: y, C: make([]float64, n), Alpha: make([]float64, n), Tol: 1e-3, Shrink: true}
					for i := range pr.P {
						pr.P[i], pr.C[i] = -1, C
					}
					var err error
					if res, err = Solve(context.Background(), pr); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuNow()-c0)/float64(b.N)/1e6, "cpu-ms/op")
				b.ReportMetric(float64(res.Iter), "iter")
			})
		}
	}
}

// BenchmarkFill computes one kernel column of n entries (float32, as the
// cache stores it).
func BenchmarkFill(b *testing.B) {
	for _, n := range []int{4000} {
		b.Run(fmt.Sprintf("n=%d/d=10", n), func(b *testing.B) {
			src, _ := benchProblem(n)
			cols := make([]int, n)
			for i := range cols {
				cols[i] = i
			}
			dst := make([]float32, n)
			b.ReportAllocs()
			r := 0
			c0 := cpuNow()
			for b.Loop() {
				src.Fill(dst, r, cols)
				r = (r + 1) % n
			}
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N*n), "cpu-ns/entry")
		})
	}
}

// cpuNow is the process's user + system CPU time in nanoseconds (timings
// on a loaded machine: wall time counts other processes' turns).
func cpuNow() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
