package eigen

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// BenchmarkPhases prints the time of each stage (set EIGEN_PHASES=n).
func BenchmarkPhases(b *testing.B) {
	s := os.Getenv("EIGEN_PHASES")
	if s == "" {
		b.Skip("set EIGEN_PHASES=n to time the stages")
	}
	n, _ := strconv.Atoi(s)
	reps := 3
	if n > 2000 {
		reps = 1
	}
	a := randSym(n, 1)
	w := make([]float64, n*n)
	if err := load(w, a); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for rep := 0; rep < reps; rep++ {
		if err := load(w, a); err != nil {
			b.Fatal(err)
		}
		d := make([]float64, n)
		e := make([]float64, n)
		tau := make([]float64, n)
		c0, t0 := cpuTime(), time.Now()
		if err := tridiag(ctx, w, n, d, e, tau); err != nil {
			b.Fatal(err)
		}
		t1, c1 := time.Now(), cpuTime()
		z := make([]float64, n*n)
		s2 := &dc{ctx: ctx, q: z, ld: n}
		if err := s2.solve(d, e[:n-1], 0, 0); err != nil {
			b.Fatal(err)
		}
		t2, c2 := time.Now(), cpuTime()
		if err := backTransform(ctx, w, n, tau, z, n, n); err != nil {
			b.Fatal(err)
		}
		t3, c3 := time.Now(), cpuTime()
		b.Logf("n=%d wall (CPU) s: tridiag %.3f (%.3f)  dc %.3f (%.3f)  back %.3f (%.3f)  total %.3f (%.3f)", n,
			t1.Sub(t0).Seconds(), (c1 - c0).Seconds(), t2.Sub(t1).Seconds(), (c2 - c1).Seconds(),
			t3.Sub(t2).Seconds(), (c3 - c2).Seconds(), t3.Sub(t0).Seconds(), (c3 - c0).Seconds())
	}
}
