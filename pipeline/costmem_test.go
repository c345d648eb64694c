package pipeline_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// gaussianClasses returns n rows of d features in c Gaussian classes
// (unit variance around centres 0.7 apart on every axis), perClass of
// each class labelled.
func gaussianClasses(n, d, c, perClass int) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(3, 5))
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	seen := make([]int, c)
	for i := range y {
		k := rng.IntN(c)
		y[i] = -1
		if seen[k] < perClass {
			seen[k]++
			y[i] = k
		}
		for j := 0; j < d; j++ {
			X.Set(i, j, 0.7*float64(k)+rng.NormFloat64())
		}
	}
	classes := make([]string, c)
	for k := range classes {
		classes[k] = fmt.Sprint(k)
	}
	return &dataset.Dataset{Name: "gauss", X: X, Y: y, Classes: classes}
}

// peakLive runs f with the collector at 5 % (so that the heap stays near
// what is live) and returns the largest heap, sampled every 200 µs, above
// the heap before f, and the bytes f allocated in all. The sample can miss
// the true peak, never exceed it; the total can never be below it.
func peakLive(t *testing.T, f func()) (peakBytes, total float64) {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before, allocated := ms.HeapAlloc, ms.TotalAlloc
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			peak = max(peak, s.HeapAlloc)
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	return float64(peak) - float64(before), float64(ms.TotalAlloc - allocated)
}

// TestLandmarkCostBoundsHeap: the heap a landmark fit holds (sampled
// while it runs, the collector kept close) stays under pipeline.Cost's
// estimate, which holds the points as read besides; for the anchor graph,
// whose M×M system dominates at N = 4,000, M = 700, the fit allocates at
// least 60 % of the estimate without the 16 MiB it counts for the process
// (spreading: 40 %, its M×M matrices are never all live at once), so that
// the estimate is not a loose bound. The upper check uses the sampled peak
// and the lower one the total allocated, so neither can fail because a
// sample fell between allocations.
func TestLandmarkCostBoundsHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("4,000-row fits")
	}
	ds := gaussianClasses(4000, 10, 5, 10)
	ctx := context.Background()
	for _, c := range []struct {
		s     pipeline.Settings
		lower float64
	}{
		{pipeline.Settings{Learner: "lp", Landmarks: 700, Seed: 1}, 0.6},
		// spreading's system, its block's part and the symmetric system
		// are never live at once (the estimate counts them as garbage)
		{pipeline.Settings{Learner: "spreading", Params: map[string]string{"affinity": "rbf:0.1"}, Landmarks: 700, Seed: 1}, 0.4},
		{pipeline.Settings{Kernel: "hck:average", Landmarks: 200, Seed: 1}, 0},
		{pipeline.Settings{Kernel: "rbf", Learner: "knn", Landmarks: 200, Seed: 1}, 0},
		{pipeline.Settings{Kernel: "hck:complete", Landmarks: 200, Seed: 1}, 0},
		// the maps that hold N×M rows
		{pipeline.Settings{Kernel: "isomap", Landmarks: 400, Seed: 1}, 0},
		{pipeline.Settings{Kernel: "multitype:step:0.1:1", Landmarks: 400, Seed: 1}, 0},
		{pipeline.Settings{Kernel: "hckg:average", Landmarks: 400, Seed: 1}, 0},
	} {
		e, err := pipeline.Cost(c.s, pipeline.ShapeOf(ds, nil))
		if err != nil {
			t.Fatal(err)
		}
		var fitErr error
		live, total := peakLive(t, func() { _, fitErr = pipeline.Fit(ctx, c.s, ds, nil) })
		if fitErr != nil {
			t.Fatalf("%+v: %v", c.s, fitErr)
		}
		data := e.Bytes
		if c.lower > 0 {
			data -= 16 << 20 // the process besides the data (anchor graph)
		}
		t.Logf("%s %s: peak %.1f MiB, allocated %.1f MiB, estimate %.1f MiB", c.s.Learner, c.s.Kernel, live/(1<<20), total/(1<<20), e.Bytes/(1<<20))
		if live > e.Bytes {
			t.Errorf("%s %s: the fit's heap peaked at %.1f MiB, over the estimate of %.1f MiB",
				c.s.Learner, c.s.Kernel, live/(1<<20), e.Bytes/(1<<20))
		}
		if total < c.lower*data {
			t.Errorf("%s %s: the fit allocated %.1f MiB in all, under %.0f %% of the estimate's %.1f MiB of data: the estimate is loose",
				c.s.Learner, c.s.Kernel, total/(1<<20), 100*c.lower, data/(1<<20))
		}
	}
}
