package svm

import (
	"context"
	"errors"
	"fmt"
	fin "github.com/arbor-ml/arbor/internal/finite"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/internal/smo"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// symTol is the relative tolerance of the symmetry check of a SymDense
// backing store: |K_ij − K_ji| ≤ symTol·max|K| (rounding noise of a
// numerically symmetric computation such as −½JMJ stays far below it).
const symTol = 1e-12

// withGram validates a Gram matrix and runs fit on a column source over it.
// A *mat.SymDense is read in place (no copy); its lower triangle is used
// when it mirrors the upper one exactly (kernel.Gram fills it), otherwise
// it must be all zero or agree within symTol (then only the upper triangle
// is read). The check is one O(N²) pass; with GOMAXPROCS > 1 it runs on
// its own goroutine while fit already works on the speculatively mirrored
// matrix: a failed check cancels fit and returns the check's error, a
// non-mirrored store reruns fit on the upper triangle. The result never
// depends on the timing. Any other mat.Symmetric is checked for NaN/Inf
// and read through At.
func withGram[T any](ctx context.Context, K mat.Symmetric, fit func(ctx context.Context, src smo.Source, n int) (T, error)) (T, error) {
	var zero T
	if K == nil {
		return zero, fmt.Errorf("%w: nil kernel matrix", ErrEmpty)
	}
	n := K.SymmetricDim()
	if n == 0 {
		return zero, fmt.Errorf("%w: 0×0 kernel matrix", ErrEmpty)
	}
	if k32, ok := K.(*kernel.Sym32); ok {
		if err := check32(k32, nil); err != nil {
			return zero, err
		}
		return fit(ctx, smo.Gram32{K: k32}, n)
	}
	sd, ok := K.(*mat.SymDense)
	if !ok {
		for i := range n {
			for j := i; j < n; j++ {
				if v := K.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					return zero, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, j, v)
				}
			}
		}
		return fit(ctx, smo.SymGram{M: K}, n)
	}
	raw := sd.RawSymmetric()
	chk := &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: n}
	if runtime.GOMAXPROCS(0) == 1 || n < 512 {
		if err := checkGram(chk, runtime.GOMAXPROCS(0)); err != nil {
			return zero, err
		}
		return fit(ctx, chk, n)
	}
	spec := &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: n, Mirrored: true}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ck := newChecker(chk)
	ck.onBad = func() { cancel(errCheckPending) }
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ck.work()
	}()
	res, err := fit(cctx, spec, n)
	ck.work() // help with the blocks left (the helper may be starved)
	wg.Wait()
	if cerr := ck.finish(1); cerr != nil {
		return zero, cerr
	}
	if !chk.Mirrored {
		return fit(ctx, chk, n)
	}
	return res, err
}

// errCheckPending cancels a speculative fit when the input check found a
// block that is not an exact finite mirror; the check's verdict decides
// what is returned.
var errCheckPending = errors.New("svm: input check pending")

