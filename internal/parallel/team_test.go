package parallel

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTeamRunsEachTaskOnce: over many consecutive Runs of varying sizes
// (helpers catching some jobs, missing others, sleeping between them),
// every task runs exactly once per Run and Run returns only after all
// have finished.
func TestTeamRunsEachTaskOnce(t *testing.T) {
	for _, w := range []int{0, 1, 2, 4} {
		tm := NewTeam(w)
		if want := max(w, 1); tm.Workers() != want {
			t.Errorf("NewTeam(%d).Workers() = %d, want %d", w, tm.Workers(), want)
		}
		for run := range 3000 {
			n := run % 9
			hits := make([]int32, n)
			var finished atomic.Int32
			tm.Run(n, func(i int) {
				atomic.AddInt32(&hits[i], 1)
				finished.Add(1)
			})
			if int(finished.Load()) != n {
				t.Fatalf("workers %d run %d: Run returned with %d of %d tasks finished", w, run, finished.Load(), n)
			}
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("workers %d run %d: task %d ran %d times", w, run, i, h)
				}
			}
			if run%1000 == 999 {
				time.Sleep(2 * time.Millisecond) // let the helpers go to sleep
			}
		}
		tm.Close()
	}
}

// TestTeamCloseIdle: Close returns with helpers asleep or spinning.
func TestTeamCloseIdle(t *testing.T) {
	for _, nap := range []time.Duration{0, 5 * time.Millisecond} {
		tm := NewTeam(3)
		time.Sleep(nap)
		tm.Close()
	}
}
