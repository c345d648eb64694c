package smo

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestCacheSizeDoesNotChangeIterates: the column cache only saves work, so
// a budget that holds every column (slabs only), one that forces evictions
// and reallocations (slabs, then buffers one by one) and the minimum of
// three columns give bit-identical solutions and iteration counts.
func TestCacheSizeDoesNotChangeIterates(t *testing.T) {
	src, y := benchProblem(1200)
	n := len(y)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	var ref Result
	var refAlpha []float64
	for k, mb := range []float64{200, 1, 0} {
		pr := &Problem{Q: NewCache(src, rows, mb), P: make([]float64, n), Y: y, C: make([]float64, n), Alpha: make([]float64, n), Tol: 1e-3, Shrink: true}
		for i := range pr.P {
			pr.P[i], pr.C[i] = -1, 10
		}
		res, err := Solve(context.Background(), pr)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			ref, refAlpha = res, pr.Alpha
			continue
		}
		if res.Iter != ref.Iter || res.Rho != ref.Rho || !slices.Equal(pr.Alpha, refAlpha) {
			t.Errorf("cache %g MB: iter %d ρ %v; 200 MB: iter %d ρ %v (α equal: %v)", mb, res.Iter, res.Rho, ref.Iter, ref.Rho, slices.Equal(pr.Alpha, refAlpha))
		}
	}
}

// randomSymmetric returns an l×l symmetric matrix of standard normal
// entries drawn from r, row-major.
func randomSymmetric(r *rand.Rand, l int) []float64 {
	k := make([]float64, l*l)
	for i := range l {
		for j := range i + 1 {
			v := r.NormFloat64()
			k[i*l+j], k[j*l+i] = v, v
		}
	}
	return k
}

// TestCacheSwaps: after any sequence of swap batches (with repeated
// positions, i = j, pairs beyond a column's length) every column read holds
// the source's values at the current positions, for budgets that evict and
// budgets that do not, with and without WholeColumns (whose buffers all
// hold l values).
func TestCacheSwaps(t *testing.T) {
	const l = 60
	r := rand.New(rand.NewPCG(8, 1))
	k := randomSymmetric(r, l)
	src := &DenseGram{Data: k, Stride: l, N: l, Mirrored: true}
	rows := make([]int, l)
	for i := range rows {
		rows[i] = i
	}
	for run, mb := range []float64{0, 1, 0, 1} {
		c := NewCache(src, rows, mb)
		whole := run >= 2
		if whole {
			c.WholeColumns()
		}
		for step := range 3000 {
			if r.IntN(4) == 0 {
				var pairs []int32
				for range r.IntN(3 * l) {
					i := int32(r.IntN(l))
					j := i
					if r.IntN(10) > 0 {
						j = int32(r.IntN(l))
					}
					pairs = append(pairs, i, j)
				}
				c.swapMany(pairs)
				continue
			}
			i, n := r.IntN(l), 1+r.IntN(l)
			col := c.column(i, n)
			if len(col) != n || (whole && cap(col) != l) {
				t.Fatalf("mb %g step %d: column(%d, %d) has %d entries (capacity %d, whole columns %v)", mb, step, i, n, len(col), cap(col), whole)
			}
			for p, v := range col {
				if want := float32(k[c.pos[i]*l+c.pos[p]]); v != want {
					t.Fatalf("mb %g step %d: column %d entry %d = %v, want K(%d, %d) = %v", mb, step, i, p, v, c.pos[i], c.pos[p], want)
				}
			}
		}
	}
}

// TestCacheLend: a cache lent the matrix of its variables (Lend) reads the
// same values as one that fills every column, through swap batches (the
// log's overflow included), evictions, longer requests, Reset (lending
// again) and Release (lending stopped), for budgets that evict and budgets
// that do not, with and without WholeColumns; the lent matrix is never
// written.
func TestCacheLend(t *testing.T) {
	const l = 60
	r := rand.New(rand.NewPCG(9, 1))
	k := randomSymmetric(r, l)
	src := &DenseGram{Data: k, Stride: l, N: l, Mirrored: true}
	rows := r.Perm(l) // variables in another order than the source's rows
	base := make([]float32, l*l)
	for a, ra := range rows {
		for b, rb := range rows {
			base[a*l+b] = float32(k[ra*l+rb])
		}
	}
	orig := slices.Clone(base)
	lentReads := 0
	for run, mb := range []float64{0, 1, 0, 1} {
		c := NewCache(src, rows, mb)
		if run >= 2 {
			c.WholeColumns()
		}
		c.Lend(base)
		// No Reset in the first half: enough swaps to overflow the log.
		for step := range 8000 {
			switch op := r.IntN(100); {
			case op < 2 && step >= 4000:
				c.Reset()
				c.Lend(base)
				continue
			case op == 2 && run%2 == 1 && step >= 4000:
				c.Release()
				continue
			case op < 22:
				// Mostly among the last positions (as shrinking swaps),
				// which leave short lent columns lent.
				lo := l - l/4
				if r.IntN(4) == 0 {
					lo = 0
				}
				var pairs []int32
				for range r.IntN(3 * l) {
					i := int32(lo + r.IntN(l-lo))
					j := i
					if r.IntN(10) > 0 {
						j = int32(lo + r.IntN(l-lo))
					}
					pairs = append(pairs, i, j)
				}
				c.swapMany(pairs)
				continue
			}
			i, n := r.IntN(l), 1+r.IntN(l)
			if r.IntN(2) == 0 {
				n = 1 + r.IntN(l-l/4)
			}
			col := c.column(i, n)
			if len(col) != n {
				t.Fatalf("mb %g step %d: column(%d, %d) has %d entries", mb, step, i, n, len(col))
			}
			if c.heads[i].lent {
				lentReads++
			}
			for p, v := range col {
				if want := float32(k[c.pos[i]*l+c.pos[p]]); v != want {
					t.Fatalf("mb %g step %d: column %d entry %d = %v, want K(%d, %d) = %v", mb, step, i, p, v, c.pos[i], c.pos[p], want)
				}
			}
		}
	}
	if !slices.Equal(base, orig) {
		t.Fatal("the lent matrix was written")
	}
	if lentReads < 1000 {
		t.Fatalf("%d reads of lent columns: the test does not exercise lending", lentReads)
	}
}

