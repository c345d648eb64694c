package hclust

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// Merge is one row of a dendrogram: clusters A and B (A < B) join at Height
// into a cluster of Size leaves. Ids follow SciPy: leaves are 0..N−1 and the
// i-th merge creates cluster N+i.
type Merge struct {
	A, B   int
	Height float64
	Size   int
}

// Tree is a dendrogram over N leaves: N−1 merges in the order of SciPy's
// linkage matrix (non-decreasing heights for all methods except Centroid
// and Median, which may have inversions). Trees from Linkage, FromPoints and
// FromMatrix are valid; the methods of a Tree assembled by hand assume that
// Validate returns nil (they may panic otherwise). A Tree is not modified
// by its methods and may be shared between goroutines.
type Tree struct {
	N      int
	Merges []Merge
}

// rawMerge is a merge recorded by leaf representatives before sorting and
// relabelling (the nn-chain and MST algorithms produce merges out of height
// order).
type rawMerge struct {
	a, b int32
	h    float64
}

// Linkage performs agglomerative clustering of the n observations whose
// pairwise dissimilarities are d, with linkage method m. The result equals
// scipy.cluster.hierarchy.linkage(d.Data, method=m.String()) row by row:
// same ids, heights (bit for bit on amd64, where the same floating-point
// operations are evaluated in the same order) and sizes, with ties broken as
// SciPy 1.10 breaks them, because the same algorithms visit the data in the
// same order:
//
//   - Single: SLINK (Sibson 1973), one sequential pass over d, O(n²) time,
//     O(n) memory. Its dendrogram is SciPy's whenever no two merge heights
//     tie; with ties, Prim's minimum spanning tree from observation 0 (SciPy's
//     algorithm, O(n²) time, n²/2 extra memory for a transposed copy of d)
//     reproduces SciPy's order of the equal merges.
//   - Complete, Average, Weighted, Ward: the nearest-neighbour chain
//     (Murtagh 1983; Müllner 2011, arXiv:1109.2378, Fig. 3), valid because
//     these linkages are reducible (paper 000 §3.1). O(n²) time, one n×n
//     working matrix (8n² bytes; 3.2 GB for n = 20 000).
//   - Centroid, Median: Müllner's generic algorithm with a heap of nearest
//     neighbour candidates, O(n²) typical and O(n³) worst-case time.
//
// The MST and chain merges are stably sorted by height and renumbered with a
// union-find, as SciPy does, so equal heights keep the order in which they
// were found.
//
// Errors: ErrMethod for an unknown method, ErrTooFewRows if d.N < 2, ErrShape if
// len(d.Data) ≠ N(N−1)/2, ErrNonFinite / ErrNegative (naming the pair) for
// NaN, ±Inf or negative distances, ErrNonFinite if Ward/Centroid/Median
// updates overflow, and ctx.Err() when ctx is cancelled (checked every few
// hundred merges).
func Linkage(ctx context.Context, d distance.Condensed, m Method) (*Tree, error) {
	if !m.valid() {
		return nil, fmt.Errorf("hclust: linkage method %d: %w", int(m), ErrMethod)
	}
	n := d.N
	if n < 2 {
		return nil, fmt.Errorf("hclust: %d observations: %w", n, ErrTooFewRows)
	}
	if len(d.Data) != n*(n-1)/2 {
		return nil, fmt.Errorf("hclust: condensed matrix has %d values, want n(n-1)/2 = %d for n = %d: %w",
			len(d.Data), n*(n-1)/2, n, ErrShape)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if m == Single {
		raw, ok, err := slinkCondensed(ctx, d.Data, n)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, badDistance(d)
		}
		sortRaw(raw)
		if !hasTies(raw) {
			return label(n, raw), nil
		}
		// tied heights: reproduce SciPy's order of equal merges with Prim
		lower, _ := transposeCondensed(d.Data, n)
		raw, err = primCondensed(ctx, d.Data, lower, n)
		if err != nil {
			return nil, err
		}
		return relabel(n, raw), nil
	}
	sq := newSquare[float64](n)
	if !fillCondensed(sq, d.Data) {
		return nil, badDistance(d)
	}
	return linkageSquare(ctx, sq, m)
}

