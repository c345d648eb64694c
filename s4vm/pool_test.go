package s4vm

import (
	"testing"

	"github.com/arbor-ml/arbor/internal/smo"
)

// TestPoolAdoptLeavesTheRest checks that a candidate's cache takes at most
// one buffer per column from the pool, each long enough for a column, so
// that a candidate starting while it runs finds the rest there.
func TestPoolAdoptLeavesTheRest(t *testing.T) {
	const l, short = 7, 5
	src := &smo.DenseGram{Data: make([]float64, l*l), Stride: l, N: l, Mirrored: true}
	rows := identity(l)
	p := &bufPool{}
	var bufs [][]float32
	for k := range 3*l + short {
		if k%4 == 1 && k/4 < short {
			bufs = append(bufs, make([]float32, l-1)) // too short for a column
			continue
		}
		bufs = append(bufs, make([]float32, l))
	}
	p.put(bufs)
	a := smo.NewCache(src, rows, 1)
	a.WholeColumns()
	p.adopt(a)
	if len(p.bufs) != 2*l+short {
		t.Fatalf("after the first adopt the pool holds %d buffers, want %d", len(p.bufs), 2*l+short)
	}
	b := smo.NewCache(src, rows, 1)
	b.WholeColumns()
	p.adopt(b)
	if len(p.bufs) != l+short {
		t.Fatalf("after the second adopt the pool holds %d buffers, want %d", len(p.bufs), l+short)
	}
	nShort := 0
	for _, b := range p.bufs {
		if cap(b) < l {
			nShort++
		}
	}
	if nShort != short {
		t.Fatalf("the pool holds %d short buffers, want all %d", nShort, short)
	}
	// Every buffer is in exactly one place: the pool or a cache.
	seen := map[*float32]int{}
	for _, set := range [][][]float32{p.bufs, a.Release(), b.Release()} {
		for _, s := range set {
			seen[&s[:1][0]]++
		}
	}
	if len(seen) != 3*l+short {
		t.Fatalf("%d distinct buffers, want %d", len(seen), 3*l+short)
	}
	for ptr, n := range seen {
		if n != 1 {
			t.Fatalf("buffer %p held %d times", ptr, n)
		}
	}
}
