package neighbors

import (
	"context"
	"errors"
	"fmt"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// MaxTreeDim is the largest dimension searched with the k-d tree; above it
// the blocked brute force is used.
const MaxTreeDim = 20

// ErrK is returned when k is not in [1, number of candidate points].
var ErrK = errors.New("neighbors: bad k")

// Neighbor is one found point: its squared distance and row index.
type Neighbor struct {
	D2    float64
	Index int32
}

// Self says whether a point of the index counts as its own neighbour when
// the index is queried with its own rows (Index.All).
type Self int

const (
	// IncludeSelf ranks row i among the candidates for query i at d² = 0
	// (scikit-learn's kneighbors_graph(include_self=True) convention).
	IncludeSelf Self = iota
	// ExcludeSelf leaves row i out of the candidates for query i.
	ExcludeSelf
)

// Index answers exact kNN queries over the rows of a row-major n×d matrix.
// It keeps a reference to data, which must not change while the index is
// used. An Index is safe for concurrent queries.
type Index struct {
	data []float64
	n, d int
	t    *tree // nil: brute force
}

// New returns an index over the n rows of data (row-major, n·d values,
// finite). It builds a k-d tree when 1 <= d <= MaxTreeDim.
func New(data []float64, n, d int) *Index {
	ix := &Index{data: data[:n*d], n: n, d: d}
	if d >= 1 && d <= MaxTreeDim && n > leafSize {
		ix.t = buildTree(ix.data, n, d)
	}
	return ix
}

// Len returns the number of indexed points.
func (ix *Index) Len() int { return ix.n }

// Query returns the k nearest indexed points to x (len d) in (d², index)
// order, skipping row exclude (pass -1 to skip none), appended to dst[:0].
// k larger than the number of candidates returns all of them.
func (ix *Index) Query(x []float64, k int, exclude int, dst []Neighbor) []Neighbor {
	h := heap{cap: k, nb: dst[:0]}
	if k <= 0 {
		return h.nb
	}
	if ix.t != nil {
		ix.t.search(x, int32(exclude), &h)
	} else {
		h.scan(ix.data, ix.d, 0, ix.n, x, int32(exclude))
	}
	h.sortAsc()
	return h.nb
}

// All sets, for every indexed row i, idx[i·k+r] and d2[i·k+r] (r < k) to its
// r-th nearest indexed point in (d², index) order, with row i itself a
// candidate or not as self says. d2 may be nil. Errors: ErrK, ctx.Err().
func (ix *Index) All(ctx context.Context, k int, self Self, idx []int32, d2 []float64) error {
	avail := ix.n
	if self == ExcludeSelf {
		avail--
	}
	if k < 1 || k > avail {
		return fmt.Errorf("%w: k = %d, want 1 <= k <= %d", ErrK, k, avail)
	}
	if len(idx) < ix.n*k || (d2 != nil && len(d2) < ix.n*k) {
		panic("neighbors: short destination")
	}
	d := ix.d
	put := func(i int, nb []Neighbor) {
		for r, v := range nb {
			idx[i*k+r] = v.Index
			if d2 != nil {
				d2[i*k+r] = v.D2
			}
		}
	}
	if ix.t != nil {
		t := ix.t
		// Queries in tree order: consecutive queries are near each other.
		return parallel.Chunks(ctx, ix.n, 256, func(lo, hi int) {
			h := heap{cap: k, nb: make([]Neighbor, 0, k)}
			for p := lo; p < hi; p++ {
				i := t.perm[p]
				ex := int32(-1)
				if self == ExcludeSelf {
					ex = i
				}
				h.nb = h.nb[:0]
				t.search(t.pts[p*d:p*d+d], ex, &h)
				h.sortAsc()
				put(int(i), h.nb)
			}
		})
	}
	return ix.blocked(ctx, ix.data, ix.n, k, self == ExcludeSelf, put)
}

// Search sets idx[q·k+r], d2[q·k+r] to the r-th nearest indexed point of
// query row q of Q (row-major, m×d). d2 may be nil. Errors: ErrK, ctx.Err().
func (ix *Index) Search(ctx context.Context, Q []float64, k int, idx []int32, d2 []float64) error {
	if k < 1 || k > ix.n {
		return fmt.Errorf("%w: k = %d, want 1 <= k <= %d", ErrK, k, ix.n)
	}
	d := ix.d
	m := len(Q) / d
	if len(idx) < m*k || (d2 != nil && len(d2) < m*k) {
		panic("neighbors: short destination")
	}
	put := func(i int, nb []Neighbor) {
		for r, v := range nb {
			idx[i*k+r] = v.Index
			if d2 != nil {
				d2[i*k+r] = v.D2
			}
		}
	}
	if ix.t != nil {
		return parallel.Chunks(ctx, m, 256, func(lo, hi int) {
			h := heap{cap: k, nb: make([]Neighbor, 0, k)}
			for q := lo; q < hi; q++ {
				h.nb = h.nb[:0]
				ix.t.search(Q[q*d:q*d+d], -1, &h)
				h.sortAsc()
				put(q, h.nb)
			}
		})
	}
	return ix.blocked(ctx, Q, m, k, false, put)
}

// Blocks of the brute force: qBlock queries against pBlock points at a time.
const (
	qBlock = 32
	pBlock = 1024
)

// blocked is the brute-force search of the m query rows of Q. When
// excludeSelf, query i skips indexed row i (Q is the index's own data).
func (ix *Index) blocked(ctx context.Context, Q []float64, m, k int, excludeSelf bool, put func(int, []Neighbor)) error {
	d := ix.d
	return parallel.Chunks(ctx, m, qBlock, func(lo, hi int) {
		hs := make([]heap, hi-lo)
		for a := range hs {
			hs[a] = heap{cap: k, nb: make([]Neighbor, 0, k)}
		}
		for p0 := 0; p0 < ix.n; p0 += pBlock {
			p1 := min(p0+pBlock, ix.n)
			for q := lo; q < hi; q++ {
				ex := int32(-1)
				if excludeSelf {
					ex = int32(q)
				}
				hs[q-lo].scan(ix.data, d, p0, p1, Q[q*d:q*d+d], ex)
			}
		}
		for q := lo; q < hi; q++ {
			hs[q-lo].sortAsc()
			put(q, hs[q-lo].nb)
		}
	})
}