// subGram validates K[rows][rows] and returns a source over it.
func subGram(K mat.Symmetric, rows []int) (smo.Source, error) {
	if K == nil || K.SymmetricDim() == 0 {
		return nil, fmt.Errorf("%w: empty kernel matrix", ErrEmpty)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no training rows", ErrEmpty)
	}
	n := K.SymmetricDim()
	seen := make([]bool, n)
	for k, r := range rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("%w: rows[%d] = %d outside [0, %d)", ErrShape, k, r, n)
		}
		if seen[r] {
			return nil, fmt.Errorf("%w: rows[%d] = %d repeated", ErrShape, k, r)
		}
		seen[r] = true
	}
	var base smo.Source
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		g := &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: n, Mirrored: true}
		d, s := raw.Data, raw.Stride
		for a, ra := range rows {
			for _, rb := range rows[a:] {
				lo, hi := min(ra, rb), max(ra, rb)
				up, lw := d[lo*s+hi], d[hi*s+lo]
				if up-up != 0 {
					return nil, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, lo, hi, up)
				}
				if lw != up {
					g.Mirrored = false
				}
			}
		}
		if !g.Mirrored {
			// Not an exact mirror: accept an all-zero lower part or one
			// within symTol, reading only the upper triangle.
			maxAbs, bad, bi, bj, zero := 0.0, 0.0, -1, -1, true
			for a, ra := range rows {
				for _, rb := range rows[a:] {
					lo, hi := min(ra, rb), max(ra, rb)
					up, lw := d[lo*s+hi], d[hi*s+lo]
					maxAbs = max(maxAbs, math.Abs(up))
					if lo != hi && lw != 0 {
						zero = false
					}
					if diff := math.Abs(lw - up); lo != hi && !(diff <= bad) {
						bad, bi, bj = diff, hi, lo
					}
				}
			}
			if !zero && !(bad <= symTol*maxAbs) {
				return nil, fmt.Errorf("%w: K[%d][%d] = %v but K[%d][%d] = %v (lower triangle of the SymDense store)",
					ErrNotSymmetric, bi, bj, d[bi*s+bj], bj, bi, d[bj*s+bi])
			}
		}
		base = g
	} else if k32, ok := K.(*kernel.Sym32); ok {
		if err := check32(k32, rows); err != nil {
			return nil, err
		}
		base = smo.Gram32{K: k32}
	} else {
		for a, ra := range rows {
			for _, rb := range rows[a:] {
				if v := K.At(ra, rb); v-v != 0 {
					return nil, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, ra, rb, v)
				}
			}
		}
		base = smo.SymGram{M: K}
	}
	return &subSource{src: base, rows: rows}, nil
}

// check32 checks the entries of a kernel.Sym32 among rows (all if nil)
// for NaN/Inf (it is symmetric by construction).
func check32(K *kernel.Sym32, rows []int) error {
	if rows == nil {
		for i := range K.SymmetricDim() {
			for j, v := range K.Row(i)[i:] {
				if v-v != 0 {
					return fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, i+j, v)
				}
			}
		}
		return nil
	}
	for _, r := range rows {
		row := K.Row(r)
		for _, c := range rows {
			if v := row[c]; v-v != 0 {
				return fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, min(r, c), max(r, c), v)
			}
		}
	}
	return nil
}

// subSource is a source over a subset of another source's rows.
type subSource struct {
	src  smo.Source
	rows []int
	buf  []int // scratch for mapped columns (fill is never concurrent)
}

func (s *subSource) mapCols(cols []int) []int {
	if cap(s.buf) < len(cols) {
		s.buf = make([]int, len(cols), max(len(cols), len(s.rows)))
	}
	b := s.buf[:len(cols)]
	for t, c := range cols {
		b[t] = s.rows[c]
	}
	return b
}

func (s *subSource) At(r, c int) float64 { return s.src.At(s.rows[r], s.rows[c]) }
func (s *subSource) Fill(dst []float32, r int, cols []int) {
	s.src.Fill(dst, s.rows[r], s.mapCols(cols))
}
func (s *subSource) Fill64(dst []float64, r int, cols []int) {
	s.src.Fill64(dst, s.rows[r], s.mapCols(cols))
}

// check scans the matrix for NaN/Inf and classifies the lower triangle of
// the store: an exact mirror (rows are then read in place), zero where it
// is not a mirror (upper-only storage), or within symTol; anything else is
// ErrNotSymmetric. Row blocks (64×64 tiles for the transposed reads) are
// scanned by up to workers goroutines and the per-block findings reduced in
// block order, so the reported entry does not depend on GOMAXPROCS.
func checkGram(g *smo.DenseGram, workers int) error {
	ck := newChecker(g)
	_ = parallel.ForWorkers(context.Background(), workers, workers, func(_, _ int) { ck.work() })
	return ck.finish(workers)
}

// checker is denseGram.check split into row blocks that any number of
// goroutines take from a shared counter (work), then one reduction
// (finish).
type checker struct {
	g     *smo.DenseGram
	nb    int
	next  atomic.Int64
	res   []finding
	onBad func() // called (possibly concurrently) when a block is not an exact mirror
}

const checkTile = 64

func newChecker(g *smo.DenseGram) *checker {
	nb := (g.N + checkTile - 1) / checkTile
	return &checker{g: g, nb: nb, res: make([]finding, nb)}
}

