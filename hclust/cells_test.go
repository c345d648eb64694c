package hclust

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// With every row its own cell, FromPointsCells is FromPoints.
func TestCellsSingletonsAreFromPoints(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 1))
	n, d := 120, 3
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	cells := make([]int, n)
	for i := range cells {
		cells[i] = i
	}
	for _, m := range []Method{Single, Complete, Average, Weighted, Ward} {
		want, err := FromPoints(ctx, X, m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FromPointsCells(ctx, X, cells, n, m)
		if err != nil {
			t.Fatal(err)
		}
		sameCellTree(t, m.String(), got, want, 1e-12)
	}
}

// When the cells are well-separated blobs, the exact linkage merges
// inside every blob first, so the constraint changes nothing. (Weighted
// is left out: WPGMA between blobs depends on the order inside them.)
func TestCellsSeparatedBlobsAreFromPoints(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 9))
	k, per, d := 9, 7, 2
	n := k * per
	X := mat.NewDense(n, d, nil)
	cells := make([]int, n)
	for i := 0; i < n; i++ {
		c := (i * 5) % k // cells interleaved in row order
		cells[i] = c
		X.Set(i, 0, float64(c%3)*100+float64(c)*7+0.1*rng.NormFloat64())
		X.Set(i, 1, float64(c/3)*100+0.1*rng.NormFloat64())
	}
	for _, m := range []Method{Single, Complete, Average, Ward} {
		want, err := FromPoints(ctx, X, m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FromPointsCells(ctx, X, cells, k, m)
		if err != nil {
			t.Fatal(err)
		}
		sameCellTree(t, m.String(), got, want, 1e-9)
	}
}

// Every merge of a constrained tree joins two sets of rows at the exact
// linkage distance between the sets (single: min, complete: max,
// average: mean; Ward: √(2ab/(a+b))·‖centroid difference‖), or at the
// height of a merge below it when that is higher.
func TestCellsMergeHeightsAreSetDistances(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 2))
	n, d, k := 90, 2, 12
	X := mat.NewDense(n, d, nil)
	cells := make([]int, n)
	for i := 0; i < n; i++ {
		X.Set(i, 0, rng.Float64())
		X.Set(i, 1, rng.Float64())
		cells[i] = i % k
	}
	dist := func(i, j int) float64 {
		return math.Hypot(X.At(i, 0)-X.At(j, 0), X.At(i, 1)-X.At(j, 1))
	}
	for _, m := range []Method{Single, Complete, Average, Ward} {
		tr, err := FromPointsCells(ctx, X, cells, k, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		leaves := make([][]int, 2*n-1)
		height := make([]float64, 2*n-1)
		for i := 0; i < n; i++ {
			leaves[i] = []int{i}
		}
		raised := 0
		for q, mg := range tr.Merges {
			A, B := leaves[mg.A], leaves[mg.B]
			var want float64
			switch m {
			case Single:
				want = math.Inf(1)
			}
			for _, i := range A {
				for _, j := range B {
					switch m {
					case Single:
						want = min(want, dist(i, j))
					case Complete:
						want = max(want, dist(i, j))
					case Average:
						want += dist(i, j) / float64(len(A)*len(B))
					}
				}
			}
			if m == Ward {
				var s float64
				for c := 0; c < d; c++ {
					var ma, mb float64
					for _, i := range A {
						ma += X.At(i, c) / float64(len(A))
					}
					for _, j := range B {
						mb += X.At(j, c) / float64(len(B))
					}
					s += (ma - mb) * (ma - mb)
				}
				a, b := float64(len(A)), float64(len(B))
				want = math.Sqrt(2 * a * b / (a + b) * s)
			}
			below := max(height[mg.A], height[mg.B])
			switch {
			case math.Abs(mg.Height-want) <= 1e-9*(1+want):
			case mg.Height == below && below > want:
				raised++
			default:
				t.Fatalf("%v: merge %d (%d+%d rows) at %v, want %v (or %v below)", m, q, len(A), len(B), mg.Height, want, below)
			}
			leaves[n+q] = append(append([]int(nil), A...), B...)
			height[n+q] = mg.Height
		}
		t.Logf("%v: %d of %d merges raised", m, raised, n-1)
	}
}

