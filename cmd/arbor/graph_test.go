package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGraphSklearn: arbor graph writes scikit-learn's
// kneighbors_graph(X, 6, mode='distance') entries, row by row, nearest
// first (graph/testdata/kneighbors.py).
func TestGraphSklearn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "edges.csv")
	mustArbor(t, "graph", "--data", "../../graph/testdata/kneighbors_points.csv", "--k", "6", "--out", out, "--quiet")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../graph/testdata/kneighbors_sklearn.csv")
	if err != nil {
		t.Fatal(err)
	}
	g := strings.Split(strings.TrimSpace(string(got)), "\n")
	w := strings.Split(strings.TrimSpace(string(want)), "\n")
	if len(g) != len(w) || g[0] != "row,neighbour,distance" {
		t.Fatalf("%d lines (header %q), scikit-learn %d", len(g), g[0], len(w))
	}
	for i := 1; i < len(w); i++ {
		gf, wf := strings.Split(g[i], ","), strings.Split(w[i], ",")
		gd, _ := strconv.ParseFloat(gf[2], 64)
		wd, _ := strconv.ParseFloat(wf[2], 64)
		if gf[0] != wf[0] || gf[1] != wf[1] || math.Abs(gd-wd) > 1e-12 {
			t.Fatalf("line %d: %s, scikit-learn %s", i+1, g[i], w[i])
		}
	}
}

// TestGraphStdout: arbor graph --out - writes the edges to standard output
// (the file's bytes), and no file named "-".
func TestGraphStdout(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "edges.csv")
	mustArbor(t, "graph", "--data", "iris", "--k", "3", "--out", out, "--quiet")
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if got := mustArbor(t, "graph", "--data", "iris", "--k", "3", "--out", "-"); got != string(want) {
		t.Errorf("--out - wrote %d bytes to standard output, the file has %d", len(got), len(want))
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`--out - wrote a file named "-"`)
	}
}
