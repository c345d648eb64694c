package smo

import (
	"runtime"
	"time"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// Parallel passes.
//
// On a large problem the per-iteration passes over the active set (the
// gradient update with the next first-pass maximum, the second pass of the
// selection, the Ḡ update) and the kernel columns of a Points source are
// split into contiguous chunks run by a parallel.Team that lives for one
// Solve. Each chunk reports its own maximum / last minimiser and the
// chunks are combined in order with the serial pass's tie rules (≥ and ≤:
// the last index wins), so the chosen indices and every value are those of
// the serial pass, for any number of workers: the iterates are LIBSVM's
// either way.

// parMinActive is the active-set size from which the passes are split
// (below it a pass takes under a microsecond or two, about the cost of
// handing it out).
const parMinActive = 1024

// chunksPerWorker chunks per worker balance a helper that starts late.
const chunksPerWorker = 2

// maxWorkers caps the team: a pass over a few thousand entries gains
// nothing from more.
const maxWorkers = 4

type chunkPart struct {
	max, obj float64
	idx      int
}

// newTeam returns a team for a problem with l variables, or nil when one
// goroutine is used (Problem.Serial, GOMAXPROCS = 1 or a small problem).
func newTeam(l int, serial bool) *parallel.Team {
	w := min(runtime.GOMAXPROCS(0), maxWorkers)
	if serial || w < 2 || l < parMinActive {
		return nil
	}
	return parallel.NewTeam(w)
}

// A helper that loses its processor in the middle of a task on a busy
// machine makes the solver wait (parallel.Team.Stalls). Once such waits add
// up to more than 2 ms plus 2 % of the solve's time so far, the solver
// goes on alone, kernel columns included, until the next Solve.
//
// So does a team whose helpers ran fewer than 1 in minShare of the first
// minShareTasks tasks or more (about half on two idle processors): on a
// busy machine a helper may get its turns on the caller's processor only,
// and then its polling takes the caller's time.
const (
	stallBase     = 2 * time.Millisecond
	stallFraction = 50
	minShare      = 5
	minShareTasks = 4000
)

// chunks returns how many chunks a pass over n positions is split into
// (1: run it serially).
func (s *smo) chunks(n int) int {
	if s.team == nil || n < parMinActive {
		return 1
	}
	_, w := s.team.Stalls()
	tasks, helped := s.team.Helped()
	if w > stallBase+time.Since(s.start)/stallFraction || (tasks >= minShareTasks && helped*minShare < tasks) {
		// Points columns too: Points.Fill's own goroutines would make the
		// solver wait for a processor on every column.
		s.q.team, s.q.serial = nil, true
		s.team.Close()
		s.team = nil
		return 1
	}
	return min(len(s.part), n/(parMinActive/4))
}

// chunkRange is chunk c of nc over [0, n).
func chunkRange(c, nc, n int) (int, int) {
	return c * n / nc, (c + 1) * n / nc
}
