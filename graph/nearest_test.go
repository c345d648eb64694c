package graph

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Searcher.Nearest returns the k smallest lengths of a full search from
// the source (From), each node with its own length, in order.
func TestSearcherNearest(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	n := 300
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, rng.Float64()+float64(i%3)*5) // three components
		X.Set(i, 1, rng.Float64())
	}
	g, err := KNN(context.Background(), X, 4)
	if err != nil {
		t.Fatal(err)
	}
	var s Searcher
	full := make([]float64, n)
	var nodes []int32
	var lengths []float64
	for _, src := range []int{0, 7, 150, 299} {
		s.From(g, src, full)
		var want []float64
		for j, v := range full {
			if j != src && v < 1e300 {
				want = append(want, v)
			}
		}
		slices.Sort(want)
		for _, k := range []int{1, 10, 150} {
			nodes, lengths = s.Nearest(g, src, k, nodes, lengths)
			if len(nodes) != min(k, len(want)) {
				t.Fatalf("src %d k %d: %d nodes, want %d", src, k, len(nodes), min(k, len(want)))
			}
			for r, v := range nodes {
				if lengths[r] != full[v] || lengths[r] != want[r] || int(v) == src {
					t.Fatalf("src %d k %d: %d-th node %d at %v, full search %v, %d-th smallest %v", src, k, r, v, lengths[r], full[v], r, want[r])
				}
			}
		}
	}
}
