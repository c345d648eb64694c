package s4vm

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/arbor-ml/arbor/internal/smo"
)

// bin is one binary S4VM problem over n rows of src: rows 0..l−1 are
// labelled (lab, ±1; +1 is the lower class), rows l..n−1 unlabelled.
// Every SVM of the problem reads its kernel columns from src at the
// training rows of rows (a column cache per fit; see gramBlock).
type bin struct {
	src  smo.Source
	rows []int // rows of src (training rows) of the problem's rows
	n, l int
	lab  []int8
	set  resolved
	// noMachine skips the predictor SVM (Transduce).
	noMachine bool
}

// source is the kernel of the problem's fits (over training rows).
func (b *bin) source() smo.Source { return b.src }

// resolved holds the settings with defaults filled in.
type resolved struct {
	c1, c2   float64
	samples  int
	lambda   float64
	groups   int
	tol      float64
	cacheMB  float64
	maxSteps int
	cold     bool
	seed     uint64
}

// fitOut is one C-SVC fit on the problem's rows: decision values oriented
// so that f > 0 means +1, and LIBSVM's dual objective ½αᵀQα − eᵀα.
type fitOut struct {
	f         []float64
	obj       float64
	iter      int
	converged bool
}

// fitter fits C-SVCs on a fixed set of rows with changing labels. Warm
// mode keeps one column cache and the previous α (and the kernel sums of
// smo.Warm) across fits; cold mode reproduces LIBSVM's fresh fit (α = 0,
// rows grouped by class, the class of row 0 first) each time.
type fitter struct {
	src     smo.Source
	rows    []int     // source rows of the variables
	c       []float64 // per-variable bounds
	tol     float64
	mb      float64
	cold    bool
	q       *smo.Cache
	warm    smo.Warm
	alpha   []float64
	p       []float64
	prevY   []int8
	pool    *bufPool  // column buffers shared with the other fits, or nil
	base    []float32 // the kernel on rows in their order, lent to the cache (smo.Cache.Lend), or nil
	serial  bool      // solve on the calling goroutine (candidates already run in parallel)
	last    fitOut
	f       []float64 // decision values of the last warm fit (last.f)
	lastObj float64   // objective of the last solveOrdered
	iter    int       // SMO iterations over all fits
	fits    int       // solves run
	conv    bool
	scratch descentBuf // a local descent's working arrays, reused by the fitter's next candidate
}

// descentBuf holds the working arrays of a local descent on n rows, u of
// them unlabelled: every entry is written before it is read, so the next
// candidate run on the same fitter reuses them as they are.
type descentBuf struct {
	idx                            []rankKey
	start, lastLast, last, cur, tr []int8
	keep                           []bool
	perm                           []int // the changer's (pcgChanger)
}

// resize sets the lengths to n rows with u unlabelled, keeping the memory
// when it is large enough.
func (d *descentBuf) resize(n, u int) {
	d.idx = sized(d.idx, n)
	d.start, d.lastLast, d.last = sized(d.start, n), sized(d.lastLast, n), sized(d.last, n)
	d.cur, d.tr = sized(d.cur, n), sized(d.tr, n)
	d.keep, d.perm = sized(d.keep, u), sized(d.perm, u)
}

// sized returns s with length n: s itself when its capacity allows, else
// new memory.
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func newFitter(src smo.Source, rows []int, c []float64, tol, mb float64, cold bool) *fitter {
	l := len(rows)
	ft := &fitter{src: src, rows: rows, c: c, tol: tol, mb: mb, cold: cold, p: make([]float64, l), conv: true}
	for i := range ft.p {
		ft.p[i] = -1
	}
	return ft
}

// release hands the column cache's buffers and the emptied cache back to
// the pool (the fitter keeps its counters; a later fit starts a new cache).
func (ft *fitter) release() {
	if ft.pool != nil && ft.q != nil {
		ft.pool.putCache(ft.q)
	}
	ft.q = nil
}

// sameRows reports whether the fitter can serve a candidate on rows of
// src with cache budget mb: its rows are the same slice.
func (ft *fitter) sameRows(src smo.Source, rows []int, mb float64) bool {
	a := ft.rows
	return ft.src == src && ft.mb == mb && len(a) == len(rows) && (len(a) == 0 || &a[0] == &rows[0])
}

