package svm

import (
	"runtime"
	"sync"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// qMatrix is what the SMO core needs of the problem's kernel: columns of
// K restricted to the current (permuted) variable order, the diagonal in the
// same order, and the swap that the shrinking heuristic uses to keep the
// active variables in a prefix. The core works in "unsigned" form (K, not
// Q = y yᵀ∘K; see solver.go), so one cached column serves every label
// vector.
type qMatrix interface {
	// column returns K(v_i, v_k) for k in [0, n), rounded to float32 as
	// LIBSVM's Qfloat, where v_k is the variable at position k. The slice
	// stays valid until the second following call of column.
	column(i, n int) []float32
	// diag returns K(v_k, v_k) for every position k (swapped by swap).
	diag() []float64
	// swap exchanges the variables at positions i and j.
	swap(i, j int)
	// swapMany applies the swaps (pairs[2k], pairs[2k+1]) in order; it is
	// equivalent to calling swap for each pair but touches each cached
	// column once.
	swapMany(pairs []int32)
}

// source computes kernel values between rows of some underlying data set.
type source interface {
	// fill sets dst[t] = float32(K(r, cols[t])).
	fill(dst []float32, r int, cols []int)
	// fill64 sets dst[t] = K(r, cols[t]).
	fill64(dst []float64, r int, cols []int)
	// at returns K(r, c).
	at(r, c int) float64
}

// denseGram is a Gram matrix held in a *mat.SymDense. When its backing
// store also holds the lower triangle (kernel.Gram mirrors it), rows are
// read in place: column r of K is row r of the store. Otherwise the lower
// part is read from the upper triangle (strided).
type denseGram struct {
	data     []float64
	stride   int
	n        int
	mirrored bool
}

func (g *denseGram) at(r, c int) float64 {
	if c < r && !g.mirrored {
		r, c = c, r
	}
	return g.data[r*g.stride+c]
}

func (g *denseGram) fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	row := g.data[r*g.stride : r*g.stride+g.n]
	if g.mirrored {
		for t, c := range cols {
			dst[t] = float32(row[c])
		}
		return
	}
	for t, c := range cols {
		if c >= r {
			dst[t] = float32(row[c])
		} else {
			dst[t] = float32(g.data[c*g.stride+r])
		}
	}
}

func (g *denseGram) fill64(dst []float64, r int, cols []int) {
	dst = dst[:len(cols)]
	if g.mirrored {
		row := g.data[r*g.stride : r*g.stride+g.n]
		for t, c := range cols {
			dst[t] = row[c]
		}
		return
	}
	for t, c := range cols {
		dst[t] = g.at(r, c)
	}
}

// symGram is any other mat.Symmetric (one interface call per entry, only
// on cache misses).
type symGram struct{ m mat.Symmetric }

func (g symGram) at(r, c int) float64 { return g.m.At(r, c) }
func (g symGram) fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	for t, c := range cols {
		dst[t] = float32(g.m.At(r, c))
	}
}
func (g symGram) fill64(dst []float64, r int, cols []int) {
	dst = dst[:len(cols)]
	for t, c := range cols {
		dst[t] = g.m.At(r, c)
	}
}

// points evaluates a kernel.Kernel on the rows of a row-major matrix.
// Columns with len·(d+8) ≥ parWork are computed by GOMAXPROCS goroutines
// over fixed contiguous chunks; every entry is computed by the same scalar
// code, so results do not depend on the number of workers.
type points struct {
	x      []float64
	d      int
	stride int
	k      kernel.Kernel
}

func (p *points) row(r int) []float64 { return p.x[r*p.stride : r*p.stride+p.d] }

func (p *points) at(r, c int) float64 { return p.k.Eval(p.row(r), p.row(c)) }

// parWork is the work (about len·(d+8) flops) above which a column is
// computed in parallel.
const parWork = 1 << 15

func (p *points) fill64(dst []float64, r int, cols []int) {
	p.fillSerial(dst[:len(cols)], r, cols)
}

