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
		if s.Sklearn > 0 {
			return KNNSklearn(ctx, X, s.K, s.Sklearn)
		}
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
		return nil, n, d, fmt.Errorf("%w: X has %d row(s)", ErrTooFewRows, n)
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
// points coincide with i and rank before it. The graph is thus a function
// of the data alone. scikit-learn keeps a heap of candidates instead, so
// where distances tie exactly at the k-th neighbour (integer data) it may
// keep another member of the tied group, one that depends on its number of
// threads; KNNSklearn (spec "knn:K:sklearn=T") reproduces its choice.
//
// The search is internal/neighbors (k-d tree for d <= 20, blocked brute
// force above), in parallel over rows; time about O(N log N) for low d,
// O(N²d) above, memory O(Nk).
// Errors: ErrK (k < 1 or k >= N), ErrTooFewRows, distance.ErrEmpty,
// distance.ErrNonFinite, ctx.Err().
func KNN(ctx context.Context, X mat.Matrix, k int) (*Graph, error) {
	data, n, d, err := points(X)
	if err != nil {
		return nil, err
	}
	nbr, len2, err := nearest2(ctx, data, n, d, k)
	if err != nil {
		return nil, err
	}
	return symmetric(n, k, nbr, len2)
}

// symmetric joins each row i to its k neighbours nbr[i*k:], of squared
// lengths len2, in both directions.
func symmetric(n, k int, nbr []int32, len2 []float64) (*Graph, error) {
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

// Epsilon returns the ε-neighbourhood graph of the rows of X: i and j
// (i != j) are joined when ||x_i − x_j|| <= eps, by an edge of that length
// floored at MinLength. Parallel over rows; time O(N²d), memory O(E).
// Errors: ErrEps (eps not finite and > 0), ErrTooFewRows, distance.ErrEmpty,
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
