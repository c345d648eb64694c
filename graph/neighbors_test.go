package graph

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func readFloatCSV(t *testing.T, path string) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float64, 0, len(recs)-1)
	for _, r := range recs[1:] {
		row := make([]float64, len(r))
		for j, c := range r {
			if row[j], err = strconv.ParseFloat(c, 64); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, row)
	}
	return out
}

// TestKNearestSklearn: KNearest equals scikit-learn's
// kneighbors_graph(X, 6, mode='distance', include_self=False) on points
// without tied distances (testdata/kneighbors.py): the same neighbours in
// the same order, distances to 1e-12.
func TestKNearestSklearn(t *testing.T) {
	pts := readFloatCSV(t, "testdata/kneighbors_points.csv")
	X := mat.NewDense(len(pts), 3, nil)
	for i, p := range pts {
		X.SetRow(i, p)
	}
	want := readFloatCSV(t, "testdata/kneighbors_sklearn.csv")
	nb, err := KNearest(context.Background(), X, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != nb.N*nb.K {
		t.Fatalf("%d entries, scikit-learn has %d", nb.N*nb.K, len(want))
	}
	for p, w := range want {
		i := p / nb.K
		if int(w[0]) != i || int(w[1]) != int(nb.Index[p]) || math.Abs(w[2]-nb.Dist[p]) > 1e-12 {
			t.Fatalf("entry %d: row %d neighbour %d at %v, scikit-learn %v", p, i, nb.Index[p], nb.Dist[p], w)
		}
	}
}

// TestKNearestTies: among equal distances the lower row wins, and a row
// with more than k duplicates keeps k of the others (itself dropped only
// when it is among the k+1 nearest).
func TestKNearestTies(t *testing.T) {
	// Rows 0..4 are one point; 5 is at distance 1 from it, 6 at distance 1 too.
	X := mat.NewDense(7, 1, []float64{0, 0, 0, 0, 0, 1, -1})
	nb, err := KNearest(context.Background(), X, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Rows 3 and 4 are not among their own 3 nearest (0, 1, 2): the first
	// is dropped.
	want := [][]int32{{1, 2}, {0, 2}, {0, 1}, {1, 2}, {1, 2}, {0, 1}, {0, 1}}
	for i, w := range want {
		got := nb.Index[i*2 : i*2+2]
		if got[0] != w[0] || got[1] != w[1] {
			t.Fatalf("row %d: neighbours %v, want %v", i, got, w)
		}
	}
	// k = 1 on a point with more than one duplicate: the k+1 = 2 nearest of
	// row 4 are rows 0 and 1 (not itself): the first, 0, is dropped.
	nb, err = KNearest(context.Background(), X, 1)
	if err != nil {
		t.Fatal(err)
	}
	if nb.Index[4] != 1 || nb.Index[0] != 1 {
		t.Fatalf("k = 1: row 4 → %d, row 0 → %d, want 1 and 1", nb.Index[4], nb.Index[0])
	}
}