// TestCacheFreeReuse: slabs handed back by Free and taken by the next
// cache (or the same cache again) hold stale columns of another problem;
// they are overwritten before being read, so a solve on reused memory
// equals the first solve bit for bit. (A cache solved on again keeps the
// permutation its shrinking left, so it is compared by a new cache.)
// n = 1500 makes the slabs full-size (the only ones Free pools).
func TestCacheFreeReuse(t *testing.T) {
	src, y := benchProblem(1500)
	n := len(y)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	solve := func(q *Cache, yy []int8) ([]float64, Result) {
		pr := &Problem{Q: q, P: make([]float64, n), Y: yy, C: make([]float64, n), Alpha: make([]float64, n), Tol: 1e-3, Shrink: true}
		for i := range pr.P {
			pr.P[i], pr.C[i] = -1, 10
		}
		res, err := Solve(context.Background(), pr)
		if err != nil {
			t.Fatal(err)
		}
		return pr.Alpha, res
	}
	q := NewCache(src, rows, 200)
	refAlpha, ref := solve(q, y)
	if len(q.slabs) == 0 {
		t.Fatal("no full-size slab was carved")
	}
	q.Free()
	if q.lru.next != sentinel || len(q.slabs) != 0 || q.budget != q.budget0 {
		t.Fatalf("after Free: lru %d, %d slabs, budget %d of %d", q.lru.next, len(q.slabs), q.budget, q.budget0)
	}
	// Another problem on fresh or pooled memory, then the first one again
	// on new caches.
	flip := slices.Clone(y)
	for i := range flip {
		flip[i] = -flip[i]
	}
	other := NewCache(src, rows, 200)
	solve(other, flip)
	other.Free()
	for k := range 2 {
		c := NewCache(src, rows, 200)
		alpha, res := solve(c, y)
		if res.Iter != ref.Iter || res.Rho != ref.Rho || !slices.Equal(alpha, refAlpha) {
			t.Errorf("solve %d on reused memory: iter %d ρ %v; first: iter %d ρ %v", k, res.Iter, res.Rho, ref.Iter, ref.Rho)
		}
		c.Free()
	}
}

// TestReleaseSlabRest: a cache of whole columns hands back, besides its
// columns, the unused rest of its last slab cut into whole columns; every
// buffer holds l values, no two share memory, and the next cache needs no
// new memory for as many columns.
func TestReleaseSlabRest(t *testing.T) {
	const l = 1500 // full-size slabs of 1,398 columns
	k := make([]float64, l*l)
	for i := range l {
		k[i*l+i] = 1
	}
	src := &DenseGram{Data: k, Stride: l, N: l, Mirrored: true}
	rows := make([]int, l)
	for i := range rows {
		rows[i] = i
	}
	c := NewCache(src, rows, 200)
	c.WholeColumns()
	const used = 1400 // one full slab and part of a second
	for i := range used {
		c.column(i, 10)
	}
	bufs := c.Release()
	// Slabs add up to l² values: a full one and the rest.
	if want := slabFloats/l + (l*l-slabFloats)/l; len(bufs) != want {
		t.Fatalf("Release returned %d buffers, want %d (both slabs in whole columns)", len(bufs), want)
	}
	type span struct{ lo, hi uintptr }
	var spans []span
	for _, b := range bufs {
		if len(b) != 0 || cap(b) != l {
			t.Fatalf("a buffer of length %d and capacity %d, want 0 and %d", len(b), cap(b), l)
		}
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(b[:1])))
		spans = append(spans, span{lo, lo + 4*l})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	for k := 1; k < len(spans); k++ {
		if spans[k].lo < spans[k-1].hi {
			t.Fatalf("buffers overlap: [%#x, %#x) and [%#x, %#x)", spans[k-1].lo, spans[k-1].hi, spans[k].lo, spans[k].hi)
		}
	}
	// The next cache takes them all and needs no new memory.
	d := NewCache(src, rows, 200)
	d.WholeColumns()
	if rest := d.Adopt(bufs); len(rest) != 0 {
		t.Fatalf("Adopt left %d buffers", len(rest))
	}
	for i := range len(bufs) {
		d.column(i, l)
	}
	if len(d.slabs) != 0 || d.slab != nil {
		t.Fatalf("the second cache carved %d slabs", len(d.slabs))
	}
}
