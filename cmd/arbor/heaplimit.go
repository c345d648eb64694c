package main

import (
	"runtime"
	"runtime/debug"
)

// holdHeapNear caps the heap's growth once a large, long-lived block (the
// N×r landmark features) is allocated. Go's collector lets the heap grow to
// twice what is live before collecting, so the per-block temporaries of the
// prediction that follows (about one more N×r in total) would otherwise
// all stay in memory: 10⁶ rows × 499 features peaked at 7.65 GiB, not 4.
// It collects once (the features hold no pointers: cheap) and sets the
// runtime's soft memory limit to the live heap plus a quarter (at least
// 256 MiB more), never above a limit already set (GOMEMLIMIT).
func holdHeapNear() {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	live := int64(ms.HeapAlloc)
	limit := live + max(live/4, 256<<20)
	if cur := debug.SetMemoryLimit(-1); cur < limit {
		return
	}
	debug.SetMemoryLimit(limit)
}
