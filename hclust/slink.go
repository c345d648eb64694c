package hclust

import (
	"context"
	"math"
)

// slinkCondensed is Sibson's SLINK (1973) pointer-representation algorithm
// for single linkage, inserting the observations in decreasing index order
// so that inserting observation i reads row i of the condensed matrix, the
// distances to the observations j > i inserted before it: one sequential
// pass over d, O(n²) time, O(n) memory. It also validates the distances
// and reports false at the first invalid one.
//
// After the pass, observation j (all but the last inserted, 0) joins the
// cluster of pi[j] at height lam[j]; sorting these n−1 merges by height
// gives the single-linkage dendrogram. When all heights differ the
// dendrogram, and therefore SciPy's linkage matrix, is unique; Linkage
// falls back to Prim's algorithm (SciPy's own order) when two heights tie.
func slinkCondensed(ctx context.Context, c []float64, n int) ([]rawMerge, bool, error) {
	pi := make([]int32, n)
	lam := make([]float64, n)
	m := make([]float64, n)
	inf := math.Inf(1)
	for i := n - 1; i >= 0; i-- {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		pi[i] = int32(i)
		lam[i] = inf
		if i == n-1 {
			continue
		}
		off := condRow(n, i)
		row := c[off : off+n-i-1] // d(i, j) for j = i+1..n-1
		mm := m[i+1 : n]
		ok := true
		for k, v := range row {
			if !(v >= 0) || v > math.MaxFloat64 {
				ok = false
			}
			mm[k] = v
		}
		if !ok {
			return nil, false, nil
		}
		// previously inserted observations, in insertion order
		// (unconditional stores of selected values compile to conditional
		// moves: the comparisons are unpredictable)
		i32 := int32(i)
		for j := n - 1; j > i; j-- {
			mj, lj, p := m[j], lam[j], pi[j]
			m[p] = min(m[p], max(lj, mj))
			lam[j] = min(lj, mj)
			q := p
			if lj >= mj {
				q = i32
			}
			pi[j] = q
		}
		for j := n - 1; j > i; j-- {
			p := pi[j]
			q := p
			if lam[j] >= lam[p] {
				q = i32
			}
			pi[j] = q
		}
	}
	raw := make([]rawMerge, 0, n-1)
	for j := 1; j < n; j++ {
		raw = append(raw, rawMerge{a: int32(j), b: pi[j], h: lam[j]})
	}
	return raw, true, nil
}
