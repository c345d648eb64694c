package propagate

import (
	"context"

	"github.com/arbor-ml/arbor/internal/neighbors"
)

// knnGraphPoints is knnGraph for points: the k nearest of each point by
// (d², index), itself included at d² = 0, found by internal/neighbors (a
// k-d tree for d <= 20, blocked brute force above; the same pairs as a
// brute-force scan).
func knnGraphPoints(ctx context.Context, data []float64, n, d, k int) (*graph, error) {
	col := make([]int32, n*k)
	if err := neighbors.New(data, n, d).All(ctx, k, neighbors.IncludeSelf, col, nil); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		sortInt32(col[i*k : (i+1)*k]) // CSR rows sorted by column: sums in a fixed order
	}
	return csrOnes(n, k, col), nil
}

func sortInt32(cs []int32) {
	for a := 1; a < len(cs); a++ {
		for b := a; b > 0 && cs[b] < cs[b-1]; b-- {
			cs[b], cs[b-1] = cs[b-1], cs[b]
		}
	}
}

func csrOnes(n, k int, col []int32) *graph {
	ptr := make([]int, n+1)
	for i := range ptr {
		ptr[i] = i * k
	}
	val := make([]float64, n*k)
	for i := range val {
		val[i] = 1
	}
	return &graph{n: n, ptr: ptr, col: col, val: val}
}
