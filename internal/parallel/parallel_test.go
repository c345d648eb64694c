package parallel

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
)

func withProcs(t *testing.T, p int) {
	old := runtime.GOMAXPROCS(p)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

func TestForEachIndexOnce(t *testing.T) {
	for _, p := range []int{1, 2, 7} {
		withProcs(t, p)
		for _, n := range []int{0, 1, 2, 5, 100, 1003} {
			hits := make([]int32, n)
			if err := For(context.Background(), n, func(i int) { atomic.AddInt32(&hits[i], 1) }); err != nil {
				t.Fatalf("procs=%d n=%d: %v", p, n, err)
			}
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("procs=%d n=%d: index %d ran %d times", p, n, i, h)
				}
			}
		}
	}
}

func TestChunksCover(t *testing.T) {
	for _, p := range []int{1, 2, 7} {
		withProcs(t, p)
		for _, c := range []struct{ n, chunk int }{{0, 4}, {1, 4}, {10, 3}, {12, 3}, {5, 0}, {100, 64}} {
			hits := make([]int32, c.n)
			var calls atomic.Int32
			err := Chunks(context.Background(), c.n, c.chunk, func(lo, hi int) {
				calls.Add(1)
				if lo >= hi || hi-lo > max(c.chunk, 1) || lo%max(c.chunk, 1) != 0 {
					t.Errorf("n=%d chunk=%d: bad range [%d,%d)", c.n, c.chunk, lo, hi)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("n=%d chunk=%d: index %d covered %d times", c.n, c.chunk, i, h)
				}
			}
			if want := (c.n + max(c.chunk, 1) - 1) / max(c.chunk, 1); int(calls.Load()) != want {
				t.Fatalf("n=%d chunk=%d: %d calls, want %d", c.n, c.chunk, calls.Load(), want)
			}
		}
	}
}

func TestForWorkersScratch(t *testing.T) {
	withProcs(t, 4)
	for _, workers := range []int{-1, 0, 1, 3, 8} {
		nw := max(workers, 1)
		busy := make([]atomic.Int32, nw)
		sum := make([]int, nw)
		const n = 500
		err := ForWorkers(context.Background(), n, workers, func(w, i int) {
			if w < 0 || w >= nw {
				t.Errorf("workers=%d: w = %d out of range", workers, w)
				return
			}
			if busy[w].Add(1) != 1 {
				t.Errorf("workers=%d: two tasks share w=%d", workers, w)
			}
			sum[w] += i
			busy[w].Add(-1)
		})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, s := range sum {
			total += s
		}
		if total != n*(n-1)/2 {
			t.Fatalf("workers=%d: sum %d, want %d", workers, total, n*(n-1)/2)
		}
	}
}

func TestCancel(t *testing.T) {
	withProcs(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	if err := For(ctx, 10, func(int) { called = true }); !errors.Is(err, context.Canceled) || called {
		t.Fatalf("done ctx: err=%v called=%v", err, called)
	}
	ctx, cancel = context.WithCancel(context.Background())
	var ran atomic.Int32
	err := For(ctx, 1000, func(i int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if r := ran.Load(); r >= 1000 || r < 10 {
		t.Fatalf("ran %d tasks after cancelling at 10 of 1000", r)
	}
}

// TestDeterministic checks the package contract: tasks that write only
// their own outputs give bit-identical results for any GOMAXPROCS.
func TestDeterministic(t *testing.T) {
	const n = 3000
	run := func(p int) []float64 {
		withProcs(t, p)
		out := make([]float64, n)
		_ = Chunks(context.Background(), n, 37, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				s := 0.0
				for j := 0; j <= i; j++ {
					s += 1 / float64(j+1)
				}
				out[i] = s
			}
		})
		return out
	}
	a, b := run(1), run(2)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("out[%d]: %v (1 proc) != %v (2 procs)", i, a[i], b[i])
		}
	}
}

func BenchmarkFor(b *testing.B) {
	out := make([]float64, 1<<12)
	b.ReportAllocs()
	for b.Loop() {
		_ = For(context.Background(), len(out), func(i int) { out[i] = float64(i) * 0.5 })
	}
}
