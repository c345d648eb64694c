package smo

import (
	"context"
	"slices"
	"testing"
)

// TestCacheSizeDoesNotChangeIterates: the column cache only saves work, so
// a budget that holds every column (slabs only), one that forces evictions
// and reallocations (slabs, then buffers one by one) and the minimum of
// three columns give bit-identical solutions and iteration counts.
func TestCacheSizeDoesNotChangeIterates(t *testing.T) {
	src, y := benchProblem(1200)
	n := len(y)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	var ref Result
	var refAlpha []float64
	for k, mb := range []float64{200, 1, 0} {
		pr := &Problem{Q: NewCache(src, rows, mb), P: make([]float64, n), Y: y, C: make([]float64, n), Alpha: make([]float64, n), Tol: 1e-3, Shrink: true}
		for i := range pr.P {
			pr.P[i], pr.C[i] = -1, 10
		}
		res, err := Solve(context.Background(), pr)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			ref, refAlpha = res, pr.Alpha
			continue
		}
		if res.Iter != ref.Iter || res.Rho != ref.Rho || !slices.Equal(pr.Alpha, refAlpha) {
			t.Errorf("cache %g MB: iter %d ρ %v; 200 MB: iter %d ρ %v (α equal: %v)", mb, res.Iter, res.Rho, ref.Iter, ref.Rho, slices.Equal(pr.Alpha, refAlpha))
		}
	}
}
