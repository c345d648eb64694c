package graph

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDistancesFromEqualsAllPairs: the rows from a few sources are the
// all-pairs matrix's rows, to rounding: a path's length summed from the
// other end may differ in the last bits (1e-14 relative for paths of a few
// dozen edges).
func TestDistancesFromEqualsAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	X := mat.NewDense(300, 3, nil)
	for i := 0; i < 300; i++ {
		for j := 0; j < 3; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	ctx := context.Background()
	g, err := KNN(ctx, X, 6)
	if err != nil {
		t.Fatal(err)
	}
	all, err := ShortestPathsExact(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	src := []int{0, 17, 299, 17}
	D, err := DistancesFrom(ctx, g, src)
	if err != nil {
		t.Fatal(err)
	}
	for r, s := range src {
		for j := 0; j < 300; j++ {
			if a, b := D.At(r, j), all.At(s, j); math.Abs(a-b) > 1e-14*b {
				t.Fatalf("source %d node %d: %v, all pairs %v", s, j, D.At(r, j), all.At(s, j))
			}
		}
	}
	if _, err := DistancesFrom(ctx, g, []int{300}); err == nil {
		t.Error("source out of range: no error")
	}
}
