package smo

import (
	"runtime"
	"sync"

	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Source computes kernel values between rows of some underlying data set
// (a Gram matrix, points with a kernel, a subset of another Source). Fill
// is never called concurrently on one Source by the solver.
type Source interface {
	// Fill sets dst[t] = float32(K(r, cols[t])).
	Fill(dst []float32, r int, cols []int)
	// Fill64 sets dst[t] = K(r, cols[t]).
	Fill64(dst []float64, r int, cols []int)
	// At returns K(r, c).
	At(r, c int) float64
}

// DenseGram is a Gram matrix held in a *mat.SymDense. When its backing
// store also holds the lower triangle (kernel.Gram mirrors it), rows are
// read in place: column r of K is row r of the store. Otherwise the lower
// part is read from the upper triangle (strided).
type DenseGram struct {
	Data     []float64
	Stride   int
	N        int
	Mirrored bool
}

func (g *DenseGram) At(r, c int) float64 {
	if c < r && !g.Mirrored {
		r, c = c, r
	}
	return g.Data[r*g.Stride+c]
}

func (g *DenseGram) Fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	row := g.Data[r*g.Stride : r*g.Stride+g.N]
	if g.Mirrored {
		for t, c := range cols {
			dst[t] = float32(row[c])
		}
		return
	}
	for t, c := range cols {
		if c >= r {
			dst[t] = float32(row[c])
		} else {
			dst[t] = float32(g.Data[c*g.Stride+r])
		}
	}
}

func (g *DenseGram) Fill64(dst []float64, r int, cols []int) {
	dst = dst[:len(cols)]
	if g.Mirrored {
		row := g.Data[r*g.Stride : r*g.Stride+g.N]
		for t, c := range cols {
			dst[t] = row[c]
		}
		return
	}
	for t, c := range cols {
		dst[t] = g.At(r, c)
	}
}

// SymGram is any other mat.Symmetric (one interface call per entry, only
// on cache misses).
type SymGram struct{ M mat.Symmetric }

func (g SymGram) At(r, c int) float64 { return g.M.At(r, c) }
func (g SymGram) Fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	for t, c := range cols {
		dst[t] = float32(g.M.At(r, c))
	}
}
func (g SymGram) Fill64(dst []float64, r int, cols []int) {
	dst = dst[:len(cols)]
	for t, c := range cols {
		dst[t] = g.M.At(r, c)
	}
}

// Points evaluates a kernel.Kernel on the rows of a row-major matrix.
// Columns with len·(d+8) ≥ parWork are computed by GOMAXPROCS goroutines
// over fixed contiguous chunks; every entry is computed by the same scalar
// code, so results do not depend on the number of workers.
type Points struct {
	X      []float64
	D      int
	Stride int
	K      kernel.Kernel
}

func (p *Points) row(r int) []float64 { return p.X[r*p.Stride : r*p.Stride+p.D] }

func (p *Points) At(r, c int) float64 { return p.K.Eval(p.row(r), p.row(c)) }

// parWork is the work (about len·(d+8) flops) above which a column is
// computed in parallel.
const parWork = 1 << 15

func (p *Points) Fill64(dst []float64, r int, cols []int) {
	p.fillSerial(dst[:len(cols)], r, cols)
}

