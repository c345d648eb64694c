package graph

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"gonum.org/v1/gonum/mat"
)

// Neighbors is the directed k-nearest-neighbour list of every row: the
// r-th neighbour of row i is Index[i·K+r] at Euclidean distance
// Dist[i·K+r], nearest first (scikit-learn's kneighbors_graph(X, K,
// mode='distance'), include_self=False, as rows of an N×N matrix).
type Neighbors struct {
	N, K  int
	Index []int32
	Dist  []float64 // the square root of the squared distance, not floored
}

// KNearest returns the k nearest neighbours of every row of X among the
// other rows, ranked as KNN ranks them: by squared distance computed like
// distance.SqDist, ties broken by the lower row index, the row itself
// dropped as SelfDropped says. Time about O(N log N) for low d, O(N²d)
// above; memory O(Nk). Errors: ErrK (k < 1 or k >= N), ErrTooFewRows,
// distance.ErrEmpty, distance.ErrNonFinite, ctx.Err().
func KNearest(ctx context.Context, X mat.Matrix, k int) (*Neighbors, error) {
	data, n, d, err := points(X)
	if err != nil {
		return nil, err
	}
	nbr, d2, err := nearest2(ctx, data, n, d, k)
	if err != nil {
		return nil, err
	}
	for p := range d2 {
		d2[p] = math.Sqrt(d2[p])
	}
	return &Neighbors{N: n, K: k, Index: nbr, Dist: d2}, nil
}

// nearest2 returns the k nearest neighbours of every row of data (n×d,
// row-major) and their squared distances, k a row (see KNearest).
func nearest2(ctx context.Context, data []float64, n, d, k int) ([]int32, []float64, error) {
	if k < 1 {
		return nil, nil, fmt.Errorf("%w: k = %d, want k >= 1", ErrK, k)
	}
	if k >= n {
		return nil, nil, fmt.Errorf("%w: k = %d, want k < N = %d", ErrK, k, n)
	}
	// The k+1 nearest by (d², index), i itself a candidate at d² = 0.
	k1 := k + 1
	near := make([]int32, n*k1)
	near2 := make([]float64, n*k1)
	if err := neighbors.New(data, n, d).All(ctx, k1, neighbors.IncludeSelf, near, near2); err != nil {
		return nil, nil, err
	}
	nbr := make([]int32, n*k)
	len2 := make([]float64, n*k)
	for i := 0; i < n; i++ {
		SelfDropped(i, near[i*k1:i*k1+k1], near2[i*k1:i*k1+k1], nbr[i*k:i*k+k], len2[i*k:i*k+k])
	}
	return nbr, len2, nil
}

// SelfDropped writes the k neighbours of row i to index and d2 (len k)
// from cand and cand2 (len k+1), the k+1 nearest rows to row i with i
// itself a candidate, in (squared distance, index) order: it drops i, or
// the first candidate when i is not among them (more than k other rows
// at distance 0), as scikit-learn's kneighbors(X=None) does.
func SelfDropped(i int, cand []int32, cand2 []float64, index []int32, d2 []float64) {
	skip := 0
	for p, j := range cand {
		if int(j) == i {
			skip = p
			break
		}
	}
	o := 0
	for p, j := range cand {
		if p == skip {
			continue
		}
		index[o], d2[o] = j, cand2[p]
		o++
	}
}
