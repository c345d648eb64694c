package metrics

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// randomTree is average linkage over random points (any valid tree will do).
func randomTree(t *testing.T, n int, seed uint64) *hclust.Tree {
	rng := rand.New(rand.NewPCG(seed, 9))
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, rng.NormFloat64())
		X.Set(i, 1, rng.NormFloat64())
	}
	tr, err := hclust.FromPoints(context.Background(), X, hclust.Average)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestHierarchyROCBruteForce: the incremental counts equal PairCounts (or
// a direct edge count) of CutK at every level.
func TestHierarchyROCBruteForce(t *testing.T) {
	n := 60
	tr := randomTree(t, n, 1)
	rng := rand.New(rand.NewPCG(2, 3))
	y := make([]int, n)
	for i := range y {
		y[i] = rng.IntN(4)
	}
	nb := make([][]int32, n)
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < 0.1 {
				nb[u] = append(nb[u], int32(v))
				nb[v] = append(nb[v], int32(u))
			}
		}
	}
	rl, err := HierarchyROCLabels(tr, y)
	if err != nil {
		t.Fatal(err)
	}
	rg, err := HierarchyROCGraph(tr, n, func(v int) []int32 { return nb[v] })
	if err != nil {
		t.Fatal(err)
	}
	if len(rl.FPR) != n || len(rg.TPR) != n {
		t.Fatalf("%d, %d points, want %d", len(rl.FPR), len(rg.TPR), n)
	}
	for k := 0; k < n; k++ {
		lab, _ := tr.CutK(n - k)
		pc, _ := PairCounts(y, lab)
		if rl.TPR[k] != pc.TPR() || rl.FPR[k] != pc.FPR() {
			t.Fatalf("labels level %d: (%v, %v), brute force (%v, %v)", k, rl.FPR[k], rl.TPR[k], pc.FPR(), pc.TPR())
		}
		var tp, fp, e int64
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				edge := false
				for _, w := range nb[u] {
					edge = edge || int(w) == v
				}
				if edge {
					e++
				}
				if lab[u] == lab[v] {
					if edge {
						tp++
					} else {
						fp++
					}
				}
			}
		}
		neg := int64(n*(n-1)/2) - e
		if rg.TPR[k] != float64(tp)/float64(e) || rg.FPR[k] != float64(fp)/float64(neg) {
			t.Fatalf("graph level %d: (%v, %v), brute force (%v, %v)", k, rg.FPR[k], rg.TPR[k], float64(fp)/float64(neg), float64(tp)/float64(e))
		}
	}
	if rl.FPR[n-1] != 1 || rl.TPR[n-1] != 1 || rg.FPR[0] != 0 {
		t.Errorf("end points")
	}
}

// TestAUCClosedForm: a perfect hierarchy (classes merged first) has AUC 1;
// four items {0,1} {2,3} merged as ((0,1),(2,3)): points (0,0), (0,.5),
// (0,1), (1,1): AUC 1. Merged as ((0,2),(1,3)): (0,0), (.25,0), (.5,0),
// (1,1): AUC 0.25.
func TestAUCClosedForm(t *testing.T) {
	y := []int{0, 0, 1, 1}
	good := &hclust.Tree{N: 4, Merges: []hclust.Merge{{A: 0, B: 1, Height: 1, Size: 2}, {A: 2, B: 3, Height: 1, Size: 2}, {A: 4, B: 5, Height: 2, Size: 4}}}
	bad := &hclust.Tree{N: 4, Merges: []hclust.Merge{{A: 0, B: 2, Height: 1, Size: 2}, {A: 1, B: 3, Height: 1, Size: 2}, {A: 4, B: 5, Height: 2, Size: 4}}}
	for _, tc := range []struct {
		t    *hclust.Tree
		want float64
	}{{good, 1}, {bad, 0.25}} {
		r, err := HierarchyROCLabels(tc.t, y)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.AUC()-tc.want) > 1e-15 {
			t.Errorf("AUC %v, want %v (%v, %v)", r.AUC(), tc.want, r.FPR, r.TPR)
		}
	}
	if _, err := HierarchyROCLabels(good, []int{0, 1}); err == nil {
		t.Error("size mismatch accepted")
	}
	if _, err := HierarchyROCGraph(good, 4, func(v int) []int32 { return []int32{int32(v)} }); err == nil {
		t.Error("self loop accepted")
	}
	// partitions: K = 1, 2 (perfect), 4 (singletons), then the origin
	p, err := PartitionROC(y, [][]int{{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 1, 2, 3}}, true)
	if err != nil {
		t.Fatal(err)
	}
	// (1,1) → (0,1) → (0,0) → (0,0): area −1, |AUC| = 1
	if p.AUC() != -1 || p.AbsAUC() != 1 {
		t.Errorf("partition AUC %v", p.AUC())
	}
}

// BenchmarkHierarchyROC: the incremental ROC of a 4000-leaf tree against
// 8 classes and against a random graph of 40 000 edges.
func BenchmarkHierarchyROC(b *testing.B) {
	n := 4000
	tr := randomTree(&testing.T{}, n, 4)
	rng := rand.New(rand.NewPCG(5, 6))
	y := make([]int, n)
	for i := range y {
		y[i] = rng.IntN(8)
	}
	nb := make([][]int32, n)
	seen := map[[2]int]bool{}
	for len(seen) < 40000 {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v || seen[[2]int{min(u, v), max(u, v)}] {
			continue
		}
		seen[[2]int{min(u, v), max(u, v)}] = true
		nb[u] = append(nb[u], int32(v))
		nb[v] = append(nb[v], int32(u))
	}
	b.Run("labels", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := HierarchyROCLabels(tr, y); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("graph", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := HierarchyROCGraph(tr, n, func(v int) []int32 { return nb[v] }); err != nil {
				b.Fatal(err)
			}
		}
	})
}
