package svm

import (
	"fmt"
	"github.com/arbor-ml/arbor/internal/smo"
	"syscall"
	"testing"
)

func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkGramCheck is FitGram's O(N²) input check (NaN/Inf, mirror of
// the SymDense store) on one goroutine, with its CPU time per op.
func BenchmarkGramCheck(b *testing.B) {
	for _, n := range []int{2000, 5000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			if testing.Short() && n > 2000 {
				b.Skip("short")
			}
			ts := getTiming(n)
			raw := ts.K.RawSymmetric()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuNow()
			for range b.N {
				g := &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: n}
				if err := checkGram(g, 1); err != nil || !g.Mirrored {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNow()-c0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
