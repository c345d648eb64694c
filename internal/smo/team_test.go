package smo

import (
	"context"
	"runtime"
	"slices"
	"testing"
)

// TestParallelEqualsSerial: on a problem large enough for the parallel
// passes (2,000 variables, RBF points, C = 1 and 50, shrinking on), the
// solution, the gradient, ρ and the iteration count are bit-identical
// for GOMAXPROCS 1 (serial passes), 2, 3 and 4: the chunks are combined
// with the serial pass's tie rules.
func TestParallelEqualsSerial(t *testing.T) {
	src, y := benchProblem(2000)
	n := len(y)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, C := range []float64{1, 50} {
		var ref Result
		var refAlpha []float64
		for _, procs := range []int{1, 2, 3, 4} {
			runtime.GOMAXPROCS(procs)
			pr := &Problem{Q: NewCache(src, rows, 200), P: make([]float64, n), Y: y, C: make([]float64, n), Alpha: make([]float64, n), Tol: 1e-3, Shrink: true}
			for i := range pr.P {
				pr.P[i], pr.C[i] = -1, C
			}
			res, err := Solve(context.Background(), pr)
			if err != nil {
				t.Fatal(err)
			}
			if procs == 1 {
				ref, refAlpha = res, pr.Alpha
				if !res.Converged || res.Iter < 500 {
					t.Fatalf("C=%g: %d iterations, converged %v: too easy a test problem", C, res.Iter, res.Converged)
				}
				continue
			}
			if res.Iter != ref.Iter || res.Rho != ref.Rho || res.Obj != ref.Obj || !slices.Equal(pr.Alpha, refAlpha) || !slices.Equal(res.Grad, ref.Grad) {
				t.Errorf("C=%g GOMAXPROCS=%d: iter %d ρ %v obj %v; serial: iter %d ρ %v obj %v (α equal: %v)",
					C, procs, res.Iter, res.Rho, res.Obj, ref.Iter, ref.Rho, ref.Obj, slices.Equal(pr.Alpha, refAlpha))
			}
		}
	}
}
