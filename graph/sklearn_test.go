package graph

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Fixtures: testdata/sklearn_knn.json.gz, written by
// testdata/gen_sklearn_knn.py (scikit-learn's kneighbors_graph, brute force,
// with 1 and 2 OpenMP threads; versions stored in the file).
type sklearnKNNCase struct {
	Name    string
	K       int
	X       [][]float64
	Threads map[string][][]int
}

func undirected(rows [][]int) map[[2]int]bool {
	e := map[[2]int]bool{}
	for i, r := range rows {
		for _, j := range r {
			e[[2]int{min(i, j), max(i, j)}] = true
		}
	}
	return e
}

func graphEdges(g *Graph) map[[2]int]bool {
	e := map[[2]int]bool{}
	for _, x := range g.EdgeList() {
		e[[2]int{min(x.I, x.J), max(x.I, x.J)}] = true
	}
	return e
}

func diffEdges(a, b map[[2]int]bool) int {
	d := 0
	for x := range a {
		if !b[x] {
			d++
		}
	}
	for x := range b {
		if !a[x] {
			d++
		}
	}
	return d
}

// TestKNNSklearnEqualsSklearn: the sklearn tie rule gives scikit-learn's
// graph edge for edge on exactly tied integer data, for the thread count
// scikit-learn ran with, where the lower-index rule differs.
func TestKNNSklearnEqualsSklearn(t *testing.T) {
	f, err := os.Open("testdata/sklearn_knn.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []sklearnKNNCase }
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	differs := 0
	for _, c := range doc.Cases {
		n, d := len(c.X), len(c.X[0])
		X := mat.NewDense(n, d, nil)
		for i, r := range c.X {
			X.SetRow(i, r)
		}
		own, err := KNN(context.Background(), X, c.K)
		if err != nil {
			t.Fatal(err)
		}
		for ts, rows := range c.Threads {
			threads := int(ts[0] - '0')
			sp, err := ParseSpec("knn:" + itoa(c.K) + ":sklearn=" + ts)
			if err != nil || sp.Sklearn != threads {
				t.Fatalf("ParseSpec: %+v, %v", sp, err)
			}
			g, err := Build(context.Background(), X, sp)
			if err != nil {
				t.Fatal(err)
			}
			want := undirected(rows)
			if dd := diffEdges(graphEdges(g), want); dd != 0 {
				t.Errorf("%s, %d threads: %d edges differ from scikit-learn's", c.Name, threads, dd)
			}
			differs += diffEdges(graphEdges(own), want)
		}
	}
	if differs == 0 {
		t.Fatal("the lower-index rule equals scikit-learn on every case: the fixtures test no tie")
	}
}

func TestParseSpecTies(t *testing.T) {
	for in, want := range map[string]Spec{
		"knn:7":           {Kind: KindKNN, K: 7},
		"knn:7:sklearn":   {Kind: KindKNN, K: 7, Sklearn: 1},
		"knn:7:sklearn=8": {Kind: KindKNN, K: 7, Sklearn: 8},
	} {
		got, err := ParseSpec(in)
		if err != nil || got != want || got.String() != in {
			t.Errorf("%q: %+v (%q), %v", in, got, got.String(), err)
		}
	}
	for _, bad := range []string{"knn:7:", "knn:7:sk", "knn:7:sklearn=0", "knn:7:sklearn=x"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
