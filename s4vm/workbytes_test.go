package s4vm

import "testing"

// TestWorkBytes checks the closed form: float32 block 4·n² (n² ≤ 2²⁶),
// per running pair 4·n² when that fits the cache budget, per running
// candidate min(budget, 4·n²).
func TestWorkBytes(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		n, procs int
		cacheMB  float64
		want     float64
	}{
		{1000, 2, 0, 4e6 + 2*4e6 + 2*4e6},              // everything fits the default 200 MiB
		{1000, 1, 1, 4e6 + 1*mib},                      // no pair matrix; caches capped at 1 MiB
		{8192, 2, 0, 4*8192*8192 + 2*200*mib},          // 256 MiB matrices: block kept; over the budget: no pair matrix, caches at 200 MiB
		{8193, 4, 1000, 4 * 8193 * 8193 * (0 + 4 + 4)}, // block over 2²⁶ entries
	} {
		if got := WorkBytes(c.n, c.procs, c.cacheMB); got != c.want {
			t.Errorf("WorkBytes(%d, %d, %v) = %v, want %v", c.n, c.procs, c.cacheMB, got, c.want)
		}
	}
}
