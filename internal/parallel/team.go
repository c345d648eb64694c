package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Team runs many short loops (a few microseconds each, as in every
// iteration of an SMO solver) on the calling goroutine and a fixed set of
// helper goroutines that live as long as the team. For and Chunks start
// goroutines per call and wake them through the scheduler, which costs
// about as much as such a loop; a team's helpers instead watch for work
// for a short while after each loop and sleep only when none comes.
//
// The caller never waits for a helper to start: Run hands out tasks from
// one atomic counter, the caller takes them too, and it waits only for
// tasks a helper has already begun. On a busy machine where helpers do
// not get a processor, the caller runs every task itself, at the cost of
// one atomic increment per task.
//
// As with For, a task writes only storage it owns and the caller reduces
// across tasks in a fixed order after Run returns, so results do not
// depend on the number of helpers or on the schedule. A Team is used by
// one goroutine at a time; Close stops its helpers.
type Team struct {
	helpers   int
	cur       atomic.Pointer[teamJob]
	quit      atomic.Bool
	sleeping  atomic.Int32
	stalls    int // written by Run's caller only, as are the next three
	stallTime time.Duration
	tasks     int
	helped    int
	closed    bool
	wake      chan struct{}
	wg        sync.WaitGroup
}

type teamJob struct {
	fn   func(task int)
	n    int64
	next atomic.Int64
	done atomic.Int64
}

// teamSpin is how many empty polls a helper makes before it sleeps (some
// tens of microseconds).
const teamSpin = 1 << 14

// NewTeam returns a team of the caller and workers − 1 helpers (none when
// workers ≤ 1: Run then runs every task on the caller).
func NewTeam(workers int) *Team {
	t := &Team{helpers: max(workers-1, 0)}
	t.wake = make(chan struct{}, t.helpers)
	t.wg.Add(t.helpers)
	for range t.helpers {
		go t.help()
	}
	return t
}

// Workers is the number of goroutines that can run tasks: the caller and
// the helpers.
func (t *Team) Workers() int { return t.helpers + 1 }

// Run calls fn(task) for every task in [0, n) and returns when all have
// finished.
func (t *Team) Run(n int, fn func(task int)) {
	if t.helpers == 0 || n <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	j := &teamJob{fn: fn, n: int64(n)}
	t0 := time.Now()
	t.cur.Store(j)
	for s := t.sleeping.Load(); s > 0; s-- {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	mine := j.work()
	t.tasks += n
	t.helped += n - mine
	if j.done.Load() == j.n {
		return
	}
	t1 := time.Now()
	for spins := 0; j.done.Load() < j.n; spins++ {
		if spins > 64 {
			runtime.Gosched()
		}
	}
	// A wait much longer than a task takes means a helper lost its
	// processor in the middle of a task.
	if own, w := t1.Sub(t0)/time.Duration(max(mine, 1)), time.Since(t1); w > 4*own+stallSlack {
		t.stalls++
		t.stallTime += w
	}
}

// stallSlack is the wait beyond four tasks' time that counts as a stall.
const stallSlack = 50 * time.Microsecond

// Helped returns how many tasks Run has handed out and how many of them
// the helpers ran. A helper that shares one processor with the caller
// (a busy machine) runs few: the caller does the work while the helper
// waits for a turn, and its polling only takes the caller's time.
func (t *Team) Helped() (tasks, helped int) { return t.tasks, t.helped }

// Stalls is how many times Run waited for a helper much longer than a
// task takes (a helper descheduled by a busy machine in the middle of a
// task), and the time those waits took. A caller may then go on without
// the team.
func (t *Team) Stalls() (int, time.Duration) { return t.stalls, t.stallTime }

// work runs tasks until none is left and returns how many it ran.
func (j *teamJob) work() int {
	ran := 0
	for {
		i := j.next.Add(1) - 1
		if i >= j.n {
			return ran
		}
		j.fn(int(i))
		j.done.Add(1)
		ran++
	}
}

func (t *Team) help() {
	defer t.wg.Done()
	var last *teamJob
	for spins := 0; !t.quit.Load(); {
		if j := t.cur.Load(); j != last {
			last = j
			j.work()
			spins = 0
			continue
		}
		if spins++; spins&255 == 0 {
			// Let the processor run other goroutines now and then.
			runtime.Gosched()
		}
		if spins < teamSpin {
			continue
		}
		// Sleep until Run or Close sends a token. Announce it first and
		// look again, so that a job stored meanwhile is not missed (Run
		// stores the job before it reads sleeping).
		t.sleeping.Add(1)
		if t.cur.Load() == last && !t.quit.Load() {
			<-t.wake
		}
		t.sleeping.Add(-1)
		spins = 0
	}
}

// Close stops the helpers and waits for them to return; later calls do
// nothing. The team must not be used afterwards.
func (t *Team) Close() {
	if t.closed {
		return
	}
	t.closed = true
	t.quit.Store(true)
	for range t.helpers {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	t.wg.Wait()
}
