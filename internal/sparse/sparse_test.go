package sparse

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// system returns a random sparse n×n M-matrix A = D − W (W ≥ 0 with a few
// entries per row, D = rowsum(W) + 1, so A is strictly diagonally dominant),
// symmetric when sym, as CSR W and diagonal D, and A dense.
func system(n int, sym bool, seed uint64) (*CSR, []float64, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 1))
	W := mat.NewDense(n, n, nil)
	for i := range n {
		for range 3 {
			j := rng.IntN(n)
			if j == i {
				continue
			}
			v := rng.Float64()
			W.Set(i, j, v)
			if sym {
				W.Set(j, i, v)
			}
		}
	}
	g := &CSR{N: n, Ptr: make([]int, 1, n+1), Sym: sym}
	diag := make([]float64, n)
	A := mat.NewDense(n, n, nil)
	for i := range n {
		s := 0.0
		for j := range n {
			if v := W.At(i, j); v != 0 {
				g.Col, g.Val = append(g.Col, int32(j)), append(g.Val, v)
				A.Set(i, j, -v)
				s += v
			}
		}
		g.Ptr = append(g.Ptr, len(g.Col))
		diag[i] = s + 1
		A.Set(i, i, diag[i])
	}
	return g, diag, A
}

// TestSolvers: conjugate gradients (symmetric), BiCGSTAB with ILU(0) and
// the envelope LU in RCM order (non-symmetric) agree with a dense LU solve
// of the same system (gonum mat.Solve) to 1e-9 relative.
func TestSolvers(t *testing.T) {
	const n, C = 60, 2
	for _, sym := range []bool{true, false} {
		g, diag, A := system(n, sym, 7)
		B := mat.NewDense(n, C, nil)
		for i := range n {
			B.Set(i, 0, float64(i%5))
			B.Set(i, 1, math.Sin(float64(i)))
		}
		var ref mat.Dense
		if err := ref.Solve(A, B); err != nil {
			t.Fatal(err)
		}
		on := make([]bool, n)
		for i := range on {
			on[i] = true
		}
		apply := func(out, x []float64) error {
			for i := range n {
				for c := range C {
					s := diag[i] * x[i*C+c]
					for k := g.Ptr[i]; k < g.Ptr[i+1]; k++ {
						s -= g.Val[k] * x[int(g.Col[k])*C+c]
					}
					out[i*C+c] = s
				}
			}
			return nil
		}
		var prec func(out, in []float64)
		if !sym {
			f := NewILU0(g, diag, on)
			buf := make([]float64, n*C)
			prec = func(out, in []float64) { f.Apply(out, in, buf, C) }
		}
		x, it, rel, err := Solve(context.Background(), apply, mat.DenseCopyOf(B).RawMatrix().Data, prec, on, C, 1e-13, 500, sym, nil)
		if err != nil || rel > 1e-13 {
			t.Fatalf("sym %v: %d iterations, residual %g, %v", sym, it, rel, err)
		}
		check := func(name string, got func(i, c int) float64) {
			for i := range n {
				for c := range C {
					if d := math.Abs(got(i, c) - ref.At(i, c)); d > 1e-9*(1+math.Abs(ref.At(i, c))) {
						t.Fatalf("%s sym %v: x[%d][%d] = %v, want %v", name, sym, i, c, got(i, c), ref.At(i, c))
					}
				}
			}
		}
		check("Solve", func(i, c int) float64 { return x[i*C+c] })
		// Envelope LU in reverse Cuthill–McKee order.
		adj := make([][]int32, n)
		for i := range n {
			for k := g.Ptr[i]; k < g.Ptr[i+1]; k++ {
				j := g.Col[k]
				adj[i] = append(adj[i], j)
				adj[j] = append(adj[j], int32(i))
			}
		}
		ord := RCM(n, adj)
		pos := make([]int32, n)
		for q, i := range ord {
			pos[i] = int32(q)
		}
		rows := make([][]int32, n)
		vals := make([][]float64, n)
		pd := make([]float64, n)
		for q, i := range ord {
			pd[q] = diag[i]
			for k := g.Ptr[i]; k < g.Ptr[i+1]; k++ {
				rows[q] = append(rows[q], pos[g.Col[k]])
				vals[q] = append(vals[q], -g.Val[k])
			}
		}
		_, lf, uf := EnvelopeCost(n, rows)
		f, ok := NewEnvLU(n, pd, rows, vals, lf, uf)
		if !ok {
			t.Fatal("zero pivot")
		}
		for c := range C {
			col := make([]float64, n)
			for q, i := range ord {
				col[q] = B.At(i, c)
			}
			f.Solve(col)
			check("EnvLU", func(i, cc int) float64 {
				if cc != c {
					return ref.At(i, cc)
				}
				return col[pos[i]]
			})
		}
	}
}
