package svcluster

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelRows runs fn(i) for i in [0, n) on GOMAXPROCS workers. fn must
// write only to row-owned memory, so results do not depend on scheduling.
func parallelRows(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// parallelRowsW is parallelRows with a worker index (for per-worker scratch)
// and cancellation: it stops handing out rows once ctx is done.
func parallelRowsW(ctx context.Context, n, workers int, fn func(w, i int)) error {
	if workers > n {
		workers = n
	}
	if workers < 1 {
		workers = 1
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				if ctx.Err() != nil {
					return
				}
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(w, i)
			}
		}(w)
	}
	wg.Wait()
	return ctx.Err()
}

// unionFind is a disjoint-set forest with path halving and union by index
// (the smaller root wins), so the final roots are deterministic.
type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(i int) int {
	for int(u[i]) != i {
		u[i] = u[u[i]]
		i = int(u[i])
	}
	return i
}

func (u unionFind) union(a, b int) bool {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return false
	}
	if ra < rb {
		u[rb] = int32(ra)
	} else {
		u[ra] = int32(rb)
	}
	return true
}

// labels numbers the sets 0, 1, ... in order of their smallest member.
func (u unionFind) labels() ([]int, int) {
	n := len(u)
	lab := make([]int, n)
	id := make([]int, n)
	for i := range id {
		id[i] = -1
	}
	k := 0
	for i := 0; i < n; i++ {
		r := u.find(i)
		if id[r] < 0 {
			id[r] = k
			k++
		}
		lab[i] = id[r]
	}
	return lab, k
}