// fill splits cols into one static range per worker, the first run on the
// calling goroutine. It does not use internal/parallel: it runs once per
// kernel column inside SMO, where a fixed split with no shared counter or
// context checks keeps the per-column overhead lowest. Each range writes
// only its own dst entries, so the column does not depend on GOMAXPROCS.
func (p *points) fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	w := runtime.GOMAXPROCS(0)
	if w == 1 || len(cols)*(p.d+8) < parWork {
		p.fillSerial32(dst, r, cols)
		return
	}
	chunk := (len(cols) + w - 1) / w
	var wg sync.WaitGroup
	for s := chunk; s < len(cols); s += chunk {
		e := min(s+chunk, len(cols))
		wg.Add(1)
		go func(s, e int) {
			defer wg.Done()
			p.fillSerial32(dst[s:e], r, cols[s:e])
		}(s, e)
	}
	p.fillSerial32(dst[:chunk], r, cols[:chunk]) // first chunk on this goroutine
	wg.Wait()
}

func (p *points) fillSerial32(dst []float32, r int, cols []int) {
	const chunk = 256
	var buf [chunk]float64
	for s := 0; s < len(cols); s += chunk {
		e := min(s+chunk, len(cols))
		b := buf[:e-s]
		p.fillSerial(b, r, cols[s:e])
		for t, v := range b {
			dst[s+t] = float32(v)
		}
	}
}

// fillSerial dispatches once on the concrete kernel type so that the loop
// makes static (inlinable) calls for the kernels of package kernel.
func (p *points) fillSerial(dst []float64, r int, cols []int) {
	xr := p.row(r)
	switch k := p.k.(type) {
	case kernel.RBF:
		for t, c := range cols {
			dst[t] = k.Eval(xr, p.row(c))
		}
	case kernel.Linear:
		for t, c := range cols {
			dst[t] = k.Eval(xr, p.row(c))
		}
	case kernel.Laplacian:
		for t, c := range cols {
			dst[t] = k.Eval(xr, p.row(c))
		}
	case kernel.Exponential:
		for t, c := range cols {
			dst[t] = k.Eval(xr, p.row(c))
		}
	case kernel.Poly:
		for t, c := range cols {
			dst[t] = k.Eval(xr, p.row(c))
		}
	default:
		for t, c := range cols {
			dst[t] = k.Eval(xr, p.row(c))
		}
	}
}

// colCache is the LRU kernel-column cache of the SMO core: LIBSVM's Cache
// with columns kept in the solver's permuted variable order. Column i may be
// cached with any length; a longer request computes only the missing tail.
// swap(i, j) exchanges entries i and j of every cached column and drops the
// columns that hold i but not j (as LIBSVM does). Memory used by columns is
// bounded by budget float32 values (at least three full columns: two
// pinned by the caller and one being extended).
type colCache struct {
	src   source
	pos   []int // pos[k] = source row of the variable at position k
	qd    []float64
	l     int
	heads []cacheHead
	lru   cacheHead // sentinel of the circular LRU list (most recent at lru.prev)

	budget int // float64 values still available
	free   [][]float32
}

type cacheHead struct {
	prev, next int32 // positions in heads; -1 = lru sentinel
	data       []float32
	cached     bool
}

const sentinel = -1

// newColCache returns the Q-matrix of the variables whose source rows are
// rows (in that order), with a budget of mb megabytes.
func newColCache(src source, rows []int, mb float64) *colCache {
	l := len(rows)
	c := &colCache{src: src, l: l, pos: append([]int(nil), rows...)}
	c.qd = make([]float64, l)
	for k, r := range c.pos {
		c.qd[k] = src.at(r, r)
	}
	c.heads = make([]cacheHead, l)
	c.lru.prev, c.lru.next = sentinel, sentinel
	b := int(mb * (1 << 20) / 4)
	c.budget = max(b, 3*l)
	return c
}

func (c *colCache) diag() []float64 { return c.qd }

func (c *colCache) head(h int32) *cacheHead {
	if h == sentinel {
		return &c.lru
	}
	return &c.heads[h]
}

func (c *colCache) unlink(i int32) {
	h := &c.heads[i]
	c.head(h.prev).next = h.next
	c.head(h.next).prev = h.prev
}

func (c *colCache) pushBack(i int32) {
	h := &c.heads[i]
	last := c.lru.prev
	h.prev, h.next = last, sentinel
	c.head(last).next = i
	c.lru.prev = i
}

// evictFront drops the least recently used column; it reports false when
// nothing is cached.
func (c *colCache) evictFront() bool {
	i := c.lru.next
	if i == sentinel {
		return false
	}
	c.unlink(i)
	h := &c.heads[i]
	c.free = append(c.free, h.data[:0])
	h.data, h.cached = nil, false
	return true
}

