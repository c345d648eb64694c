package graph

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// sklearnChunk is scikit-learn's pairwise_dist_chunk_size: the brute-force
// search splits the indexed points into chunks of this many rows.
const sklearnChunk = 256

// KNNSklearn returns the symmetrised kNN graph of KNN with the neighbours
// chosen as scikit-learn's brute-force search chooses them
// (kneighbors_graph(X, k) in scikit-learn 1.1–1.2 with algorithm "brute",
// which NearestNeighbors picks for more than 15 features, run on threads
// OpenMP threads): each row keeps a max-heap of its k+1 nearest candidates,
// a candidate replaces the heap's top only when strictly nearer, and the
// candidates are scanned in the order of scikit-learn's parallel strategy
// (in index order when N > 4·256·threads; otherwise in 256-row chunks dealt
// to the threads in contiguous blocks, the threads' heaps then merged in
// thread order). Where distances tie exactly at the k-th neighbour the
// members kept therefore depend on the number of threads, in scikit-learn
// as here. Distances are exact (SqDist); scikit-learn computes
// ‖y‖² − 2x·y in BLAS, which is exact for small integer data and may order
// nearly equal distances of other data differently. Time O(N²d), memory
// O(N·k) plus one row of distances per thread.
func KNNSklearn(ctx context.Context, X mat.Matrix, k, threads int) (*Graph, error) {
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d, want k >= 1", ErrK, k)
	}
	if threads < 1 {
		return nil, fmt.Errorf("%w: %d threads, want at least 1", ErrSpec, threads)
	}
	data, n, d, err := points(X)
	if err != nil {
		return nil, err
	}
	if k >= n {
		return nil, fmt.Errorf("%w: k = %d, want k < N = %d", ErrK, k, n)
	}
	k1 := k + 1
	// the blocks of rows each thread scans, in scan order
	var blocks [][2]int
	if n > 4*sklearnChunk*threads {
		blocks = [][2]int{{0, n}}
	} else {
		chunks := (n + sklearnChunk - 1) / sklearnChunk
		q, r := chunks/threads, chunks%threads
		c := 0
		for t := 0; t < threads; t++ {
			m := q
			if t < r {
				m++
			}
			blocks = append(blocks, [2]int{min(c*sklearnChunk, n), min((c+m)*sklearnChunk, n)})
			c += m
		}
	}
	nbr := make([]int32, n*k)
	len2 := make([]float64, n*k)
	err = distance.ParallelRows(ctx, n, func(i int) {
		x := data[i*d : i*d+d]
		vals := make([]float64, k1)
		idx := make([]int32, k1)
		for p := range vals {
			vals[p], idx[p] = math.Inf(1), -1
		}
		tv := make([]float64, k1)
		ti := make([]int32, k1)
		for _, b := range blocks {
			for p := range tv {
				tv[p], ti[p] = math.Inf(1), -1
			}
			for j := b[0]; j < b[1]; j++ {
				heapPush(tv, ti, distance.SqDist(x, data[j*d:j*d+d]), int32(j))
			}
			for p := range tv {
				heapPush(vals, idx, tv[p], ti[p])
			}
		}
		// drop i itself, or else the nearest candidate (more than k
		// points coincide with i)
		skip := -1
		for p, j := range idx {
			if int(j) == i {
				skip = p
			}
		}
		if skip < 0 {
			skip = 0
			for p := range vals {
				if vals[p] < vals[skip] || vals[p] == vals[skip] && idx[p] < idx[skip] {
					skip = p
				}
			}
		}
		o := i * k
		for p := range idx {
			if p != skip {
				nbr[o], len2[o] = idx[p], vals[p]
				o++
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return symmetric(n, k, nbr, len2)
}

// heapPush is scikit-learn's heap_push on a max-heap of fixed size: val
// replaces the top only when strictly smaller, then sifts down, moving to
// the left child when the children tie.
func heapPush(vals []float64, idx []int32, val float64, j int32) {
	if !(val < vals[0]) {
		return
	}
	size := len(vals)
	cur := 0
	for {
		l := 2*cur + 1
		r := l + 1
		var swap int
		switch {
		case l >= size:
			vals[cur], idx[cur] = val, j
			return
		case r >= size:
			if vals[l] > val {
				swap = l
			} else {
				vals[cur], idx[cur] = val, j
				return
			}
		case vals[l] >= vals[r]:
			if val < vals[l] {
				swap = l
			} else {
				vals[cur], idx[cur] = val, j
				return
			}
		default:
			if val < vals[r] {
				swap = r
			} else {
				vals[cur], idx[cur] = val, j
				return
			}
		}
		vals[cur], idx[cur] = vals[swap], idx[swap]
		cur = swap
	}
}
