package s4vm

import (
	"testing"

	"github.com/arbor-ml/arbor/internal/smo"
)

// TestPoolAdoptLeavesTheRest checks that a candidate's cache takes at most
// one buffer per column from the pool, so that a candidate starting while
// it runs finds the rest there.
func TestPoolAdoptLeavesTheRest(t *testing.T) {
	const l = 7
	src := &smo.DenseGram{Data: make([]float64, l*l), Stride: l, N: l, Mirrored: true}
	rows := identity(l)
	p := &bufPool{}
	var bufs [][]float32
	for range 3 * l {
		bufs = append(bufs, make([]float32, l))
	}
	p.put(bufs)
	a := smo.NewCache(src, rows, 1)
	a.WholeColumns()
	p.adopt(a)
	if len(p.bufs) != 2*l {
		t.Fatalf("after the first adopt the pool holds %d buffers, want %d", len(p.bufs), 2*l)
	}
	b := smo.NewCache(src, rows, 1)
	b.WholeColumns()
	p.adopt(b)
	if len(p.bufs) != l {
		t.Fatalf("after the second adopt the pool holds %d buffers, want %d", len(p.bufs), l)
	}
	// Every buffer is in exactly one place: the pool or a cache.
	seen := map[*float32]int{}
	for _, set := range [][][]float32{p.bufs, a.Release(), b.Release()} {
		for _, s := range set {
			seen[&s[:1][0]]++
		}
	}
	if len(seen) != 3*l {
		t.Fatalf("%d distinct buffers, want %d", len(seen), 3*l)
	}
	for ptr, n := range seen {
		if n != 1 {
			t.Fatalf("buffer %p held %d times", ptr, n)
		}
	}
}
