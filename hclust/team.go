package hclust

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// team runs many tiny parallel loops (a few microseconds each: one row
// scan or update of the chain) with helper goroutines that spin between
// jobs instead of being woken through the scheduler. Work is claimed chunk
// by chunk, and the caller claims chunks too, so a helper that is slow to
// notice a job (or is descheduled) costs nothing beyond doing that chunk
// serially. Chunks must write disjoint memory; results are then independent
// of which goroutine ran which chunk.
type team struct {
	cur  atomic.Pointer[job]
	quit atomic.Bool
	wg   sync.WaitGroup
}

type job struct {
	fn   func(chunk int)
	n    int32
	next atomic.Int32
	done atomic.Int32
}

// newTeam returns a team with helpers extra goroutines, or nil (run
// serially) when helpers < 1.
func newTeam(helpers int) *team {
	if helpers < 1 {
		return nil
	}
	t := &team{}
	t.wg.Add(helpers)
	for range helpers {
		go t.help()
	}
	return t
}

// stop ends the helpers; safe on a nil team.
func (t *team) stop() {
	if t == nil {
		return
	}
	t.quit.Store(true)
	t.wg.Wait()
}

func (t *team) help() {
	defer t.wg.Done()
	var last *job
	idle := 0
	for !t.quit.Load() {
		if j := t.cur.Load(); j != last && j != nil {
			last = j
			j.work()
			idle = 0
			continue
		}
		idle++
		switch {
		case idle < 1<<12:
			// spin: jobs usually follow each other within microseconds
		case idle < 1<<13:
			runtime.Gosched()
		default:
			// a long serial phase: nap instead of burning the core
			time.Sleep(20 * time.Microsecond)
			idle = 1 << 13
		}
	}
}

func (j *job) work() {
	for {
		c := j.next.Add(1) - 1
		if c >= j.n {
			return
		}
		j.fn(int(c))
		j.done.Add(1)
	}
}

// run executes fn(0..n−1), in parallel when the team has helpers.
func (t *team) run(n int, fn func(chunk int)) {
	if t == nil || n == 1 {
		for c := 0; c < n; c++ {
			fn(c)
		}
		return
	}
	j := &job{fn: fn, n: int32(n)}
	t.cur.Store(j)
	j.work()
	for spins := 0; j.done.Load() < j.n; spins++ {
		if spins > 1<<10 {
			runtime.Gosched()
		}
	}
}

// teamFor returns a team for a problem of n observations: helpers only
// when GOMAXPROCS > 1 and the rows are long enough to amortise the
// hand-offs.
func teamFor(n int) (*team, int) {
	p := runtime.GOMAXPROCS(0)
	if p < 2 || n < parMinRow {
		return nil, 1
	}
	h := min(p-1, 3)
	return newTeam(h), 2 * (h + 1)
}

// parMinRow is the row length below which scans and updates run serially.
const parMinRow = 768
