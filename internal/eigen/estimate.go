package eigen

import (
	"context"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Estimate is how long Sym with vectors should take on an n×n matrix on
// this machine now: the time of a 384×384 decomposition of a random
// symmetric matrix (fixed seed), measured when called, scaled by
// (n/384)³. It takes about as long as that one decomposition (some
// milliseconds).
func Estimate(n int) time.Duration {
	const m = 384
	r := rand.New(rand.NewPCG(1, 2))
	A := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			A.SetSym(i, j, r.NormFloat64())
		}
	}
	start := time.Now()
	Sym(context.Background(), A, true)
	unit := time.Since(start)
	f := float64(n) / m
	return time.Duration(float64(unit) * f * f * f)
}
