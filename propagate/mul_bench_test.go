package propagate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkMul times the dense row product W·x with C columns (the step of
// every dense solver).
func BenchmarkMul(b *testing.B) {
	n := 5000
	rng := rand.New(rand.NewPCG(1, 1))
	W := make([]float64, n*n)
	for i := range W {
		W[i] = rng.Float64()
	}
	g := &graph{n: n, dense: W, sym: true}
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	for _, C := range []int{1, 2} {
		x := make([]float64, n*C)
		for i := range x {
			x[i] = rng.Float64()
		}
		y := make([]float64, n*C)
		b.Run(fmt.Sprintf("rows/C=%d", C), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				g.mul(context.Background(), y, x, C, all)
			}
		})
	}
}

// TestSymCols3: the sixteen-row column kernel returns dot3's sums bit for
// bit (W symmetric with zeros, tiny and negative entries; x with zeros and
// a spread of magnitudes), for rows at every block position and n not a
// multiple of 16, and mul gives the same y with and without the kernels
// for C = 3, 4, 5 and 9 columns (the rows not on left untouched).
func TestSymCols3(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{16, 37, 200} {
		W := make([]float64, n*n)
		for i := range n {
			for j := i; j < n; j++ {
				v := rng.NormFloat64() * math.Exp(-40*rng.Float64())
				if rng.IntN(5) == 0 {
					v = 0
				}
				W[i*n+j], W[j*n+i] = v, v
			}
		}
		x := make([]float64, 3*n)
		for i := range x {
			x[i] = rng.Float64() * math.Exp(-20*rng.Float64())
			if rng.IntN(7) == 0 {
				x[i] = 0
			}
		}
		var acc [3][16]float64
		for i := 0; i+16 <= n; i++ {
			if !symCols3(W, n, i, x, &acc) {
				t.Skip("no vector kernel on this CPU or build")
			}
			for r := range 16 {
				a, b, c := dot3(W[(i+r)*n:(i+r+1)*n], x)
				if math.Float64bits(a) != math.Float64bits(acc[0][r]) || math.Float64bits(b) != math.Float64bits(acc[1][r]) ||
					math.Float64bits(c) != math.Float64bits(acc[2][r]) {
					t.Fatalf("n %d row %d: kernel (%v %v %v), dot3 (%v %v %v)", n, i+r, acc[0][r], acc[1][r], acc[2][r], a, b, c)
				}
			}
		}
		g := &graph{n: n, dense: W, sym: true}
		on := make([]bool, n)
		for i := range on {
			on[i] = rng.IntN(4) != 0
		}
		for _, C := range []int{3, 4, 5, 9} {
			xc := make([]float64, C*n)
			for i := range xc {
				xc[i] = rng.Float64() * math.Exp(-20*rng.Float64())
			}
			fast, slow := make([]float64, C*n), make([]float64, C*n)
			if err := g.mul(context.Background(), fast, xc, C, on); err != nil {
				t.Fatal(err)
			}
			old := setAVX2(false)
			err := g.mul(context.Background(), slow, xc, C, on)
			setAVX2(old)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range fast {
				if math.Float64bits(v) != math.Float64bits(slow[i]) {
					t.Fatalf("n %d, C %d: mul y[%d] = %v with the kernels, %v without", n, C, i, v, slow[i])
				}
			}
		}
	}
}
