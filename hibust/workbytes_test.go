package hibust

import (
	"testing"

	"github.com/arbor-ml/arbor/s4vm"
)

// TestWorkBytes checks the closed form: twice the live heap (the caller's
// Gram matrix 8·n², the fit's copy 8·n², the root node's block 8·n² and
// its S4VM's float32 block 4·n², pair matrix 4·n² and procs caches of
// min(CacheMB MiB, 4·n²)) less the caller's matrix.
func TestWorkBytes(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		c        Classifier
		n, procs int
		want     float64
	}{
		// digits: 1797 rows, 2 goroutines, default 200 MiB caches.
		{Classifier{}, 1797, 2, 2*(24+4+4+2*4)*1797*1797 - 8*1797*1797},
		{Classifier{}, 1000, 1, 2*(24+4+4+4)*1e6 - 8e6},
		// caches capped at 1 MiB, the pair's matrix over that budget.
		{Classifier{S4VM: s4vm.S4VM{CacheMB: 1}}, 1000, 2, 2*(24e6+4e6+2*mib) - 8e6},
		// another node learner: only the blocks of K.
		{Classifier{Node: SVMNode{}}, 1000, 2, 2*24e6 - 8e6},
	} {
		if got := c.c.WorkBytes(c.n, c.procs); got != c.want {
			t.Errorf("WorkBytes(%d, %d) = %v, want %v", c.n, c.procs, got, c.want)
		}
	}
}
