package graph

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// MinLength is the floor applied to edge lengths: duplicate points are
// joined by edges of this length instead of zero (peers.py:
// A.data = np.maximum(A.data, 1e-12)), so that "no edge" and "zero-length
// edge" stay distinct.
const MinLength = 1e-12

// Build returns the graph named by s over the rows of X: KNN for
// s.Kind == "knn", Epsilon for "eps".
func Build(ctx context.Context, X mat.Matrix, s Spec) (*Graph, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	switch s.Kind {
	case KindKNN:
		return KNN(ctx, X, s.K)
	default:
		return Epsilon(ctx, X, s.Eps)
	}
}

// points validates X for graph building: finite, at least two rows.
func points(X mat.Matrix) (data []float64, n, d int, err error) {
	data, n, d, err = distance.Points(X)
	if err != nil {
		return nil, n, d, err
	}
	if n < 2 {
		return nil, n, d, fmt.Errorf("%w: X has %d row(s)", ErrTooFew, n)
	}
	return data, n, d, nil
}

// KNN returns the symmetrised k-nearest-neighbour graph of the rows of X:
// i and j are joined when j is among the k nearest neighbours of i or i
// among those of j (the union, scipy's A.maximum(A.T)), by an edge of
// Euclidean length ||x_i − x_j||, floored at MinLength.
//
// Neighbours are ranked by squared distance (computed like distance.SqDist),
// ties broken by the lower row index; the point itself is excluded as
// scikit-learn's kneighbors(X=None) does it: take the k+1 nearest points
// including i, drop i, or drop the first of them when more than k other
// points coincide with i and rank before it. This equals sklearn's
// brute-force search with exact distances. sklearn's kd-tree (its choice for
// d <= 15) may pick a different member of an exactly tied group, so graphs
// can differ only on data with exactly equal distances.
//
// Each query row scans all points keeping a bounded max-heap of k+1
// candidates (partial sums abandon a candidate early), in parallel over
// rows; time O(N²d + N²·log k) worst case, memory O(Nk).
// Errors: ErrK (k < 1 or k >= N), ErrTooFew, distance.ErrEmpty,
// distance.ErrNonFinite, ctx.Err().
func KNN(ctx context.Context, X mat.Matrix, k int) (*Graph, error) {
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d, want k >= 1", ErrK, k)
	}
	data, n, d, err := points(X)
	if err != nil {
		return nil, err
	}
	if k >= n {
		return nil, fmt.Errorf("%w: k = %d, want k < N = %d", ErrK, k, n)
	}
	nbr := make([]int32, n*k)
	len2 := make([]float64, n*k)
	hd2 := make([]float64, n*(k+1)) // per-row heap storage: no allocation per row
	hidx := make([]int32, n*(k+1))
	err = distance.ParallelRows(ctx, n, func(i int) {
		base := i * (k + 1)
		h := knnHeap{cap: k + 1, d2: hd2[base : base : base+k+1], idx: hidx[base : base : base+k+1]}
		h.scan(data, d, i)
		h.sortAsc()
		// Drop i itself, or the first entry if i is not among the k+1.
		skip := 0
		for p := range h.idx {
			if int(h.idx[p]) == i {
				skip = p
				break
			}
		}
		o := i * k
		for p := range h.idx {
			if p == skip {
				continue
			}
			nbr[o], len2[o] = h.idx[p], h.d2[p]
			o++
		}
	})
	if err != nil {
		return nil, err
	}
	src := make([]int32, 0, 2*n*k)
	dst := make([]int32, 0, 2*n*k)
	w := make([]float64, 0, 2*n*k)
	for i := 0; i < n; i++ {
		for p := i * k; p < i*k+k; p++ {
			l := max(math.Sqrt(len2[p]), MinLength)
			j := nbr[p]
			if math.IsInf(l, 0) {
				return nil, fmt.Errorf("%w: distance between rows %d and %d overflows", distance.ErrNonFinite, i, j)
			}
			src = append(src, int32(i), j)
			dst = append(dst, j, int32(i))
			w = append(w, l, l)
		}
	}
	return fromArcs(n, src, dst, w), nil
}

// knnHeap is a bounded max-heap on (d2, idx): the root is the worst kept
// candidate. A typed heap: no interface boxing.
type knnHeap struct {
	cap int
	d2  []float64
	idx []int32
}

// less reports whether entry a ranks after (is worse than) entry b.
func (h *knnHeap) worse(a, b int) bool {
	if h.d2[a] != h.d2[b] {
		return h.d2[a] > h.d2[b]
	}
	return h.idx[a] > h.idx[b]
}