// reset readies an idle fitter for a new candidate, as newFitter would
// make it: the column cache, if kept (same rows), is put back in a new
// cache's order (smo.Cache.Reset), the Warm's kernel sums are forgotten
// and the counters zeroed; the buffers are kept.
func (ft *fitter) reset(src smo.Source, rows []int, c []float64, tol, mb float64, cold bool, base []float32) {
	l := len(rows)
	ft.src, ft.rows, ft.c, ft.tol, ft.mb, ft.cold, ft.base = src, rows, c, tol, mb, cold, base
	if len(ft.p) != l {
		ft.p = make([]float64, l)
		for i := range ft.p {
			ft.p[i] = -1
		}
	}
	if ft.q != nil {
		ft.q.Reset()
		ft.q.Lend(base)
	}
	ft.warm.Reset()
	ft.prevY = ft.prevY[:0]
	ft.last = fitOut{}
	ft.iter, ft.fits, ft.conv = 0, 0, true
}

// bufPool holds column buffers between the fits of the class pairs (the
// candidates' descents, cold fits and the predictors): each descent fills
// a full column cache, and reusing the memory of a finished one avoids
// faulting in fresh pages (the contents are always overwritten before
// being read, so results do not depend on it). The caches take whole
// columns (smo.Cache.WholeColumns), so every pooled buffer fits any column
// of a problem of its size and no fit after the first ones needs new
// memory.
//
// It also keeps the fitters of finished candidates, with their column
// caches and solver arrays: the next candidate of the same problem takes
// one and resets it instead of allocating new ones.
//
// And it keeps the matrices lent to the candidates of finished problems
// (bin.base) for the next problems', and the emptied column caches, whose
// per-row arrays the next caches take (smo.Cache.Renew).
type bufPool struct {
	mu      sync.Mutex
	bufs    [][]float32
	fitters []*fitter // idle
	bases   [][]float32
	caches  []*smo.Cache // empty
}

// cache returns a column cache on rows of src with budget mb that takes
// whole columns and the pool's buffers (adopt): an emptied one renewed, or
// a new one.
func (p *bufPool) cache(src smo.Source, rows []int, mb float64) *smo.Cache {
	p.mu.Lock()
	var c *smo.Cache
	if k := len(p.caches); k > 0 {
		c = p.caches[k-1]
		p.caches[k-1] = nil
		p.caches = p.caches[:k-1]
	}
	p.mu.Unlock()
	if c == nil {
		c = smo.NewCache(src, rows, mb)
	} else {
		c.Renew(src, rows, mb)
	}
	c.WholeColumns()
	p.adopt(c)
	return c
}

// putCache takes back a cache no fit uses any more: its buffers and the
// emptied cache.
func (p *bufPool) putCache(c *smo.Cache) {
	bufs := c.Release()
	p.mu.Lock()
	p.bufs = append(p.bufs, bufs...)
	p.caches = append(p.caches, c)
	p.mu.Unlock()
}

// takeBase returns a pooled matrix of at least size values cut to size,
// or nil.
func (p *bufPool) takeBase(size int) []float32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, m := range p.bases {
		if cap(m) >= size {
			p.bases = slices.Delete(p.bases, k, k+1)
			return m[:size]
		}
	}
	return nil
}

// putBase takes back the matrix of a finished problem; no cache holds a
// part of it any more (bufPool.drop released them).
func (p *bufPool) putBase(m []float32) {
	p.mu.Lock()
	p.bases = append(p.bases, m)
	p.mu.Unlock()
}

// fitter returns a fitter for a candidate (settings as newFitter's) that
// solves on the calling goroutine and lends its column cache base (nil:
// none; see smo.Cache.Lend): an idle one of the same rows with its cache
// reset, else an idle one of other rows with its cache's buffers handed to
// the pool, else a new one.
func (p *bufPool) fitter(src smo.Source, rows []int, c []float64, tol, mb float64, cold bool, base []float32) *fitter {
	p.mu.Lock()
	var ft *fitter
	for k, f := range p.fitters {
		if f.sameRows(src, rows, mb) {
			ft = f
			p.fitters = slices.Delete(p.fitters, k, k+1)
			break
		}
	}
	if ft == nil && len(p.fitters) > 0 {
		ft = p.fitters[len(p.fitters)-1]
		p.fitters = p.fitters[:len(p.fitters)-1]
	}
	p.mu.Unlock()
	if ft == nil {
		ft = newFitter(src, rows, c, tol, mb, cold)
		ft.pool, ft.serial, ft.base = p, true, base
		return ft
	}
	if !ft.sameRows(src, rows, mb) {
		ft.release()
	}
	ft.reset(src, rows, c, tol, mb, cold, base)
	return ft
}