// FromPoints performs agglomerative clustering of the rows of X under the
// Euclidean distance: the same tree as Linkage on
// scipy.spatial.distance.pdist(X) (distances are computed as pdist does, in
// the same summation order). Single linkage never stores the distance
// matrix: Prim's algorithm computes distances on the fly (O(n²d) time, O(n)
// extra memory). Other methods fill one n×n matrix directly from X.
//
// Errors: as Linkage, plus ErrShape for an empty X and ErrNonFinite naming
// the first NaN or ±Inf coordinate.
func FromPoints(ctx context.Context, X mat.Matrix, m Method) (*Tree, error) {
	pts, n, dim, err := points(ctx, X, m)
	if err != nil {
		return nil, err
	}
	if m == Single {
		raw, err := primPoints(ctx, pts, n, dim)
		if err != nil {
			return nil, err
		}
		return relabel(n, raw), nil
	}
	sq := newSquare[float64](n)
	if !sq.fillPoints(pts, dim, nil) {
		return nil, fmt.Errorf("hclust: Euclidean distance overflows float64: %w", ErrNonFinite)
	}
	return linkageSquare(ctx, sq, m)
}

func linkageSquare[E float](ctx context.Context, sq *square[E], m Method) (*Tree, error) {
	if m.reducible() {
		raw, err := nnChain(ctx, sq, m)
		if err != nil {
			return nil, err
		}
		return relabel(sq.n, raw), nil
	}
	return generic(ctx, sq, m)
}

// badDistance locates the first invalid entry of d for the error message.
func badDistance(d distance.Condensed) error {
	n := d.N
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := d.Data[k]
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fmt.Errorf("hclust: distance (%d, %d) (Data[%d]) is %v: %w", i, j, k, v, ErrNonFinite)
			case v < 0:
				return fmt.Errorf("hclust: distance (%d, %d) (Data[%d]) is %v: %w", i, j, k, v, ErrNegative)
			}
			k++
		}
	}
	panic("hclust: badDistance found no bad entry")
}

// relabel turns merges recorded by leaf representatives into a SciPy
// linkage: a stable sort by height (np.argsort(kind="mergesort")), then
// union-find to name each side by its current cluster id.
func relabel(n int, raw []rawMerge) *Tree {
	sortRaw(raw)
	return label(n, raw)
}

// sortRaw sorts merges by height, stably.
func sortRaw(raw []rawMerge) {
	slices.SortStableFunc(raw, func(p, q rawMerge) int {
		switch {
		case p.h < q.h:
			return -1
		case p.h > q.h:
			return 1
		}
		return 0
	})
}

// hasTies reports whether two merges of the sorted raw have equal heights.
func hasTies(raw []rawMerge) bool {
	for k := 1; k < len(raw); k++ {
		if raw[k].h == raw[k-1].h {
			return true
		}
	}
	return false
}

// label names both sides of each sorted merge by its current cluster id
// (union-find), giving SciPy's ids and sizes.
func label(n int, raw []rawMerge) *Tree {
	parent := make([]int32, 2*n-1)
	size := make([]int32, 2*n-1)
	for i := range parent {
		parent[i] = int32(i)
		size[i] = 1
	}
	t := &Tree{N: n, Merges: make([]Merge, n-1)}
	for k, r := range raw {
		a, b := findRoot(parent, r.a), findRoot(parent, r.b)
		if a > b {
			a, b = b, a
		}
		id := int32(n + k)
		parent[a], parent[b] = id, id
		size[id] = size[a] + size[b]
		t.Merges[k] = Merge{A: int(a), B: int(b), Height: r.h, Size: int(size[id])}
	}
	return t
}

// findRoot returns the root of x in the union-find forest parent,
// compressing the path.
func findRoot(parent []int32, x int32) int32 {
	r := x
	for parent[r] != r {
		r = parent[r]
	}
	for parent[x] != r {
		x, parent[x] = parent[x], r
	}
	return r
}

// points checks the method and the points of FromPoints and FromPoints32
// and returns X's rows, row-major, with its dimensions.
func points(ctx context.Context, X mat.Matrix, m Method) ([]float64, int, int, error) {
	if !m.valid() {
		return nil, 0, 0, fmt.Errorf("hclust: linkage method %d: %w", int(m), ErrMethod)
	}
	if X == nil {
		return nil, 0, 0, fmt.Errorf("hclust: nil point matrix: %w", ErrShape)
	}
	n, dim := X.Dims()
	if n < 2 {
		return nil, 0, 0, fmt.Errorf("hclust: %d points: %w", n, ErrTooFewRows)
	}
	if dim < 1 {
		return nil, 0, 0, fmt.Errorf("hclust: points have %d coordinates: %w", dim, ErrShape)
	}
	pts := make([]float64, n*dim)
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			v := X.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, 0, fmt.Errorf("hclust: point %d coordinate %d is %v: %w", i, j, v, ErrNonFinite)
			}
			pts[i*dim+j] = v
		}
	}
	return pts, n, dim, ctx.Err()
}
