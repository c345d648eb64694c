package smo

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// problem builds a C-SVC dual on n random 2-d points (RBF kernel) with
// per-row bounds (c1 on the first l rows, c2 on the rest).
func problem(n, l int, seed uint64) (*Points, []int8, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, 2*n)
	y := make([]int8, n)
	c := make([]float64, n)
	for i := range n {
		y[i] = 1
		if r.IntN(2) == 0 {
			y[i] = -1
		}
		x[2*i] = r.NormFloat64() + float64(y[i])
		x[2*i+1] = r.NormFloat64()
		c[i] = 0.5
		if i < l {
			c[i] = 10
		}
	}
	return &Points{X: x, D: 2, Stride: 2, K: kernel.RBF{Gamma: 0.5}}, y, c
}

func solve(t *testing.T, q *Cache, y []int8, c, alpha []float64, w *Warm) Result {
	t.Helper()
	p := make([]float64, len(y))
	for i := range p {
		p[i] = -1
	}
	res, err := Solve(context.Background(), &Problem{Q: q, P: p, Y: y, C: c, Alpha: alpha, Tol: 1e-6, Shrink: true, Warm: w})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged {
		t.Fatal("not converged")
	}
	return res
}

// TestWarmEqualsCold: a sequence of solves on one cache, each with a few
// labels switched and warm-started from the previous α (Feasible, Warm
// sums), reaches the objective of a cold solve on a fresh cache. The dual
// objective is unique; both stop at a maximal violation below 1e-6, so
// they agree to about 1e-6 relative.
func TestWarmEqualsCold(t *testing.T) {
	const n = 300
	src, y, c := problem(n, 40, 7)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	q := NewCache(src, rows, 1)
	var w Warm
	alpha := make([]float64, n)
	r := rand.New(rand.NewPCG(3, 4))
	for step := range 6 {
		if step > 0 {
			for range 10 {
				i := 40 + r.IntN(n-40)
				y[i] = -y[i]
			}
			Feasible(y, c, alpha, nil)
			var d float64
			for i, a := range alpha {
				if a < 0 || a > c[i] {
					t.Fatalf("Feasible: alpha[%d] = %v outside [0, %v]", i, a, c[i])
				}
				d += float64(y[i]) * a
			}
			if math.Abs(d) > 1e-12 {
				t.Fatalf("Feasible: yᵀα = %v", d)
			}
		}
		warm := solve(t, q, y, c, alpha, &w)
		cold := solve(t, NewCache(src, rows, 1), y, c, make([]float64, n), nil)
		if math.Abs(warm.Obj-cold.Obj) > 1e-6*math.Abs(cold.Obj) {
			t.Fatalf("step %d: warm objective %v, cold %v", step, warm.Obj, cold.Obj)
		}
		if math.Abs(warm.Rho-cold.Rho) > 1e-3 {
			t.Fatalf("step %d: warm rho %v, cold %v", step, warm.Rho, cold.Rho)
		}
	}
}

// TestResetEqualsNew: a sequence of warm-started solves (a few labels
// switched each time) on a cache and a Warm that were reset after another
// such sequence visits the same iterates, bit for bit, as the sequence on
// a new cache and a zero Warm: Reset restores the variable order that
// shrinking permuted and forgets the kernel sums.
func TestResetEqualsNew(t *testing.T) {
	const n = 1100
	src, y0, c := problem(n, 40, 9)
	// Duplicate points (with their labels): exact ties in the selection,
	// broken by position, so the iterates depend on the variable order.
	for i := 41; i < n; i += 3 {
		src.X[2*i], src.X[2*i+1] = src.X[2*i-2], src.X[2*i-1]
		y0[i] = y0[i-1]
	}
	for i := range c {
		c[i] *= 10 // long solves: shrinking permutes the variables
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = n - 1 - i // NewCache's order is not the source's
	}
	run := func(q *Cache, w *Warm, seed uint64) (iters []int, alphas [][]float64, rhos []float64) {
		y := append([]int8(nil), y0...)
		alpha := make([]float64, n)
		r := rand.New(rand.NewPCG(seed, 5))
		for step := range 5 {
			if step > 0 {
				for range 30 {
					i := 40 + r.IntN(n-40)
					y[i] = -y[i]
					if (i-41)%3 == 0 {
						y[i-1] = y[i] // keep the duplicate's label
					}
				}
				Feasible(y, c, alpha, nil)
			}
			res := solve(t, q, y, c, alpha, w)
			iters = append(iters, res.Iter)
			alphas = append(alphas, append([]float64(nil), alpha...))
			rhos = append(rhos, res.Rho)
		}
		return
	}
	newIter, newAlpha, newRho := run(NewCache(src, rows, 1), &Warm{}, 1)
	q := NewCache(src, rows, 1)
	var w Warm
	run(q, &w, 2) // another sequence first: shrinking permutes q
	moved := 0
	for k, v := range q.vars {
		if v != k {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("the first sequence left the variables in order: nothing for Reset to undo")
	}
	check := func(what string, gotIter []int, gotAlpha [][]float64, gotRho []float64) {
		t.Helper()
		for s := range newIter {
			if gotIter[s] != newIter[s] || math.Float64bits(gotRho[s]) != math.Float64bits(newRho[s]) {
				t.Fatalf("solve %d after %s: %d iterations, ρ %v; on a new cache %d, %v", s, what, gotIter[s], gotRho[s], newIter[s], newRho[s])
			}
			for i := range n {
				if math.Float64bits(gotAlpha[s][i]) != math.Float64bits(newAlpha[s][i]) {
					t.Fatalf("solve %d after %s: α[%d] = %v, on a new cache %v", s, what, i, gotAlpha[s][i], newAlpha[s][i])
				}
			}
		}
	}
	q.Reset()
	w.Reset()
	gotIter, gotAlpha, gotRho := run(q, &w, 1)
	check("Reset", gotIter, gotAlpha, gotRho)

	// Renew: a cache used on other rows (the source's order, with a
	// larger budget and whole columns), emptied and renewed on rows.
	other := make([]int, n)
	for i := range other {
		other[i] = i
	}
	q2 := NewCache(src, other, 200)
	q2.WholeColumns()
	var w2 Warm
	run(q2, &w2, 3)
	q2.Release()
	q2.Renew(src, rows, 1)
	w2.Reset()
	gotIter, gotAlpha, gotRho = run(q2, &w2, 1)
	check("Renew", gotIter, gotAlpha, gotRho)
}