// idle takes back a candidate's fitter.
func (p *bufPool) idle(ft *fitter) {
	p.mu.Lock()
	p.fitters = append(p.fitters, ft)
	p.mu.Unlock()
}

// drop hands the column buffers of the idle fitters on rows to the pool:
// their problem has no candidate left to run.
func (p *bufPool) drop(src smo.Source, rows []int, mb float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.fitters {
		if f.q != nil && f.sameRows(src, rows, mb) {
			p.bufs = append(p.bufs, f.q.Release()...)
			p.caches = append(p.caches, f.q)
			f.q = nil
		}
	}
}

func (p *bufPool) put(b [][]float32) {
	p.mu.Lock()
	p.bufs = append(p.bufs, b...)
	p.mu.Unlock()
}

// adopt hands c (a cache of whole columns) at most as many buffers as it
// has columns, each long enough for a column: c never holds more, and
// candidates starting while c runs find buffers in the pool too instead
// of new memory. Shorter buffers (the ends of slabs, columns of a smaller
// problem) stay in the pool.
func (p *bufPool) adopt(c *smo.Cache) {
	l := c.Len()
	p.mu.Lock()
	defer p.mu.Unlock()
	take := make([][]float32, 0, min(l, len(p.bufs))) // c's free list may keep it
	keep := p.bufs[:0]
	for _, b := range p.bufs {
		if cap(b) >= l && len(take) < l {
			take = append(take, b)
		} else {
			keep = append(keep, b)
		}
	}
	clear(p.bufs[len(keep):])
	p.bufs = append(keep, c.Adopt(take)...)
}

// fit trains on labels y (±1 per variable) and returns the decision values
// on the fitter's rows. The result is valid until the next call. Fitting
// the labels of the previous call again returns the previous result.
func (ft *fitter) fit(ctx context.Context, y []int8) (fitOut, error) {
	if ft.prevY != nil && slices.Equal(ft.prevY, y) {
		return ft.last, nil
	}
	var out fitOut
	var err error
	if ft.cold {
		out, err = ft.fitCold(ctx, y)
	} else {
		out, err = ft.fitWarm(ctx, y)
	}
	if err != nil {
		return fitOut{}, err
	}
	ft.fits++
	ft.iter += out.iter
	ft.conv = ft.conv && out.converged
	ft.prevY = append(ft.prevY[:0], y...)
	ft.last = out
	return out, nil
}

func (ft *fitter) fitWarm(ctx context.Context, y []int8) (fitOut, error) {
	l := len(ft.rows)
	if ft.q == nil {
		if ft.pool != nil {
			ft.q = ft.pool.cache(ft.src, ft.rows, ft.mb)
		} else {
			ft.q = smo.NewCache(ft.src, ft.rows, ft.mb)
		}
		ft.q.Lend(ft.base)
	}
	if len(ft.prevY) == 0 { // the first fit
		if cap(ft.alpha) < l {
			ft.alpha = make([]float64, l)
		}
		ft.alpha = ft.alpha[:l]
		clear(ft.alpha)
	} else {
		// A switched label makes the old α_i meaningless: start it at 0,
		// then restore yᵀα = 0.
		for i := range y {
			if y[i] != ft.prevY[i] {
				ft.alpha[i] = 0
			}
		}
		smo.Feasible(y, ft.c, ft.alpha, nil)
	}
	res, err := smo.Solve(ctx, &smo.Problem{Q: ft.q, P: ft.p, Y: y, C: ft.c, Alpha: ft.alpha,
		Tol: ft.tol, Shrink: true, Warm: &ft.warm, Serial: ft.serial})
	if err != nil {
		return fitOut{}, err
	}
	if len(ft.f) != l {
		ft.f = make([]float64, l)
	}
	f := ft.f
	for i, g := range res.Grad {
		// ∇_i f = y_i Σ_j y_jα_jK_ij − 1.
		f[i] = float64(y[i])*(g+1) - res.Rho
	}
	return fitOut{f: f, obj: res.Obj, iter: res.Iter, converged: res.Converged}, nil
}

