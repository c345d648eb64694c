package eigen

import (
	"runtime"
	"sync"
)

// parFor calls body(lo, hi) on consecutive chunks covering [0, n), in
// parallel over runtime.GOMAXPROCS(0) goroutines when n ≥ 2·grain. Each index
// is processed by exactly one call, and callers only use parFor for work
// whose result for an index does not depend on the chunk it falls in, so
// results never depend on GOMAXPROCS.
func parFor(n, grain int, body func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	if grain < 1 {
		grain = 1
	}
	if c := n / grain; c < p {
		p = c
	}
	if p <= 1 {
		if n > 0 {
			body(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < p; w++ {
		lo, hi := w*n/p, (w+1)*n/p
		if w == p-1 {
			body(lo, hi)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(lo, hi)
		}()
	}
	wg.Wait()
}
