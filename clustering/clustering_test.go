package clustering

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
)

// TestFitMatrixEqualsHclust: the matrix path is hclust.FromPoints (or
// hclust.Linkage on the geodesics) on the rows, with the cophenetic
// correlation against the same distances (hclust.FromPointsCophenetic's,
// within 1e-12 of CopheneticCorrelation's: other summation orders) and
// the cut of that tree.
func TestFitMatrixEqualsHclust(t *testing.T) {
	ctx := context.Background()
	X := dataset.Moons(120, 0.08, 3).X
	for _, m := range hclust.Methods() {
		r, err := Fit(ctx, Settings{Linkage: m, Cophenetic: true, Cut: &hclust.Cut{Criterion: hclust.NClusters, K: 3}}, X)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := hclust.FromPoints(ctx, X, m)
		if !slices.Equal(r.Tree.Merges, want.Merges) {
			t.Fatalf("%s: tree differs from hclust.FromPoints", m)
		}
		D, _ := distance.Euclidean(ctx, X)
		ccc, _ := want.CopheneticCorrelation(ctx, D)
		_, fused, _ := hclust.FromPointsCophenetic(ctx, X, m)
		labels, _ := want.CutK(3)
		if r.Cophenetic != fused || math.Abs(r.Cophenetic-ccc) > 1e-12 || !slices.Equal(r.Labels, labels) || r.Joins != -1 || r.Landmarks != nil {
			t.Fatalf("%s: cophenetic %v labels %v joins %d, want %v %v -1", m, r.Cophenetic, r.Labels, r.Joins, ccc, labels)
		}
	}
	// graph distances
	r, err := Fit(ctx, Settings{Linkage: hclust.Average, Distance: Graph, Graph: "knn:5", Cophenetic: true}, X)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := graph.Geodesic(ctx, X, graph.Spec{Kind: graph.KindKNN, K: 5})
	want, _ := hclust.Linkage(ctx, distance.FromSymmetric(g.G), hclust.Average)
	if !slices.Equal(r.Tree.Merges, want.Merges) || r.Joins != g.Joins || math.IsNaN(r.Cophenetic) {
		t.Fatalf("graph: tree, joins %d (want %d) or cophenetic %v differ", r.Joins, g.Joins, r.Cophenetic)
	}
}

// TestFitLowMemoryEqualsMatrix: under a budget below the N×N matrix every
// linkage clusters without it and gives the matrix path's tree (heights
// within 1e-9 relative: the paths round differently) and cut.
func TestFitLowMemoryEqualsMatrix(t *testing.T) {
	ctx := context.Background()
	X := dataset.Moons(200, 0.08, 1).X
	cut := &hclust.Cut{Criterion: hclust.NClusters, K: 4}
	for _, m := range hclust.Methods() {
		exact, err := Fit(ctx, Settings{Linkage: m, Cophenetic: true, Cut: cut}, X)
		if err != nil {
			t.Fatal(err)
		}
		budget := int64(100 << 10) // below the matrix (313 KiB), above the points path
		if cellsLinkage(m) {
			budget = 250 << 10 // above the 40-NN lists and the cells' matrix
		}
		s := Settings{Linkage: m, Cophenetic: true, Cut: cut, Budget: budget}
		c, _ := s.Cost(200, 2)
		if !c.LowMemory || c.Bytes > float64(budget) || c.Matrix <= float64(budget) {
			t.Fatalf("%s: cost %+v under budget %d", m, c, budget)
		}
		low, err := Fit(ctx, s, X)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(low.Labels, exact.Labels) || math.Abs(low.Cophenetic-exact.Cophenetic) > 1e-9 {
			t.Fatalf("%s: labels or cophenetic correlation differ (%v, %v)", m, low.Cophenetic, exact.Cophenetic)
		}
		for k, a := range exact.Tree.Merges {
			b := low.Tree.Merges[k]
			if a.A != b.A || a.B != b.B || a.Size != b.Size || math.Abs(a.Height-b.Height) > 1e-9*math.Abs(a.Height) {
				t.Fatalf("%s: merge %d: %v on the matrix, %v without", m, k, a, b)
			}
		}
	}
	// below even the path without the matrix: a MemoryError, before the work
	_, err := Fit(ctx, Settings{Linkage: hclust.Ward, Budget: 20 << 10}, X)
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, ErrMemory) || me.Bytes != bytesLow(200, 2, hclust.Ward) {
		t.Fatalf("err = %v, want a MemoryError of %v bytes", err, bytesLow(200, 2, hclust.Ward))
	}
}