// fitCold is LIBSVM's svm_train on the rows with labels y as e1071/RSSL
// call it: classes in order of first appearance (the class of row 0 is
// LIBSVM's first label, internal +1), the variables of the first class
// first, α = 0, a fresh cache; decision values recomputed in float64 as
// svm_predict_values does, then oriented as RSSL's localDescent does (the
// sign flipped when row 0's value disagrees with its predicted label).
func (ft *fitter) fitCold(ctx context.Context, y []int8) (fitOut, error) {
	l := len(ft.rows)
	_, svRows, coef, rho, iter, ok, err := ft.solveOrdered(ctx, y)
	if err != nil {
		return fitOut{}, err
	}
	dec := make([]float64, l)
	buf := make([]float64, len(svRows))
	for i := range l {
		ft.src.Fill64(buf, ft.rows[i], svRows)
		s := 0.0
		for t, v := range buf {
			s += coef[t] * v
		}
		dec[i] = s - rho
	}
	// LIBSVM predicts label y[0] when dec > 0, the other label otherwise.
	pred0 := y[0]
	if !(dec[0] > 0) {
		pred0 = -y[0]
	}
	if dec[0]*float64(pred0) < 0 {
		for i := range dec {
			dec[i] = -dec[i]
		}
	}
	return fitOut{f: dec, obj: ft.lastObj, iter: iter, converged: ok}, nil
}

// balance holds the sizes of the balance constraint: the h1 rows with the
// largest f are +1, the h2 rows with the smallest −1.
type balance struct{ h1, h2 int }

// newBalance is RSSL's h1 = ⌈n(1+β−α)/2⌉, h2 = ⌈n(1−β−α)/2⌉ with β the
// mean labelled label and α = 0.1, clipped so that h1 + h2 ≤ n.
func newBalance(n int, lab []int8) balance {
	s := 0.0
	for _, v := range lab {
		s += float64(v)
	}
	beta := s / float64(len(lab))
	const alpha = 0.1
	h1 := int(math.Ceil(float64(n) * (1 + beta - alpha) / 2))
	h2 := int(math.Ceil(float64(n) * (1 - beta - alpha) / 2))
	h1 = min(max(h1, 0), n)
	h2 = min(max(h2, 0), n-h1)
	return balance{h1, h2}
}

// relabel sets dst from decision values f: rows ordered by f descending
// (ties by row index, the order of a stable sort), the first h1 → +1, the
// last h2 → −1, the rest sign(f) with 0 → +1. keys is scratch of length
// n. Only the sets of the first h1 and the last h2 rows matter, and the
// order (f descending, row ascending) is total, so a selection (expected
// linear time) finds them exactly as a full sort would; with a NaN among f
// (no total order) the keys are sorted under it as they are.
//
// With p values ≥ 0, the order puts those p rows first. If p ≥ h1 and
// n − p ≥ h2, the first h1 rows are labelled +1 and the last h2 −1 by
// sign(f) already, so every label is sign(f). If p < h1 (then n − p ≥ h2,
// as h1 + h2 ≤ n), the labels are sign(f) except for the h1 − p first in
// the order among the rows < 0, which are +1: one selection among those
// rows. If n − p < h2, symmetrically, the last h2 − (n − p) among the rows
// ≥ 0 are −1.
func (b balance) relabel(dst []int8, f []float64, keys []rankKey) {
	n := len(f)
	p, nan := 0, false
	for i, v := range f {
		switch {
		case v >= 0:
			dst[i] = 1
			p++
		case v < 0:
			dst[i] = -1
		default:
			nan = true
		}
	}
	switch {
	case nan:
		for i := range keys {
			keys[i] = rankKey{f[i], int32(i)}
		}
		slices.SortFunc(keys, func(a, c rankKey) int {
			switch {
			case a.f > c.f:
				return -1
			case a.f < c.f:
				return 1
			}
			return int(a.i - c.i)
		})
		for k, key := range keys {
			i := key.i
			switch {
			case k < b.h1:
				dst[i] = 1
			case k >= n-b.h2:
				dst[i] = -1
			case f[i] >= 0:
				dst[i] = 1
			default:
				dst[i] = -1
			}
		}
	case p < b.h1:
		neg := keys[:0]
		for i, v := range f {
			if v < 0 {
				neg = append(neg, rankKey{v, int32(i)})
			}
		}
		k := b.h1 - p
		selectKeys(neg, k)
		for _, key := range neg[:k] {
			dst[key.i] = 1
		}
	case n-p < b.h2:
		pos := keys[:0]
		for i, v := range f {
			if v >= 0 {
				pos = append(pos, rankKey{v, int32(i)})
			}
		}
		k := p - (b.h2 - (n - p)) // pos[k:] are the last h2 − (n − p)
		selectKeys(pos, k)
		for _, key := range pos[k:] {
			dst[key.i] = -1
		}
	}
}

// rankKey is a row and its decision value, for relabel.
type rankKey struct {
	f float64
	i int32
}

