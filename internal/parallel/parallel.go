// Package parallel runs independent tasks on a fixed pool of goroutines.
//
// Every helper hands tasks out in increasing order from one atomic counter
// to min(workers, tasks) new goroutines (the calling goroutine itself when
// that is one) and returns when all tasks handed out have finished. The
// caller waits rather than taking a share: a goroutine it starts would sit
// in its processor's run queue until another processor steals it, which
// costs more than the caller's share gains on short jobs. A task must
// write only storage that it owns (its row, its block, its worker's
// scratch); then the result does not depend on the number of goroutines or
// on the schedule, so it is bit-identical for any GOMAXPROCS. Reductions
// across tasks are the caller's business and must run in a fixed order
// after the call returns.
//
// The context is checked before each task: once ctx is done no further
// tasks start, and the call returns ctx.Err(). Pass context.Background()
// where the work cannot be cancelled.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for every i in [0, n) on runtime.GOMAXPROCS(0)
// goroutines and returns ctx.Err(). If ctx is already done, fn is not
// called.
func For(ctx context.Context, n int, fn func(i int)) error {
	return ForWorkers(ctx, n, runtime.GOMAXPROCS(0), func(_, i int) { fn(i) })
}

// Chunks calls fn(lo, hi) for the consecutive ranges [0, chunk),
// [chunk, 2·chunk), ..., the last one ending at n, on
// runtime.GOMAXPROCS(0) goroutines, and returns ctx.Err(). chunk < 1 is
// taken as 1. ctx is checked between chunks only.
func Chunks(ctx context.Context, n, chunk int, fn func(lo, hi int)) error {
	chunk = max(chunk, 1)
	tasks := (n + chunk - 1) / chunk
	return ForWorkers(ctx, tasks, runtime.GOMAXPROCS(0), func(_, t int) {
		fn(t*chunk, min(n, (t+1)*chunk))
	})
}

// ForWorkers calls fn(w, i) for every i in [0, n) on min(workers, n)
// goroutines (at least one) and returns ctx.Err(). w in [0, workers) is
// the index of the goroutine running the task: no two tasks with the same
// w run at the same time, so fn may use per-worker scratch indexed by w.
func ForWorkers(ctx context.Context, n, workers int, fn func(w, i int)) error {
	if err := ctx.Err(); err != nil || n <= 0 {
		return err
	}
	workers = max(min(workers, n), 1)
	var next atomic.Int64
	run := func(w int) {
		for ctx.Err() == nil {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			fn(w, i)
		}
	}
	if workers == 1 {
		run(0)
		return ctx.Err()
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := range workers {
		go func() { defer wg.Done(); run(w) }()
	}
	wg.Wait()
	return ctx.Err()
}