func TestCellsErrors(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	cases := []struct {
		cells []int
		k     int
		m     Method
		want  error
	}{
		{[]int{0, 0, 1}, 2, Average, ErrShape},
		{[]int{0, 0, 1, 2}, 2, Average, ErrShape},
		{[]int{0, 0, 2, 2}, 3, Average, ErrShape},
		{[]int{0, 0, 1, 1}, 2, Centroid, ErrMethod},
	}
	for i, c := range cases {
		if _, err := FromPointsCells(ctx, X, c.cells, c.k, c.m); !errors.Is(err, c.want) {
			t.Errorf("case %d: err %v, want %v", i, err, c.want)
		}
	}
	X.Set(2, 0, math.NaN())
	if _, err := FromPointsCells(ctx, X, []int{0, 0, 1, 1}, 2, Average); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: err %v, want ErrNonFinite", err)
	}
}

// sameCellTree fails unless got and want have the same merges and sizes and
// heights within tol (relative).
func sameCellTree(t *testing.T, name string, got, want *Tree, tol float64) {
	t.Helper()
	if got.N != want.N || len(got.Merges) != len(want.Merges) {
		t.Fatalf("%s: %d leaves %d merges, want %d, %d", name, got.N, len(got.Merges), want.N, len(want.Merges))
	}
	for q := range want.Merges {
		g, w := got.Merges[q], want.Merges[q]
		if g.A != w.A || g.B != w.B || g.Size != w.Size || !(math.Abs(g.Height-w.Height) <= tol*(1+math.Abs(w.Height))) {
			t.Fatalf("%s: merge %d is %+v, want %+v", name, q, g, w)
		}
	}
}

// FromRowsCells on the Euclidean distance is FromPointsCells, bit for bit
// (the same sums in the same order), for any number of workers.
func TestRowsCellsIsPointsCells(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 4))
	n, d, k := 150, 3, 17
	X := mat.NewDense(n, d, nil)
	cells := make([]int, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
		cells[i] = (i * 7) % k
	}
	dist := func(_, i int, out []float64) {
		for j := range out {
			var s float64
			for c := 0; c < d; c++ {
				t := X.At(i, c) - X.At(j, c)
				s += t * t
			}
			out[j] = math.Sqrt(s)
		}
	}
	for _, m := range []Method{Single, Complete, Average, Weighted} {
		want, err := FromPointsCells(ctx, X, cells, k, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			got, err := FromRowsCells(ctx, n, cells, k, m, workers, dist)
			if err != nil {
				t.Fatal(err)
			}
			sameCellTree(t, m.String(), got, want, 0)
		}
	}
	bad := func(_, i int, out []float64) {
		dist(0, i, out)
		out[(i+1)%n] = -1
	}
	if _, err := FromRowsCells(ctx, n, cells, k, Average, 2, bad); !errors.Is(err, ErrNegative) {
		t.Errorf("negative distance: err %v, want ErrNegative", err)
	}
	if _, err := FromRowsCells(ctx, n, cells, k, Ward, 2, dist); !errors.Is(err, ErrMethod) {
		t.Errorf("ward: err %v, want ErrMethod", err)
	}
}