// alloc returns a buffer with capacity ≥ n, reusing dropped columns.
func (c *colCache) alloc(n int) []float32 {
	for {
		for k := len(c.free) - 1; k >= 0; k-- {
			if b := c.free[k]; cap(b) >= n {
				c.free[k] = c.free[len(c.free)-1]
				c.free = c.free[:len(c.free)-1]
				return b[:n]
			}
		}
		if c.budget >= n {
			c.budget -= n
			return make([]float32, n)
		}
		if len(c.free) > 0 {
			// Free buffers are all too small: return their memory.
			for _, b := range c.free {
				c.budget += cap(b)
			}
			c.free = c.free[:0]
			continue
		}
		if !c.evictFront() {
			// Unreachable: the budget covers three full columns and the
			// caller pins at most two.
			panic("svm: column cache budget exhausted")
		}
	}
}

func (c *colCache) column(i, n int) []float32 {
	h := &c.heads[i]
	if h.cached {
		c.unlink(int32(i))
		have := len(h.data)
		if have >= n {
			c.pushBack(int32(i))
			return h.data[:n]
		}
		if cap(h.data) < n {
			nb := c.alloc(n)
			copy(nb, h.data)
			c.free = append(c.free, h.data[:0])
			h.data = nb
		} else {
			h.data = h.data[:n]
		}
		c.src.fill(h.data[have:n], c.pos[i], c.pos[have:n])
		c.pushBack(int32(i))
		return h.data
	}
	h.data = c.alloc(n)
	h.cached = true
	c.src.fill(h.data, c.pos[i], c.pos[:n])
	c.pushBack(int32(i))
	return h.data
}

func (c *colCache) swap(i, j int) {
	if i == j {
		return
	}
	if i > j {
		i, j = j, i
	}
	c.pos[i], c.pos[j] = c.pos[j], c.pos[i]
	c.qd[i], c.qd[j] = c.qd[j], c.qd[i]
	hi, hj := &c.heads[i], &c.heads[j]
	if hi.cached {
		c.unlink(int32(i))
	}
	if hj.cached {
		c.unlink(int32(j))
	}
	hi.data, hj.data = hj.data, hi.data
	hi.cached, hj.cached = hj.cached, hi.cached
	if hi.cached {
		c.pushBack(int32(i))
	}
	if hj.cached {
		c.pushBack(int32(j))
	}
	for h := c.lru.next; h != sentinel; {
		e := &c.heads[h]
		next := e.next
		if len(e.data) > i {
			if len(e.data) > j {
				e.data[i], e.data[j] = e.data[j], e.data[i]
			} else {
				c.unlink(h)
				c.free = append(c.free, e.data[:0])
				e.data, e.cached = nil, false
			}
		}
		h = next
	}
}

func (c *colCache) swapMany(pairs []int32) {
	if len(pairs) == 0 {
		return
	}
	// 1. Permute the entries of every cached column, column by column
	// (cache friendly), applying LIBSVM's rule per swap: a column holding
	// i but not j is dropped.
	for h := c.lru.next; h != sentinel; {
		e := &c.heads[h]
		next := e.next
		d := e.data
		n := int32(len(d))
		for k := 0; k < len(pairs); k += 2 {
			i, j := pairs[k], pairs[k+1]
			if i > j {
				i, j = j, i
			}
			if i == j || n <= i {
				continue
			}
			if n <= j {
				c.unlink(h)
				c.free = append(c.free, e.data[:0])
				e.data, e.cached = nil, false
				break
			}
			d[i], d[j] = d[j], d[i]
		}
		h = next
	}
	// 2. Move the columns themselves, and the variable order.
	for k := 0; k < len(pairs); k += 2 {
		i, j := int(pairs[k]), int(pairs[k+1])
		if i == j {
			continue
		}
		c.pos[i], c.pos[j] = c.pos[j], c.pos[i]
		c.qd[i], c.qd[j] = c.qd[j], c.qd[i]
		hi, hj := &c.heads[i], &c.heads[j]
		if hi.cached {
			c.unlink(int32(i))
		}
		if hj.cached {
			c.unlink(int32(j))
		}
		hi.data, hj.data = hj.data, hi.data
		hi.cached, hj.cached = hj.cached, hi.cached
		if hi.cached {
			c.pushBack(int32(i))
		}
		if hj.cached {
			c.pushBack(int32(j))
		}
	}
}