// before is relabel's order: f descending, then row ascending (total for
// finite f and distinct rows).
func (a rankKey) before(c rankKey) bool {
	return a.f > c.f || (a.f == c.f && a.i < c.i)
}

// selectKeys permutes keys so that keys[:k] are the k first in the order
// of before (in some order): Hoare-partition quickselect with the median of
// three as pivot, finished by insertion sort on short ranges, and by a
// full sort of the range when the partitions degenerate (introselect).
func selectKeys(keys []rankKey, k int) {
	lo, hi := 0, len(keys) // the k-th boundary lies in [lo, hi]
	if k <= 0 || k >= hi {
		return
	}
	budget := 2 * bits.Len(uint(hi))
	for hi-lo > 16 {
		if budget == 0 {
			slices.SortFunc(keys[lo:hi], func(a, c rankKey) int {
				if a.before(c) {
					return -1
				}
				return 1
			})
			return
		}
		budget--
		m := lo + (hi-lo)/2
		a, b, c := keys[lo], keys[m], keys[hi-1]
		if b.before(a) {
			a, b = b, a
		}
		if c.before(b) {
			b = c
			if b.before(a) {
				b = a
			}
		}
		pivot := b
		i, j := lo, hi-1
		for i <= j {
			for keys[i].before(pivot) {
				i++
			}
			for pivot.before(keys[j]) {
				j--
			}
			if i <= j {
				keys[i], keys[j] = keys[j], keys[i]
				i++
				j--
			}
		}
		// keys[lo:j+1] ≤ pivot ≤ keys[i:hi], keys[j+1:i] equal the pivot.
		switch {
		case k <= j+1:
			hi = j + 1
		case k >= i:
			lo = i
		default:
			return
		}
	}
	for i := lo + 1; i < hi; i++ {
		for j := i; j > lo && keys[j].before(keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// changer marks the unlabelled rows that keep their labels from two steps
// back (keep[j] for unlabelled row l+j). perm is scratch of length
// len(keep) for the changer's use.
type changer func(step int, keep []bool, perm []int)

// pcgChanger draws ⌈0.2u⌉ distinct unlabelled rows uniformly per step.
func pcgChanger(r *rand.Rand) changer {
	return func(_ int, keep []bool, perm []int) {
		u := len(keep)
		num := int(math.Ceil(float64(u) * 0.2))
		perm = perm[:u]
		for i := range perm {
			perm[i] = i
		}
		clear(keep)
		for k := range num {
			j := k + r.IntN(u-k)
			perm[k], perm[j] = perm[j], perm[k]
			keep[perm[k]] = true
		}
	}
}

// descent is the outcome of one local descent.
type descent struct {
	labels []int8
	obj    float64
	steps  int
}

// localDescent improves the assignment start (n rows) by alternating SVM
// fits on all rows and balance-constrained relabelling (RSSL's
// localDescent): the next training labels take the new labels on every
// labelled row and on the unlabelled rows not kept by chg, and the labels
// from two steps back on the kept ones; it stops when the labels and the
// objective repeat, or after maxSteps refits.
//
// Its working arrays are the fitter's (fitter.scratch); start may be
// one of them (scratch.start).
func (b *bin) localDescent(ctx context.Context, ft *fitter, bal balance, start []int8, chg changer, maxSteps int) (descent, error) {
	n, l := b.n, b.l
	sc := &ft.scratch
	sc.resize(n, n-l)
	idx, lastLast, last, cur, train, keep := sc.idx, sc.lastLast, sc.last, sc.cur, sc.tr, sc.keep
	copy(lastLast, start)
	out, err := ft.fit(ctx, lastLast)
	if err != nil {
		return descent{}, err
	}
	bal.relabel(last, out.f, idx)
	objLast := out.obj
	chg(0, keep, sc.perm)
	steps := 0
	for {
		copy(train[:l], last[:l])
		for j, k := range keep {
			if k {
				train[l+j] = lastLast[l+j]
			} else {
				train[l+j] = last[l+j]
			}
		}
		out, err = ft.fit(ctx, train)
		if err != nil {
			return descent{}, err
		}
		steps++
		bal.relabel(cur, out.f, idx)
		if (slices.Equal(cur, last) && out.obj == objLast) || steps > maxSteps {
			break
		}
		objLast = out.obj
		lastLast, last, cur = last, cur, lastLast
		chg(steps, keep, sc.perm)
	}
	return descent{labels: slices.Clone(cur), obj: out.obj, steps: steps}, nil
}
