package s4vm

import "testing"

// TestLiveBytes checks the closed form: float32 block 4·n² (n² ≤ 2²⁶),
// per running pair (at most procs, at most the pairs) 4·n² when that fits
// the cache budget, per running candidate min(budget, 4·n²).
func TestLiveBytes(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		n, classes, procs int
		cacheMB           float64
		want              float64
	}{
		{1000, 3, 2, 0, 4e6 + 2*4e6 + 2*4e6},               // everything fits the default 200 MiB
		{1000, 2, 2, 0, 4e6 + 1*4e6 + 2*4e6},               // one pair: one pair matrix for two candidates
		{1000, 3, 1, 1, 4e6 + 1*mib},                       // no pair matrix; caches capped at 1 MiB
		{8192, 10, 2, 0, 4*8192*8192 + 2*200*mib},          // 256 MiB matrices: block kept; over the budget: no pair matrix, caches at 200 MiB
		{8193, 10, 4, 1000, 4 * 8193 * 8193 * (0 + 4 + 4)}, // block over 2²⁶ entries
		{8193, 2, 4, 1000, 4 * 8193 * 8193 * (0 + 1 + 4)},  // one pair
	} {
		if got := (S4VM{CacheMB: c.cacheMB}).LiveBytes(c.n, c.classes, c.procs); got != c.want {
			t.Errorf("LiveBytes(%d, %d, %d) with CacheMB %v = %v, want %v", c.n, c.classes, c.procs, c.cacheMB, got, c.want)
		}
	}
}

// TestWorkBytes checks the collector's share: per pair (400 + samples +
// 1)·n + 8·(samples + 1)² bytes, capped at the live heap with the caller's
// Gram matrix (8·n²).
func TestWorkBytes(t *testing.T) {
	for _, c := range []struct {
		s                 S4VM
		n, classes, procs int
		slack             float64
	}{
		// digits: 45 pairs of 1797 rows, 101 candidates each, 2 running.
		{S4VM{}, 1797, 10, 2, 45 * ((400+101)*1797 + 8*101*101)},
		{S4VM{Samples: 10}, 1000, 2, 1, (400+11)*1000 + 8*11*11},
		// 10⁴ pairs of 100 rows drop more than the live heap: capped.
		{S4VM{}, 100, 142, 2, 8*100*100 + 4*100*100*(1+2+2)},
	} {
		live := c.s.LiveBytes(c.n, c.classes, c.procs)
		if got := c.s.WorkBytes(c.n, c.classes, c.procs); got != live+c.slack {
			t.Errorf("WorkBytes(%d, %d, %d) = %v, want live %v + slack %v", c.n, c.classes, c.procs, got, live, c.slack)
		}
	}
}