// The cells of ExactCells are clusters of the exact tree: the tree on
// them (FromPointsCells) is FromPoints's, for clustered and uniform data.
func TestExactCellsGiveTheExactTree(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(17, 5))
	for _, shape := range []string{"blobs", "uniform"} {
		n, d := 400, 3
		X := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				v := rng.Float64()
				if shape == "blobs" {
					v = float64(i%5)*3 + 0.5*rng.NormFloat64()
				}
				X.Set(i, j, v)
			}
		}
		for _, m := range []Method{Complete, Average, Weighted} {
			for _, k := range []int{3, 10} {
				cells, K, err := ExactCells(ctx, X, m, k)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s %v k=%d: %d cells", shape, m, k, K)
				if K >= n*3/4 {
					t.Errorf("%s %v k=%d: %d cells for %d rows: hardly any merge certified", shape, m, k, K, n)
				}
				got, err := FromPointsCells(ctx, X, cells, K, m)
				if err != nil {
					t.Fatal(err)
				}
				want, err := FromPoints(ctx, X, m)
				if err != nil {
					t.Fatal(err)
				}
				sameCellTree(t, fmt.Sprintf("%s %v k=%d (%d cells)", shape, m, k, K), got, want, 1e-12)
			}
		}
	}
}

// ExactCellsKnown with the Euclidean distance known on the k-NN pairs only
// (and the k-th neighbour's distance as radius) finds cells of the exact
// tree too: the tree on them is FromPoints's.
func TestExactCellsKnownGiveTheExactTree(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(23, 6))
	n, d, k := 300, 2, 8
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, rng.Float64()+float64(i%3))
		X.Set(i, 1, rng.Float64())
	}
	dist := func(i, j int) float64 { return math.Hypot(X.At(i, 0)-X.At(j, 0), X.At(i, 1)-X.At(j, 1)) }
	known := make([]map[int32]float64, n)
	radius := make([]float64, n)
	for i := range known {
		known[i] = map[int32]float64{}
	}
	for i := 0; i < n; i++ {
		order := rng.Perm(n)
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(dist(i, a), dist(i, b)) })
		order = slices.DeleteFunc(order, func(j int) bool { return j == i })
		for _, j := range order[:k] {
			known[i][int32(j)], known[j][int32(i)] = dist(i, j), dist(i, j)
		}
		radius[i] = dist(i, order[k-1])
	}
	ptr := []int{0}
	var adj []int32
	var w []float64
	for i := 0; i < n; i++ {
		keys := slices.Sorted(maps.Keys(known[i]))
		for _, j := range keys {
			adj = append(adj, j)
			w = append(w, known[i][j])
		}
		ptr = append(ptr, len(adj))
	}
	for _, m := range []Method{Complete, Average, Weighted} {
		cells, K, err := ExactCellsKnown(ctx, n, m, ptr, adj, w, radius)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %d cells", m, K)
		if K >= n*3/4 {
			t.Errorf("%v: %d cells for %d rows: hardly any merge certified", m, K, n)
		}
		got, err := FromPointsCells(ctx, X, cells, K, m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := FromPoints(ctx, X, m)
		if err != nil {
			t.Fatal(err)
		}
		sameCellTree(t, fmt.Sprintf("known %v (%d cells)", m, K), got, want, 1e-12)
	}
	bad := append([]int32(nil), adj...)
	bad[0], bad[1] = bad[1], bad[0]
	if _, _, err := ExactCellsKnown(ctx, n, Average, ptr, bad, w, radius); !errors.Is(err, ErrShape) {
		t.Errorf("unsorted partners: err %v, want ErrShape", err)
	}
}