// work processes blocks until none is left.
func (c *checker) work() {
	for {
		b := int(c.next.Add(1) - 1)
		if b >= c.nb {
			return
		}
		c.block(b)
		if !c.res[b].exact && c.onBad != nil {
			c.onBad()
		}
	}
}

// block compares the lower triangle of row block b with its mirror, in
// strips of 8 rows: for each column j left of the strip, one cache line of
// the upper triangle (row j, the strip's 8 columns) against 8 sequential
// streams of the lower rows. Every line is read once, in order. A strip is
// screened branch-free (Σ|lo − up| + (lo − lo) is 0 exactly when it
// mirrors and is finite; NaN/Inf make it NaN) and examined entry by entry
// only when the screen fails. A NaN never compares equal, so in the common
// exact-mirror case finiteness is checked on the way.
func (c *checker) block(b int) {
	n, s, d := c.g.N, c.g.Stride, c.g.Data
	const tile = checkTile
	f := finding{nanI: -1, exact: true, zero: true, bi: -1}
	i0, i1 := b*tile, min(n, (b+1)*tile)
	for r0 := i0; r0 < i1; r0 += 8 {
		if r0+8 <= i1 {
			l0, l1, l2, l3 := d[r0*s:r0*s+r0], d[(r0+1)*s:(r0+1)*s+r0], d[(r0+2)*s:(r0+2)*s+r0], d[(r0+3)*s:(r0+3)*s+r0]
			l4, l5, l6, l7 := d[(r0+4)*s:(r0+4)*s+r0], d[(r0+5)*s:(r0+5)*s+r0], d[(r0+6)*s:(r0+6)*s+r0], d[(r0+7)*s:(r0+7)*s+r0]
			var a0, a1 float64
			for j := range l0 {
				u := d[j*s+r0 : j*s+r0+8]
				v0, v1, v2, v3 := l0[j], l1[j], l2[j], l3[j]
				v4, v5, v6, v7 := l4[j], l5[j], l6[j], l7[j]
				a0 += math.Abs(v0-u[0]) + (v0 - v0) + math.Abs(v1-u[1]) + (v1 - v1) +
					math.Abs(v2-u[2]) + (v2 - v2) + math.Abs(v3-u[3]) + (v3 - v3)
				a1 += math.Abs(v4-u[4]) + (v4 - v4) + math.Abs(v5-u[5]) + (v5 - v5) +
					math.Abs(v6-u[6]) + (v6 - v6) + math.Abs(v7-u[7]) + (v7 - v7)
			}
			if a0+a1 != 0 {
				for i := r0; i < r0+8; i++ {
					c.scan(&f, i, 0, r0)
				}
			}
			// The triangle inside the strip's diagonal 8×8 block.
			for i := r0; i < r0+8; i++ {
				c.scan(&f, i, r0, i)
			}
			continue
		}
		for i := r0; i < i1; i++ {
			c.scan(&f, i, 0, i)
		}
	}
	for i := i0; i < i1; i++ {
		if v := d[i*s+i]; v-v != 0 && f.nanI < 0 {
			f.nanI, f.nanJ = i, i
			f.exact = false
		}
	}
	c.res[b] = f
}

// scan compares K[i][j] with K[j][i] for j in [j0, j1), j < i, entry by
// entry.
func (c *checker) scan(f *finding, i, j0, j1 int) {
	s, d := c.g.Stride, c.g.Data
	for j := j0; j < j1; j++ {
		lv, uv := d[i*s+j], d[j*s+i]
		if lv == uv && lv-lv == 0 {
			continue
		}
		f.noteOff(lv, uv, i, j)
	}
}

