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

// passInput is one SMO iteration's pass inputs over n active variables
// (random gradient, flags and float32 kernel columns).
func passInput(n int) (g []float64, fl []uint8, qd []float64, ki, kj []float32) {
	r := rand.New(rand.NewPCG(11, 1))
	g, fl, qd = make([]float64, n), make([]uint8, n), make([]float64, n)
	ki, kj = make([]float32, n), make([]float32, n)
	for i := range n {
		g[i] = r.NormFloat64()
		fl[i] = uint8(1 + r.IntN(3))
		qd[i] = 1 + r.Float64()
		ki[i], kj[i] = float32(r.Float64()), float32(r.Float64())
	}
	return
}

// benchKernels runs f with each kernel level the CPU has (the Go loops,
// AVX2, AVX-512).
func benchKernels(b *testing.B, f func(b *testing.B)) {
	levels, names := kernelLevels()
	for k, level := range levels {
		b.Run(names[k], func(b *testing.B) {
			defer setKernels(setKernels(level))
			f(b)
		})
	}
}

// BenchmarkUpdatePass is the gradient update with the next first-pass
// maximum over n = 1,500 active variables (HiBUST's USPS nodes).
func BenchmarkUpdatePass(b *testing.B) {
	g, fl, _, ki, kj := passInput(1500)
	benchKernels(b, func(b *testing.B) {
		c0 := cpuNow()
		for b.Loop() {
			updatePass(g, fl, ki, kj, 1e-9, -1e-9)
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(b.N*len(g)), "cpu-ns/entry")
	})
}

// BenchmarkSelectPass is the second pass of WSS3 over n = 1,500.
func BenchmarkSelectPass(b *testing.B) {
	g, fl, qd, ki, _ := passInput(1500)
	benchKernels(b, func(b *testing.B) {
		c0 := cpuNow()
		for b.Loop() {
			selectPass(g, fl, qd, ki, 1.5, 1)
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(b.N*len(g)), "cpu-ns/entry")
	})
}

// BenchmarkSolveS4VM is one solve shaped like an S4VM refit on a HiBUST
// node (1,500 rows, linear kernel, C = 100 on 20 labelled rows and 0.1 on
// the rest, kernel columns from a float32 Gram matrix read in place, no
// team), with the AVX2 kernels and with the Go loops: the same iterations,
// the time of the passes as they occur in a solve.
func BenchmarkSolveS4VM(b *testing.B) {
	const n, d = 1500, 10
	src, y := benchProblem(n)
	k := kernel.Linear{}
	g32 := make([]float32, n*n)
	for i := range n {
		for j := range n {
			g32[i*n+j] = float32(k.Eval(src.row(i), src.row(j)))
		}
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	benchKernels(b, func(b *testing.B) {
		var res Result
		var bufs [][]float32 // column buffers handed from solve to solve, as s4vm does
		c0 := cpuNow()
		for b.Loop() {
			q := NewCache(&float32Gram{g32, n}, rows, 100)
			q.Adopt(bufs)
			pr := &Problem{Q: q, P: make([]float64, n), Y: y, C: make([]float64, n), Alpha: make([]float64, n), Tol: 1e-3, Shrink: true, Serial: true}
			for i := range pr.P {
				pr.P[i], pr.C[i] = -1, 0.1
				if i < 20 {
					pr.C[i] = 100
				}
			}
			var err error
			if res, err = Solve(context.Background(), pr); err != nil {
				b.Fatal(err)
			}
			bufs = q.Release()
		}
		b.ReportMetric(float64(cpuNow()-c0)/float64(b.N)/1e6, "cpu-ms/op")
		b.ReportMetric(float64(res.Iter), "iter")
	})
}

// float32Gram is a dense float32 Gram matrix (as s4vm's shared block).
type float32Gram struct {
	k []float32
	n int
}

func (g *float32Gram) At(r, c int) float64 { return float64(g.k[r*g.n+c]) }
func (g *float32Gram) Fill(dst []float32, r int, cols []int) {
	row := g.k[r*g.n : (r+1)*g.n]
	for t, c := range cols {
		dst[t] = row[c]
	}
}
func (g *float32Gram) Fill64(dst []float64, r int, cols []int) {
	row := g.k[r*g.n : (r+1)*g.n]
	for t, c := range cols {
		dst[t] = float64(row[c])
	}
}
