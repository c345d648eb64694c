package s4vm

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
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

// TestReusedFitterEqualsNew: local descents run on fitters taken from the
// pool — one that ran a descent of the same problem (cache reset to a new
// cache's order), one that ran another problem (cache handed back), and a
// new one — and lent their problem's matrix (bin.base) equal descents on
// new fitters that fill every column from the source, bit for bit:
// labels, objective, steps, solves and SMO iterations.
func TestReusedFitterEqualsNew(t *testing.T) {
	_, K, _, y := problemSet(t, "iris", 0, 5, 1)
	src, _, err := gramSource(context.Background(), K)
	if err != nil {
		t.Fatal(err)
	}
	// Two problems: classes 0 and 1 (with every unlabelled row) and 1 and 2.
	mk := func(a, b int) (*bin, []float64) {
		var rows []int
		var lab []int8
		for i, v := range y {
			if v == a || v == b {
				rows = append(rows, i)
				lab = append(lab, int8(1-2*min(v-a, 1)))
			}
		}
		l := len(rows)
		for i, v := range y {
			if v < 0 {
				rows = append(rows, i)
			}
		}
		bn := &bin{src: src, rows: rows, n: len(rows), l: l, lab: lab, set: S4VM{}.resolve()}
		cs := make([]float64, len(rows))
		for i := range cs {
			cs[i] = 0.1
			if i < l {
				cs[i] = 100
			}
		}
		return bn, cs
	}
	b01, cs01 := mk(0, 1)
	b12, cs12 := mk(1, 2)
	ctx := context.Background()
	type out struct {
		d                descent
		iter, fits, conv int
	}
	descend := func(bn *bin, cs []float64, ft *fitter, cand int) out {
		t.Helper()
		r := rand.New(rand.NewPCG(7, uint64(cand)))
		start := make([]int8, bn.n)
		copy(start, bn.lab)
		for j := bn.l; j < bn.n; j++ {
			start[j] = int8(1 - 2*r.IntN(2))
		}
		d, err := bn.localDescent(ctx, ft, newBalance(bn.n, bn.lab), start, pcgChanger(r), 200)
		if err != nil {
			t.Fatal(err)
		}
		conv := 0
		if ft.conv {
			conv = 1
		}
		return out{d, ft.iter, ft.fits, conv}
	}
	fresh := func(bn *bin, cs []float64, cand int) out {
		ft := newFitter(bn.source(), bn.rows, cs, bn.set.tol, bn.set.cacheMB, false)
		ft.pool, ft.serial = &bufPool{}, true
		return descend(bn, cs, ft, cand)
	}
	same := func(a, b out) bool {
		return slices.Equal(a.d.labels, b.d.labels) && math.Float64bits(a.d.obj) == math.Float64bits(b.d.obj) &&
			a.d.steps == b.d.steps && a.iter == b.iter && a.fits == b.fits && a.conv == b.conv
	}
	p := &bufPool{}
	for k, c := range []struct {
		bn   *bin
		cs   []float64
		cand int
	}{{b01, cs01, 1}, {b01, cs01, 2}, {b01, cs01, 3}, {b12, cs12, 4}, {b12, cs12, 5}, {b01, cs01, 6}} {
		base := c.bn.base(nil)
		if base == nil {
			t.Fatal("no matrix to lend")
		}
		ft := p.fitter(c.bn.source(), c.bn.rows, c.cs, c.bn.set.tol, c.bn.set.cacheMB, false, base)
		got := descend(c.bn, c.cs, ft, c.cand)
		p.idle(ft)
		if want := fresh(c.bn, c.cs, c.cand); !same(got, want) {
			t.Fatalf("descent %d on a pooled fitter: %d steps, %d solves, %d iterations, objective %v; on a new one %d, %d, %d, %v",
				k, got.d.steps, got.fits, got.iter, got.d.obj, want.d.steps, want.fits, want.iter, want.d.obj)
		}
		if got.fits < 3 {
			t.Fatalf("descent %d: only %d solves", k, got.fits)
		}
	}
	if len(p.fitters) != 1 {
		t.Fatalf("%d idle fitters, want 1 (each descent took the idle one)", len(p.fitters))
	}
}

// TestLentMatrixKeepsModel: a one-vs-one fit whose candidates read the
// columns of their problem's matrix in place (bin.base, pooled from
// problem to problem) saves the same model bytes as one whose cache
// budget is too small for the matrix, so that every column is filled from
// the source (and evicted and filled again).
func TestLentMatrixKeepsModel(t *testing.T) {
	_, K, _, y := problemSet(t, "iris", 0, 5, 1)
	n := 0 // rows of a problem: two classes' labelled rows and the unlabelled
	for _, v := range y {
		if v < 1 {
			n++
		}
	}
	var ref []byte
	for _, mb := range []float64{0, 0.02} {
		s := S4VM{Samples: 12, Seed: 5, CacheMB: mb}
		b := &bin{src: &gramBlock{}, n: n, set: s.resolve()}
		if lent := b.base(nil) != nil; lent != (mb == 0) {
			t.Fatalf("CacheMB %g: matrix of %d rows lent %v", mb, n, lent)
		}
		_, saved := fitSaved(t, s, K, y)
		if ref == nil {
			ref = saved
		} else if !bytes.Equal(ref, saved) {
			t.Fatalf("CacheMB %g: model differs from the one with lent matrices", mb)
		}
	}
}
