package svm

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// symTol is the relative tolerance of the symmetry check of a SymDense
// backing store: |K_ij − K_ji| ≤ symTol·max|K| (rounding noise of a
// numerically symmetric computation such as −½JMJ stays far below it).
const symTol = 1e-12

// gramSource validates a Gram matrix and returns a column source over it.
// A *mat.SymDense is read in place (no copy); its lower triangle is used
// when it mirrors the upper one exactly (kernel.Gram fills it), otherwise
// it must be all zero or agree within symTol. Any other mat.Symmetric is
// read through At. Cost: one O(N²) pass.
func gramSource(K mat.Symmetric) (source, int, error) {
	if K == nil {
		return nil, 0, fmt.Errorf("%w: nil kernel matrix", ErrEmpty)
	}
	n := K.SymmetricDim()
	if n == 0 {
		return nil, 0, fmt.Errorf("%w: 0×0 kernel matrix", ErrEmpty)
	}
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		g := &denseGram{data: raw.Data, stride: raw.Stride, n: n}
		if err := g.check(); err != nil {
			return nil, 0, err
		}
		return g, n, nil
	}
	for i := range n {
		for j := i; j < n; j++ {
			if v := K.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	return symGram{K}, n, nil
}

// check scans the upper triangle for NaN/Inf and classifies the lower one:
// an exact mirror (rows are then read in place), all zero (upper-only
// storage), or within symTol; anything else is ErrNotSymmetric. Row blocks
// are scanned in parallel (64×64 tiles for the transposed reads) and the
// per-block findings reduced in block order, so the reported entry does not
// depend on GOMAXPROCS.
func (g *denseGram) check() error {
	n, s, d := g.n, g.stride, g.data
	const tile = 64
	nb := (n + tile - 1) / tile
	res := make([]finding, nb)
	parallel(nb, func(b int) {
		f := finding{nanI: -1, exact: true, zero: true, bi: -1}
		i0, i1 := b*tile, min(n, (b+1)*tile)
		// One pass over the lower triangle of this row block, each entry
		// compared with its mirror. A NaN never compares equal, so in
		// the common exact-mirror case finiteness is checked on the way.
		for j0 := 0; j0 < i1; j0 += tile {
			for i := i0; i < i1; i++ {
				j1 := min(i, j0+tile)
				if j1 <= j0 {
					continue
				}
				lo := d[i*s+j0 : i*s+j1]
				for t, lv := range lo {
					uv := d[(j0+t)*s+i]
					if lv == uv && lv-lv == 0 {
						continue
					}
					f.noteOff(lv, uv, i, j0+t)
				}
			}
		}
		for i := i0; i < i1; i++ {
			if v := d[i*s+i]; v-v != 0 && f.nanI < 0 {
				f.nanI, f.nanJ = i, i
			}
		}
		res[b] = f
	})
	// Exact mirror: only maxAbs is left to find, and only when needed.
	exactAll := true
	for _, f := range res {
		if f.nanI >= 0 {
			return fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, f.nanI, f.nanJ, d[f.nanI*s+f.nanJ])
		}
		exactAll = exactAll && f.exact
	}
	if exactAll {
		g.mirrored = true
		return nil
	}
	// Otherwise rescan the upper triangle for non-finite values and the
	// scale of the symmetry tolerance.
	parallel(nb, func(b int) {
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

// parallel runs fn(0..tasks-1) on GOMAXPROCS goroutines.
func parallel(tasks int, fn func(t int)) {
	w := min(runtime.GOMAXPROCS(0), tasks)
	if w <= 1 {
		for t := range tasks {
			fn(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				t := int(next.Add(1) - 1)
				if t >= tasks {
					return
				}
				fn(t)
			}
		}()
	}
	wg.Wait()
}

// pointSource validates X (finite, non-empty) and returns a column source
// evaluating k on its rows, read in place.
func pointSource(X *mat.Dense, k kernel.Kernel) (*points, int, error) {
	if X == nil || X.IsEmpty() {
		return nil, 0, fmt.Errorf("%w: no rows in X", ErrEmpty)
	}
	r, c := X.Dims()
	raw := X.RawMatrix()
	for i := range r {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	return &points{x: raw.Data, d: c, stride: raw.Stride, k: k}, r, nil
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