// finish reduces the block findings (in block order) after all blocks are
// done, and classifies the store.
func (c *checker) finish(workers int) error {
	g, res := c.g, c.res
	n, s, d := g.N, g.Stride, g.Data
	const tile = checkTile
	nb := c.nb
	// Exact mirror: only maxAbs is left to find, and only when needed.
	exactAll := true
	for _, f := range res {
		if f.nanI >= 0 {
			return fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, f.nanI, f.nanJ, d[f.nanI*s+f.nanJ])
		}
		exactAll = exactAll && f.exact
	}
	if exactAll {
		g.Mirrored = true
		return nil
	}
	// Otherwise rescan the upper triangle for non-finite values and the
	// scale of the symmetry tolerance.
	_ = parallel.ForWorkers(context.Background(), nb, workers, func(_, b int) {
		f := &res[b]
		i0, i1 := b*tile, min(n, (b+1)*tile)
		for i := i0; i < i1 && f.nanI < 0; i++ {
			for t, v := range d[i*s+i : i*s+n] {
				if v-v != 0 {
					f.nanI, f.nanJ = i, i+t
					break
				}
				f.maxAbs = max(f.maxAbs, math.Abs(v))
			}
		}
	})
	maxAbs, zero := 0.0, true
	bad, bi, bj := 0.0, -1, -1
	for _, f := range res {
		if f.nanI >= 0 {
			return fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, f.nanI, f.nanJ, d[f.nanI*s+f.nanJ])
		}
		maxAbs = max(maxAbs, f.maxAbs)
		zero = zero && f.zero
		if f.bi >= 0 && !(f.bad <= bad) {
			bad, bi, bj = f.bad, f.bi, f.bj
		}
	}
	switch {
	case zero:
	case !(bad <= symTol*maxAbs):
		return fmt.Errorf("%w: K[%d][%d] = %v but K[%d][%d] = %v (lower triangle of the SymDense store)",
			ErrNotSymmetric, bi, bj, d[bi*s+bj], bj, bi, d[bj*s+bi])
	}
	return nil
}

// finding is what one row block of denseGram.check found.
// zero reports that every lower-triangle entry that is not an exact mirror
// is 0 (upper-only storage, possibly partly mirrored).
type finding struct {
	maxAbs      float64
	nanI, nanJ  int
	exact, zero bool
	bad         float64
	bi, bj      int
}

// noteOff records a lower-triangle entry lv at (i, j) that is not an exact
// finite mirror of uv = K[j][i].
func (f *finding) noteOff(lv, uv float64, i, j int) {
	f.exact = false
	if lv != 0 {
		f.zero = false
	}
	if lv-lv != 0 && !(uv-uv != 0) {
		// A non-finite value in the lower triangle only: it is either
		// garbage (then the store is not symmetric) or ignored when the
		// lower triangle is otherwise all zero; treat it as a mismatch.
		if f.bi < 0 || !math.IsInf(f.bad, 1) {
			f.bad, f.bi, f.bj = math.Inf(1), i, j
		}
		return
	}
	if uv-uv != 0 {
		if f.nanI < 0 {
			f.nanI, f.nanJ = j, i
		}
		return
	}
	if diff := math.Abs(lv - uv); !(diff <= f.bad) {
		f.bad, f.bi, f.bj = diff, i, j
	}
}

// pointSource validates X (finite, non-empty) and returns a column source
// evaluating k on its rows, read in place.
func pointSource(X *mat.Dense, k kernel.Kernel) (*smo.Points, int, error) {
	if X == nil || X.IsEmpty() {
		return nil, 0, fmt.Errorf("%w: no rows in X", ErrEmpty)
	}
	r, c := X.Dims()
	raw := X.RawMatrix()
	if i, j, v, bad := fin.Find(raw.Data, r, c, raw.Stride); bad {
		return nil, 0, fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, v)
	}
	return &smo.Points{X: raw.Data, D: c, Stride: raw.Stride, K: k}, r, nil
}

// classes groups labels: the sorted distinct labels, the class index of
// every row, and the rows of every class in their original order.
func groupClasses(y []int) (labels []int, idx []int, members [][]int, err error) {
	for i, v := range y {
		if v < 0 {
			return nil, nil, nil, fmt.Errorf("%w: y[%d] = %d (labels must be ≥ 0; -1 marks unlabelled rows)", ErrBadLabel, i, v)
		}
	}
	labels = slices.Clone(y)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	idx = make([]int, len(y))
	members = make([][]int, len(labels))
	for i, v := range y {
		c, _ := slices.BinarySearch(labels, v)
		idx[i] = c
		members[c] = append(members[c], i)
	}
	return labels, idx, members, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
