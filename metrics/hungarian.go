package metrics

import (
	"fmt"
	"math"
)

// Assign solves the rectangular assignment problem: for an m×M cost matrix
// with m ≤ M it returns col, where row i is assigned column col[i] (distinct),
// minimising Σ cost[i][col[i]]. It is the Hungarian algorithm in the
// shortest-augmenting-path form with dual potentials (Kuhn 1955; Munkres 1957;
// Jonker & Volgenant 1987), O(m²·M) time and O(m + M) extra space.
// Errors: ErrEmpty (no rows), ErrLength (ragged rows or m > M), ErrNonFinite.
func Assign(cost [][]float64) ([]int, error) {
	m := len(cost)
	if m == 0 {
		return nil, ErrEmpty
	}
	M := len(cost[0])
	for i, r := range cost {
		if len(r) != M {
			return nil, fmt.Errorf("%w: cost row %d has %d columns, row 0 has %d", ErrLength, i, len(r), M)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: cost[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	if m > M {
		return nil, fmt.Errorf("%w: %d rows > %d columns (transpose the cost matrix)", ErrLength, m, M)
	}
	// 1-based potentials u (rows), v (columns); p[j] = row matched to column j.
	u := make([]float64, m+1)
	v := make([]float64, M+1)
	p := make([]int, M+1)
	way := make([]int, M+1)
	minv := make([]float64, M+1)
	used := make([]bool, M+1)
	for i := 1; i <= m; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := -1
			for j := 1; j <= M; j++ {
				if used[j] {
					continue
				}
				cur := cost[i0-1][j-1] - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			if j1 < 0 {
				panic("metrics: assignment found no augmenting column")
			}
			for j := 0; j <= M; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	col := make([]int, m)
	for j := 1; j <= M; j++ {
		if p[j] > 0 {
			col[p[j]-1] = j - 1
		}
	}
	return col, nil
}
