package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHierarchyROCSubgraph: over the subgraph induced by rows, the ROC
// equals HierarchyROCGraph of that subgraph renumbered by hand, and its
// positives are the edges with both ends in rows.
func TestHierarchyROCSubgraph(t *testing.T) {
	const n, m = 40, 15
	rng := rand.New(rand.NewPCG(3, 1))
	nb := make([][]int32, n)
	for e := 0; e < 120; e++ {
		a, b := rng.IntN(n), rng.IntN(n)
		if a == b || slices.Contains(nb[a], int32(b)) {
			continue
		}
		nb[a], nb[b] = append(nb[a], int32(b)), append(nb[b], int32(a))
	}
	rows := rng.Perm(n)[:m]
	slices.Sort(rows)
	sub := make([][]int32, m)
	edges := 0
	for i, r := range rows {
		for j, s := range rows {
			if slices.Contains(nb[r], int32(s)) {
				sub[i] = append(sub[i], int32(j))
				if i < j {
					edges++
				}
			}
		}
	}
	tr := randomTree(t, m, 5)
	got, err := HierarchyROCSubgraph(tr, rows, func(v int) []int32 { return nb[v] })
	if err != nil {
		t.Fatal(err)
	}
	want, err := HierarchyROCGraph(tr, m, func(v int) []int32 { return sub[v] })
	if err != nil {
		t.Fatal(err)
	}
	if got.Positive != int64(edges) || got.Positive != want.Positive || got.Negative != want.Negative ||
		!slices.Equal(got.TPR, want.TPR) || !slices.Equal(got.FPR, want.FPR) {
		t.Fatalf("subgraph ROC %+v, want %+v (%d edges)", got, want, edges)
	}
}
