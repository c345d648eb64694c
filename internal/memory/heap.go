package memory

import (
	"runtime"
	"runtime/debug"
)

// HoldHeapNear caps the heap's growth once a large, long-lived block (the
// N×r landmark features) is allocated. Go's collector lets the heap grow to
// twice what is live before collecting, so the per-block temporaries of the
// prediction that follows (about one more N×r in total) would otherwise
// all stay in memory: 10⁶ rows × 499 features peaked at 7.65 GiB, not 4.
// It collects once (the features hold no pointers: cheap) and sets the
// runtime's soft memory limit to the live heap plus a quarter (at least
// 256 MiB more), never above a limit already set (GOMEMLIMIT). It is the
// process-wide setting a command makes (pipeline.Settings.Hold), not one
// for a library inside a larger program.
func HoldHeapNear() {
	runtime.GC()
	debug.SetMemoryLimit(heapLimit(liveHeap(), debug.SetMemoryLimit(-1)))
}

// liveHeap is the bytes of live heap objects.
func liveHeap() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// heapLimit is the soft memory limit HoldHeapNear sets for live bytes
// of live heap under the limit cur.
func heapLimit(live, cur int64) int64 {
	return min(cur, live+max(live/4, 256<<20))
}