// TestFitFloat32: the float32 working matrix gives the float64 tree on
// well-separated data (heights within 1e-6 relative, float32 rounding) and
// the same cophenetic correlation from rows made on the fly.
func TestFitFloat32(t *testing.T) {
	ctx := context.Background()
	X := dataset.Blobs(150, 3, 2, 0.5, 7).X
	for _, dist := range []string{Euclidean, Graph} {
		s := Settings{Linkage: hclust.Average, Distance: dist, Cophenetic: true, Cut: &hclust.Cut{Criterion: hclust.NClusters, K: 3}}
		exact, err := Fit(ctx, s, X)
		if err != nil {
			t.Fatal(err)
		}
		s.Float32 = true
		r, err := Fit(ctx, s, X)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Labels, exact.Labels) || math.Abs(r.Cophenetic-exact.Cophenetic) > 1e-6 || r.Joins != exact.Joins {
			t.Fatalf("%s: float32 labels, cophenetic %v (float64 %v) or joins differ", dist, r.Cophenetic, exact.Cophenetic)
		}
		for k, a := range exact.Tree.Merges {
			if b := r.Tree.Merges[k]; a.A != b.A || a.B != b.B || math.Abs(a.Height-b.Height) > 1e-6*math.Abs(a.Height) {
				t.Fatalf("%s: merge %d: %v float64, %v float32", dist, k, a, b)
			}
		}
	}
}

// TestFitLandmarks: the tree is on the landmark rows; each landmark keeps
// its own cluster and every row takes its nearest landmark's.
func TestFitLandmarks(t *testing.T) {
	ctx := context.Background()
	X := dataset.Blobs(300, 3, 2, 0.5, 2).X
	for _, dist := range []string{Euclidean, Graph} {
		r, err := Fit(ctx, Settings{Linkage: hclust.Ward, Distance: dist, Landmarks: 40, Seed: 5, Cut: &hclust.Cut{Criterion: hclust.NClusters, K: 3}}, X)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Landmarks) != 40 || r.Tree.N != 40 || len(r.Labels) != 300 {
			t.Fatalf("%s: %d landmarks, tree of %d, %d labels", dist, len(r.Landmarks), r.Tree.N, len(r.Labels))
		}
		cut, _ := r.Tree.CutK(3)
		for a, row := range r.Landmarks {
			if r.Labels[row] != cut[a] {
				t.Fatalf("%s: landmark row %d has label %d, its cluster is %d", dist, row, r.Labels[row], cut[a])
			}
		}
		for i := 0; i < 300; i++ { // nearest landmark, by brute force
			best := 0
			for a, row := range r.Landmarks {
				if distance.Dist(X.RawRowView(i), X.RawRowView(row)) < distance.Dist(X.RawRowView(i), X.RawRowView(r.Landmarks[best])) {
					best = a
				}
			}
			if r.Labels[i] != cut[best] {
				t.Fatalf("%s: row %d: label %d, nearest landmark's %d", dist, i, r.Labels[i], cut[best])
			}
		}
	}
}

// TestCost: the closed forms of the estimates.
func TestCost(t *testing.T) {
	n, d := 1000.0, 5
	for _, c := range []struct {
		s          Settings
		bytes      float64
		lowMemory  bool
		f32Dropped bool
	}{
		{Settings{Linkage: hclust.Average}, 8 * n * n, false, false},
		{Settings{Linkage: hclust.Single}, 4 * n * n, false, false},
		{Settings{Linkage: hclust.Average, Distance: Graph}, 20 * n * n, false, false},
		{Settings{Linkage: hclust.Average, Landmarks: 100}, 8 * 100 * 100, false, false},
		{Settings{Linkage: hclust.Average, Float32: true}, 4 * n * n, false, false},
		{Settings{Linkage: hclust.Single, Float32: true}, 8 * n * float64(d+8), false, false},
		{Settings{Linkage: hclust.Ward, Budget: 1 << 20}, 8 * n * float64(d+24), true, false},
		{Settings{Linkage: hclust.Average, Budget: 1 << 20}, 8*n*float64(d+24) + 20*n*40, true, false},
		{Settings{Linkage: hclust.Average, Budget: 1 << 20, Float32: true}, 4 * n * n, false, true},
		{Settings{Linkage: hclust.Average, Budget: 1 << 20, Distance: Graph}, 20 * n * n, false, false},
	} {
		got, err := c.s.Cost(int(n), d)
		if err != nil || got.Bytes != c.bytes || got.LowMemory != c.lowMemory || got.Float32Dropped != c.f32Dropped {
			t.Errorf("%+v: cost %+v, %v; want %v bytes, low memory %v", c.s, got, err, c.bytes, c.lowMemory)
		}
	}
	for _, s := range []Settings{{Distance: "manhattan"}, {Landmarks: -1}, {Distance: Graph, Graph: "knn:x"}, {Float32: true, Landmarks: 3}} {
		if _, err := s.Cost(10, 2); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}