func (h *knnHeap) swap(a, b int) {
	h.d2[a], h.d2[b] = h.d2[b], h.d2[a]
	h.idx[a], h.idx[b] = h.idx[b], h.idx[a]
}

func (h *knnHeap) up(j int) {
	for j > 0 {
		p := (j - 1) / 2
		if !h.worse(j, p) {
			return
		}
		h.swap(j, p)
		j = p
	}
}

func (h *knnHeap) down(j int) {
	n := len(h.d2)
	for {
		l := 2*j + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h.worse(r, l) {
			c = r
		}
		if !h.worse(c, j) {
			return
		}
		h.swap(j, c)
		j = c
	}
}

// scan offers every point j = 0..n-1 (in order) as a neighbour of row q.
// Because j increases, a candidate tied with the root ranks after it and
// is rejected, so the kept set is the k+1 smallest (d2, j). Candidates are
// processed four at a time (independent sums, each in index order as
// distance.SqDist) and a group is abandoned once all four partial sums
// reach the root: partial sums of squares never decrease.
func (h *knnHeap) scan(data []float64, d, q int) {
	x := data[q*d : q*d+d]
	n := len(data) / d
	j := 0
	for ; j < n && len(h.d2) < h.cap; j++ {
		h.d2 = append(h.d2, distance.SqDist(x, data[j*d:j*d+d]))
		h.idx = append(h.idx, int32(j))
		h.up(len(h.d2) - 1)
	}
	top := h.d2[0]
	for ; j+4 <= n; j += 4 {
		y0 := data[j*d : j*d+d]
		y1 := data[(j+1)*d : (j+1)*d+d]
		y2 := data[(j+2)*d : (j+2)*d+d]
		y3 := data[(j+3)*d : (j+3)*d+d]
		var s0, s1, s2, s3 float64
		abandoned := false
		for t := 0; t < d; {
			end := min(t+8, d)
			for ; t < end; t++ {
				xt := x[t]
				u0 := xt - y0[t]
				u1 := xt - y1[t]
				u2 := xt - y2[t]
				u3 := xt - y3[t]
				s0 += float64(u0 * u0)
				s1 += float64(u1 * u1)
				s2 += float64(u2 * u2)
				s3 += float64(u3 * u3)
			}
			if s0 >= top && s1 >= top && s2 >= top && s3 >= top {
				abandoned = true
				break
			}
		}
		if abandoned {
			continue
		}
		for c, s := range [4]float64{s0, s1, s2, s3} {
			if s < top {
				h.d2[0], h.idx[0] = s, int32(j+c)
				h.down(0)
				top = h.d2[0]
			}
		}
	}
	for ; j < n; j++ {
		if s := distance.SqDist(x, data[j*d:j*d+d]); s < top {
			h.d2[0], h.idx[0] = s, int32(j)
			h.down(0)
			top = h.d2[0]
		}
	}
}

// sortAsc orders the kept candidates by (d2, idx) ascending, in place
// (insertion sort: k+1 is small).
func (h *knnHeap) sortAsc() {
	for i := 1; i < len(h.d2); i++ {
		for j := i; j > 0 && h.worse(j-1, j); j-- {
			h.swap(j-1, j)
		}
	}
}

// Epsilon returns the ε-neighbourhood graph of the rows of X: i and j
// (i != j) are joined when ||x_i − x_j|| <= eps, by an edge of that length
// floored at MinLength. Parallel over rows; time O(N²d), memory O(E).
// Errors: ErrEps (eps not finite and > 0), ErrTooFew, distance.ErrEmpty,
// distance.ErrNonFinite, ctx.Err().
func Epsilon(ctx context.Context, X mat.Matrix, eps float64) (*Graph, error) {
	if err := (Spec{Kind: KindEps, Eps: eps}).validate(); err != nil {
		return nil, err
	}
	data, n, d, err := points(X)
	if err != nil {
		return nil, err
	}
	rows := make([][]int32, n)
	lens := make([][]float64, n)
	err = distance.ParallelRows(ctx, n, func(i int) {
		x := data[i*d : i*d+d]
		var a []int32
		var l []float64
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			if r := distance.Dist(x, data[j*d:j*d+d]); r <= eps {
				a = append(a, int32(j))
				l = append(l, max(r, MinLength))
			}
		}
		rows[i], lens[i] = a, l
	})
	if err != nil {
		return nil, err
	}
	g := &Graph{n: n, off: make([]int, n+1)}
	for i := range rows {
		g.off[i+1] = g.off[i] + len(rows[i])
	}
	g.adj = make([]int32, 0, g.off[n])
	g.w = make([]float64, 0, g.off[n])
	for i := range rows {
		g.adj = append(g.adj, rows[i]...)
		g.w = append(g.w, lens[i]...)
	}
	return g, nil
}