// Sets of identical rows: ExactCells starts them as clusters (they would
// fill the neighbour lists at distance 0), the tree on its cells is still
// FromPoints's, and FromPointsCells takes a cell of identical rows larger
// than CellsMaxSize (merges at height 0, no matrix).
func TestExactCellsDuplicates(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 7))
	n, d := 1900, 2
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		if i < 1800 {
			X.Set(i, 0, float64(i%3)) // three points, 600 copies each, interleaved
			X.Set(i, 1, float64(i%3)*0.5)
		} else {
			X.Set(i, 0, 4*rng.Float64())
			X.Set(i, 1, 4*rng.Float64())
		}
	}
	for _, m := range []Method{Complete, Average, Weighted} {
		cells, K, err := ExactCells(ctx, X, m, 40)
		if err != nil {
			t.Fatal(err)
		}
		if K > 103 {
			t.Errorf("%v: %d cells, want at most 3 duplicate sets + 100 rows", m, K)
		}
		got, err := FromPointsCells(ctx, X, cells, K, m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := FromPoints(ctx, X, m)
		if err != nil {
			t.Fatal(err)
		}
		// equal heights (the 1797 merges at 0) can pair otherwise: compare
		// the sorted heights and the cut into 5 clusters
		for q := range want.Merges {
			g, w := got.Merges[q].Height, want.Merges[q].Height
			if math.Abs(g-w) > 1e-9*(1+w) {
				t.Fatalf("%v: merge %d at %v, want %v", m, q, g, w)
			}
		}
		a, _ := got.CutK(5)
		b, _ := want.CutK(5)
		if !samePartition(a, b) {
			t.Errorf("%v: the 5-cluster cuts differ", m)
		}
	}
	big := CellsMaxSize + 10
	Y := mat.NewDense(big+2, 1, nil)
	Y.Set(big, 0, 5)
	Y.Set(big+1, 0, 7)
	cells := make([]int, big+2)
	cells[big], cells[big+1] = 1, 2
	tr, err := FromPointsCells(ctx, Y, cells, 3, Average) // 0 ×5,010, then 5, 7: mean 6

	if err != nil {
		t.Fatal(err)
	}
	if h := tr.Merges[big-2].Height; h != 0 || tr.Merges[big-1].Height != 2 || math.Abs(tr.Merges[big].Height-6) > 1e-9 {
		t.Errorf("merges %+v %+v %+v", tr.Merges[big-2], tr.Merges[big-1], tr.Merges[big])
	}
}

// samePartition reports whether two labellings group the rows alike.
func samePartition(a, b []int) bool {
	fa, fb := map[int]int{}, map[int]int{}
	for i := range a {
		if v, ok := fa[a[i]]; ok && v != b[i] {
			return false
		}
		if v, ok := fb[b[i]]; ok && v != a[i] {
			return false
		}
		fa[a[i]], fb[b[i]] = b[i], a[i]
	}
	return true
}

// ExactCells with as many neighbours as rows or more (k ≥ N−1, small
// inputs under the usual k = 40) knows every pair: one cell, the whole
// exact tree certified; with duplicates, k counts the distinct rows. Below
// that it still returns cells of the exact tree. k < 1 is ErrShape.
func TestExactCellsFewRows(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 7))
	for _, n := range []int{2, 3, 5, 12, 40, 41} {
		X := mat.NewDense(n, 3, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < 3; j++ {
				X.Set(i, j, float64(i%2)*3+rng.NormFloat64())
			}
		}
		if n > 3 {
			X.SetRow(n-1, mat.Row(nil, 0, X)) // a duplicate row
		}
		distinct := n
		if n > 3 {
			distinct--
		}
		for _, m := range []Method{Complete, Average, Weighted} {
			for _, k := range []int{1, distinct - 1, n - 1, n, 40} {
				if k < 1 {
					continue
				}
				cells, K, err := ExactCells(ctx, X, m, k)
				if err != nil {
					t.Fatalf("n=%d %v k=%d: %v", n, m, k, err)
				}
				if k >= distinct-1 && K != 1 {
					t.Errorf("n=%d %v k=%d: %d cells, want 1 (every pair known)", n, m, k, K)
				}
				got, err := FromPointsCells(ctx, X, cells, K, m)
				if err != nil {
					t.Fatal(err)
				}
				want, err := FromPoints(ctx, X, m)
				if err != nil {
					t.Fatal(err)
				}
				sameCellTree(t, fmt.Sprintf("n=%d %v k=%d (%d cells)", n, m, k, K), got, want, 1e-12)
			}
		}
	}
	if _, _, err := ExactCells(ctx, mat.NewDense(3, 1, []float64{0, 1, 3}), Average, 0); !errors.Is(err, ErrShape) {
		t.Errorf("k = 0: err %v, want ErrShape", err)
	}
}
