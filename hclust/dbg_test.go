package hclust

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestDbgCPU(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DBGN"))
	if n == 0 {
		t.Skip()
	}
	reps := 5
	if n > 4000 {
		reps = 2
	}
	d := pdist(benchPoints(n, 10, 0))
	for _, m := range []Method{Average, Complete, Single} {
		for _, procs := range []int{1, 2, 1, 2} {
			runtime.GOMAXPROCS(procs)
			best, bestW := time.Hour, time.Hour
			for range reps {
				runtime.GC()
				c0, w0 := cpuNow(), time.Now()
				Linkage(context.Background(), d, m)
				best = min(best, cpuNow()-c0)
				bestW = min(bestW, time.Since(w0))
			}
			t.Logf("n=%d %v procs=%d cpu=%v wall=%v", n, m, procs, best, bestW)
		}
	}
}