// fill splits cols into one static range per worker, the first run on the
// calling goroutine. It does not use internal/parallel: it runs once per
// kernel column inside SMO, where a fixed split with no shared counter or
// context checks keeps the per-column overhead lowest. Each range writes
// only its own dst entries, so the column does not depend on GOMAXPROCS.
func (p *Points) Fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	w := runtime.GOMAXPROCS(0)
	if w == 1 || len(cols)*(p.D+8) < parWork {
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

func (p *Points) fillSerial32(dst []float32, r int, cols []int) {
	if k, ok := p.K.(kernel.Column32); ok {
		k.Column32(dst, p.row(r), p.X, p.Stride, cols)
		return
	}
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
func (p *Points) fillSerial(dst []float64, r int, cols []int) {
	xr := p.row(r)
	switch k := p.K.(type) {
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

// Cache is the LRU kernel-column cache of the SMO core: LIBSVM's Cache
// with columns kept in the solver's permuted variable order. Column i may be
// cached with any length; a longer request computes only the missing tail.
// swap(i, j) exchanges entries i and j of every cached column and drops the
// columns that hold i but not j (as LIBSVM does); the entries of a column
// are exchanged when it is next read (swaps are logged, and each column
// knows how much of the log it has seen), so a column not read again costs
// nothing. Memory used by columns is
// bounded by budget float32 values (at least three full columns: two
// pinned by the caller and one being extended).
type Cache struct {
	src  Source
	pos  []int // pos[k] = source row of the variable at position k
	vars []int // vars[k] = variable index (position in NewCache's rows) at position k
	qd   []float64
	// pos0 and qd0 are pos and qd in variable order (for Reset).
	pos0  []int
	qd0   []float64
	l     int
	heads []cacheHead
	lru   cacheHead // sentinel of the circular LRU list (most recent at lru.prev)

	budget   int // float64 values still available
	free     [][]float32
	slab     []float32   // the unused rest of the last slab (see carve)
	slabLeft int         // float32 values that later slabs may still take
	slabs    [][]float32 // the full-size slabs carved so far (for Free)
	budget0  int         // the initial budget (for Free)

	whole bool // see WholeColumns

	// base, if set (Lend), holds every column in NewCache's order; ident
	// reports that the variables are in that order (no swap since
	// NewCache or Reset), so that a new column can be read from it.
	base  []float32
	ident bool

	// log holds the swaps (i < j) of swapMany in order; a cached column
	// has had log[:seq] applied to it (see catchUp).
	log []int32

	team *parallel.Team // set by Solve while it runs (nil: Source.Fill)
	// serial: the solver found the machine too busy for helpers (see
	// team.go); columns are then computed on the calling goroutine too.
	serial bool
}

type cacheHead struct {
	prev, next int32 // positions in heads; -1 = lru sentinel
	data       []float32
	cached     bool
	// lent: data is part of the cache's base (read only, not counted in
	// the budget, never put on the free list).
	lent bool
	seq  int32 // len(log) when data was last brought up to date
}

const sentinel = -1

// NewCache returns the Q-matrix of the variables whose source rows are
// rows (in that order), with a budget of mb megabytes. Variable k of every
// Problem solved on it is the source row rows[k]. A Cache serves any number
// of Solve calls in turn (any labels, bounds and linear terms): shrinking
// leaves its positions permuted and the next Solve starts from that
// permutation, so cached columns stay valid across solves. A Cache is not
// safe for concurrent use.
func NewCache(src Source, rows []int, mb float64) *Cache {
	c := new(Cache)
	c.init(src, rows, mb)
	return c
}

// Renew makes c the cache NewCache(src, rows, mb) returns, reusing the
// memory of its per-variable arrays (positions, diagonal, list entries)
// when they are large enough. c must hold no column (call Release first);
// it forgets its slabs (a later Free does not pool them) and WholeColumns.
func (c *Cache) Renew(src Source, rows []int, mb float64) {
	c.init(src, rows, mb)
}

// init sets c up as NewCache describes, taking the memory of c's arrays
// where it suffices.
func (c *Cache) init(src Source, rows []int, mb float64) {
	l := len(rows)
	old := *c
	*c = Cache{src: src, l: l, pos: append(old.pos[:0], rows...), vars: resized(old.vars, l),
		qd: resized(old.qd, l), heads: resized(old.heads, l), log: old.log[:0], ident: true}
	for k := range c.vars {
		c.vars[k] = k
	}
	for k, r := range c.pos {
		c.qd[k] = src.At(r, r)
	}
	c.pos0, c.qd0 = append(old.pos0[:0], c.pos...), append(old.qd0[:0], c.qd...)
	clear(c.heads)
	c.lru.prev, c.lru.next = sentinel, sentinel
	b := int(mb * (1 << 20) / 4)
	c.budget = max(b, 3*l)
	c.budget0 = c.budget
	c.slabLeft = min(c.budget, l*l)
}

// resized returns s with length n (its contents unspecified): s's memory
// when its capacity allows, else new memory.
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (c *Cache) diag() []float64 { return c.qd }

// Len is the number of variables.
func (c *Cache) Len() int { return c.l }

func (c *Cache) head(h int32) *cacheHead {
	if h == sentinel {
		return &c.lru
	}
	return &c.heads[h]
}

func (c *Cache) unlink(i int32) {
	h := &c.heads[i]
	c.head(h.prev).next = h.next
	c.head(h.next).prev = h.prev
}

func (c *Cache) pushBack(i int32) {
	h := &c.heads[i]
	last := c.lru.prev
	h.prev, h.next = last, sentinel
	c.head(last).next = i
	c.lru.prev = i
}

// evictFront drops the least recently used column; it reports false when
// nothing is cached.
func (c *Cache) evictFront() bool {
	i := c.lru.next
	if i == sentinel {
		return false
	}
	c.unlink(i)
	c.drop(&c.heads[i])
	return true
}

// alloc returns a buffer with capacity ≥ n, reusing dropped columns.
func (c *Cache) alloc(n int) []float32 {
	if c.whole {
		return c.allocN(c.l)[:n]
	}
	return c.allocN(n)
}

// WholeColumns makes every column buffer the cache takes hold a whole
// column (l values, charged to the budget as such): a column then never
// moves to a longer buffer, and every buffer it hands back (Release) fits
// any column of another cache of the same size (Adopt), so a sequence of
// such caches runs on the same memory.
func (c *Cache) WholeColumns() { c.whole = true }

func (c *Cache) allocN(n int) []float32 {
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
			return c.carve(n)
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
			panic("smo: column cache budget exhausted")
		}
	}
}

// slabFloats is the size of a slab (8 MiB), the unit in which carve
// allocates memory for new columns.
const slabFloats = 1 << 21

// carve returns a new column buffer of length and capacity n. Buffers are
// cut from slabs of up to 8 MiB, asked of the OS as huge pages where it
// offers them (internal/hugepage, for slabs of 4 MiB or more): one page fault per 2 MiB instead of one per 4 KiB, which is
// a large part of the cost of filling the cache in a fresh process. Slabs
// add up to at most the initial budget (and l² values); after that,
// buffers are allocated one by one. A buffer dropped to make room is
// counted as returned (as before) although its slab stays allocated while
// other buffers of it live, so memory stays below twice the budget.
func (c *Cache) carve(n int) []float32 {
	if len(c.slab) < n {
		if rest := c.slab; len(rest) > 0 && len(rest) <= c.budget && !c.whole {
			// Counted like any other buffer, then kept for shorter columns
			// (with WholeColumns every buffer holds l values: the rest,
			// shorter, is left unused).
			c.budget -= len(rest)
			c.free = append(c.free, rest[:0:len(rest)])
		}
		c.slab = nil
		size := min(slabFloats, c.slabLeft)
		if size < n {
			return make([]float32, n)
		}
		c.slab = newSlab(size)
		if size == slabFloats {
			c.slabs = append(c.slabs, c.slab)
		}
		c.slabLeft -= size
	}
	b := c.slab[:n:n]
	c.slab = c.slab[n:]
	return b
}

// slabPool holds full-size slabs of caches that were freed (Cache.Free),
// for the next cache: a sequence of fits (repeated fits, a sweep over
// kernel widths) reuses memory that is already mapped instead of having
// new slabs zeroed or faulted in page by page. A slab's contents are never
// read before they are overwritten, so reuse cannot change a result.
var slabPool = sync.Pool{}

// newSlab returns a slab of size float32 values: a pooled one when size is
// slabFloats and one is available, otherwise new memory.
func newSlab(size int) []float32 {
	if size == slabFloats {
		if p, ok := slabPool.Get().(*[]float32); ok {
			return *p
		}
	}
	return hugepage.Float32s(size)
}

// Free empties the cache and hands its full-size slabs to the next cache
// that needs memory. The caller must hold no column of c (every column
// returned so far may be overwritten); c stays usable and allocates anew.
func (c *Cache) Free() {
	c.Release()
	for _, s := range c.slabs {
		s = s[:slabFloats:slabFloats]
		slabPool.Put(&s)
	}
	c.slabs, c.slab = nil, nil
	c.budget = c.budget0
	c.slabLeft = min(c.budget, c.l*c.l)
}

// drop forgets the data of h (already unlinked from the LRU list), its
// buffer to the free list unless lent.
func (c *Cache) drop(h *cacheHead) {
	if !h.lent {
		c.free = append(c.free, h.data[:0])
	}
	h.data, h.cached, h.lent = nil, false, false
}

// Lend gives the cache base, every column of its variables in NewCache's
// order: base[a·l+b] = K(rows[a], rows[b]) for NewCache's rows, the values
// Source.Fill gives. While the variables are in that order (after NewCache
// or Reset, until shrinking first swaps two of them) a column is read from
// base in place instead of being filled, and a lent column is copied into
// a buffer of the cache's own before a swap changes its entries. The cache
// only reads base; a lent column takes nothing from the budget. nil stops
// the lending (for the columns read afterwards). The caller keeps base
// unchanged while the cache may hold parts of it (until Reset or Release,
// or another Lend followed by either).
func (c *Cache) Lend(base []float32) {
	if base != nil && len(base) != c.l*c.l {
		panic("smo: Lend: base is not l×l")
	}
	c.base = base
}

func (c *Cache) column(i, n int) []float32 {
	h := &c.heads[i]
	if h.cached {
		c.unlink(int32(i))
		if int(h.seq) != len(c.log) {
			c.catchUp(int32(i), false)
		}
	}
	if h.cached {
		have := len(h.data)
		if have >= n {
			c.pushBack(int32(i))
			return h.data[:n]
		}
		if h.lent && c.ident {
			h.data = c.base[i*c.l : i*c.l+n : i*c.l+n]
			c.pushBack(int32(i))
			return h.data
		}
		if cap(h.data) < n || h.lent {
			nb := c.alloc(n)
			copy(nb, h.data)
			if !h.lent {
				c.free = append(c.free, h.data[:0])
			}
			h.data, h.lent = nb, false
		} else {
			h.data = h.data[:n]
		}
		c.fill(h.data[have:n], c.pos[i], c.pos[have:n])
		c.pushBack(int32(i))
		return h.data
	}
	h.cached, h.seq = true, int32(len(c.log))
	if c.base != nil && c.ident {
		h.data, h.lent = c.base[i*c.l:i*c.l+n:i*c.l+n], true
	} else {
		h.data = c.alloc(n)
		c.fill(h.data, c.pos[i], c.pos[:n])
	}
	c.pushBack(int32(i))
	return h.data
}

// fill computes a column: through the solver's team for a long column of
// a Points source (each entry is computed by the same code whoever runs
// its chunk), otherwise by the source.
func (c *Cache) fill(dst []float32, r int, cols []int) {
	if p, ok := c.src.(*Points); ok && c.team != nil && len(cols)*(p.D+8) >= parWork {
		nc := c.team.Workers() * chunksPerWorker
		c.team.Run(nc, func(k int) {
			lo, hi := chunkRange(k, nc, len(cols))
			p.fillSerial32(dst[lo:hi], r, cols[lo:hi])
		})
		return
	}
	if p, ok := c.src.(*Points); ok && c.serial {
		p.fillSerial32(dst, r, cols)
		return
	}
	c.src.Fill(dst, r, cols)
}

func (c *Cache) swap(i, j int) { c.swapMany([]int32{int32(i), int32(j)}) }

// catchUp applies the swaps logged since column h was last brought up to
// date, in order, with LIBSVM's rule per swap: entries i and j exchanged
// when the column holds both, the column dropped when it holds i but not
// j. A lent column is first copied into a buffer of the cache's own; it
// must not be in the LRU list (linked false: the caller unlinked it), so
// that making room for the copy cannot evict it.
func (c *Cache) catchUp(h int32, linked bool) {
	e := &c.heads[h]
	d := e.data
	n := int32(len(d))
	for k := int(e.seq); k+1 < len(c.log); k += 2 {
		i, j := c.log[k], c.log[k+1]
		if n > j {
			if e.lent {
				if linked {
					panic("smo: catchUp: lent column in the LRU list")
				}
				nb := c.alloc(len(d))
				copy(nb, d)
				d, e.data, e.lent = nb, nb, false
			}
			d[i], d[j] = d[j], d[i]
		} else if n > i {
			if linked {
				c.unlink(h)
			}
			c.drop(e)
			return
		}
	}
	e.seq = int32(len(c.log))
}

// maxLog bounds the swap log (entries): beyond it (and beyond 8l) every
// cached column is brought up to date and the log restarts.
const maxLog = 1 << 16

// swapMany applies the swaps (pairs of positions, in order): the entries
// of the cached columns through the log (see catchUp), the columns
// themselves and the variable order at once.
func (c *Cache) swapMany(pairs []int32) {
	if len(c.log)+len(pairs) > max(maxLog, 8*c.l) {
		// Lent columns are dropped (a copy could evict the columns this
		// loop is about to visit); the others are brought up to date.
		for h := c.lru.next; h != sentinel; {
			e := &c.heads[h]
			next := e.next
			if e.lent {
				c.unlink(h)
				c.drop(e)
			} else if int(e.seq) != len(c.log) {
				c.catchUp(h, true)
			}
			h = next
		}
		c.log = c.log[:0]
		for h := c.lru.next; h != sentinel; h = c.heads[h].next {
			c.heads[h].seq = 0
		}
	}
	for k := 0; k+1 < len(pairs); k += 2 {
		i, j := pairs[k], pairs[k+1]
		if i == j {
			continue
		}
		if i > j {
			i, j = j, i
		}
		c.ident = false
		c.log = append(c.log, i, j)
		c.pos[i], c.pos[j] = c.pos[j], c.pos[i]
		c.vars[i], c.vars[j] = c.vars[j], c.vars[i]
		c.qd[i], c.qd[j] = c.qd[j], c.qd[i]
		hi, hj := &c.heads[i], &c.heads[j]
		if hi.cached {
			c.unlink(i)
		}
		if hj.cached {
			c.unlink(j)
		}
		hi.data, hj.data = hj.data, hi.data
		hi.cached, hj.cached = hj.cached, hi.cached
		hi.lent, hj.lent = hj.lent, hi.lent
		hi.seq, hj.seq = hj.seq, hi.seq
		if hi.cached {
			c.pushBack(i)
		}
		if hj.cached {
			c.pushBack(j)
		}
	}
}

// Release empties the cache and returns its column buffers (cached or
// free) for another Cache's Adopt, so that a sequence of caches on
// problems of one size reuses memory instead of touching fresh pages.
// With WholeColumns the unused rest of the last slab is returned too, cut
// into whole columns: a later cache that needs a few more columns than it
// adopted then takes them instead of a new slab. The cache forgets the
// matrix it was lent (Lend).
func (c *Cache) Release() [][]float32 {
	out := c.free
	for h := c.lru.next; h != sentinel; {
		e := &c.heads[h]
		if !e.lent {
			out = append(out, e.data[:0])
		}
		e.data, e.cached = nil, false
		h = e.next
	}
	c.base = nil
	if c.whole {
		for len(c.slab) >= c.l && c.l > 0 {
			out = append(out, c.slab[:0:c.l])
			c.slab = c.slab[c.l:]
		}
	}
	c.lru.prev, c.lru.next = sentinel, sentinel
	c.free = nil
	c.log = c.log[:0]
	for i := range c.heads {
		c.heads[i] = cacheHead{}
	}
	return out
}

// Reset empties the cache, keeping its column buffers for its next
// columns, and puts the variables back in the order of NewCache's rows:
// the next Solve on it visits the same iterates as one on a new cache with
// the same rows and budget, without the new cache's allocations.
func (c *Cache) Reset() {
	for h := c.lru.next; h != sentinel; {
		e := &c.heads[h]
		if !e.lent {
			c.free = append(c.free, e.data[:0])
		}
		e.data, e.cached = nil, false
		h = e.next
	}
	c.lru.prev, c.lru.next = sentinel, sentinel
	c.log = c.log[:0]
	for i := range c.heads {
		c.heads[i] = cacheHead{}
	}
	c.ident = true
	copy(c.pos, c.pos0)
	copy(c.qd, c.qd0)
	for k := range c.vars {
		c.vars[k] = k
	}
}

// Adopt hands buffers (from Release) to the cache's free list, within its
// memory budget; it returns the buffers it did not take. Buffer contents
// are never read before being overwritten.
func (c *Cache) Adopt(bufs [][]float32) [][]float32 {
	k := len(bufs) // bufs[k:] are taken
	for k > 0 && cap(bufs[k-1]) <= c.budget {
		k--
		c.budget -= cap(bufs[k])
		bufs[k] = bufs[k][:0]
	}
	if len(c.free) == 0 {
		// The taken tail becomes the free list as it is (no copy); the
		// rest is returned with its capacity cut so that appending to it
		// cannot overwrite the free list.
		c.free = bufs[k:]
		return bufs[:k:k]
	}
	c.free = append(c.free, bufs[k:]...)
	return bufs[:k]
}

// Diag returns K_ii for every variable i, in variable order.
func (c *Cache) Diag() []float64 {
	d := make([]float64, c.l)
	for k, v := range c.vars {
		d[v] = c.qd[k]
	}
	return d
}

// Gram32 is a float32 Gram matrix (kernel.Sym32): a column is a copy of a
// stored row, the values LIBSVM's float cache would hold.
type Gram32 struct{ K *kernel.Sym32 }

func (g Gram32) At(r, c int) float64 { return g.K.At(r, c) }

func (g Gram32) Fill(dst []float32, r int, cols []int) {
	dst = dst[:len(cols)]
	row := g.K.Row(r)
	for t, c := range cols {
		dst[t] = row[c]
	}
}

func (g Gram32) Fill64(dst []float64, r int, cols []int) {
	dst = dst[:len(cols)]
	row := g.K.Row(r)
	for t, c := range cols {
		dst[t] = float64(row[c])
	}
}
