package eigen

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// rbfGram is exp(−‖x_i − x_j‖²/2) of n uniform points in [0,1]^3 (seeded):
// a kernel matrix with a fast-decaying spectrum, the typical input of
// kernel.ClipPSD and Embed, where most of the spectrum deflates.
func rbfGram(n int, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := make([][3]float64, n)
	for i := range x {
		for d := range x[i] {
			x[i][d] = rng.Float64()
		}
	}
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s := 0.0
			for d := 0; d < 3; d++ {
				t := x[i][d] - x[j][d]
				s += t * t
			}
			a.SetSym(i, j, math.Exp(-s/2))
		}
	}
	return a
}

// TestLarge checks residual and orthogonality at a size where the divide
// and conquer recurses several levels deep and runs its halves in parallel:
// a random matrix (little deflation) and an RBF Gram matrix (heavy
// deflation, eigenvalues down to rounding level).
func TestLarge(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 500
	}
	for _, c := range []struct {
		name string
		a    *mat.SymDense
	}{
		{"random", randSym(n, 99)},
		{"rbf", rbfGram(n, 5)},
	} {
		t0 := time.Now()
		vals, v, err := Sym(context.Background(), c.a, true)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		res, orth := check(t, c.name, c.a, vals, v)
		t.Logf("%s n=%d: %v, residual %.2g, orthogonality %.2g", c.name, n, el, res, orth)
	}
}
