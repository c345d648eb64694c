package main

import (
	"encoding/json"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLandmarksSpreadingKNNGraph: with --landmarks, spreading on a knn:K
// affinity runs on the kNN graph of all rows, so its labels are the exact
// spreading's: classify writes the same prediction file as without
// --landmarks (K, α and the --unreachable policy taken from the flags), and
// eval scores the same accuracy on every split. With an rbf affinity it
// stays on the anchor graph (a different graph: the labels differ here).
func TestLandmarksSpreadingKNNGraph(t *testing.T) {
	dir := t.TempDir()
	trainPath, _ := moonsFiles(t, dir)
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, flags := range [][]string{nil, {"--affinity", "knn:4", "--alpha", "0.6"}, {"--affinity", "knn:3", "--unreachable", "first"}} {
		args := append([]string{"classify", "--data", trainPath, "--learner", "spreading", "--quiet"}, flags...)
		exact := filepath.Join(dir, "exact.csv")
		lm := filepath.Join(dir, "lm.csv")
		mustArbor(t, append(args, "--out", exact)...)
		_, stderr, err := arbor(t, append(args, "--out", lm, "--landmarks", "30")...)
		if err != nil {
			t.Fatal(err)
		}
		if read(exact) != read(lm) {
			t.Errorf("%v: --landmarks 30 labels differ from the exact spreading's", flags)
		}
		if !strings.Contains(stderr, "NN graph of all 200 rows") {
			t.Errorf("%v: stderr does not name the kNN graph:\n%s", flags, stderr)
		}
	}
	// The anchor graph for a dense affinity: not the exact labels.
	args := []string{"classify", "--data", trainPath, "--learner", "spreading", "--affinity", "rbf:2", "--quiet"}
	mustArbor(t, append(args, "--out", filepath.Join(dir, "exact.csv"))...)
	mustArbor(t, append(args, "--out", filepath.Join(dir, "lm.csv"), "--landmarks", "30")...)
	if read(filepath.Join(dir, "exact.csv")) == read(filepath.Join(dir, "lm.csv")) {
		t.Errorf("rbf:2: the anchor graph gave the exact labels (is it still the anchor graph?)")
	}
	// eval: the same accuracy per split.
	acc := func(extra ...string) []float64 {
		out := mustArbor(t, append([]string{"eval", "--data", "two_moons", "--learner", "spreading", "--affinity", "knn:5",
			"--labeled-per-class", "3", "--repeats", "3", "--seed", "2", "--json", "--quiet"}, extra...)...)
		var a []float64
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var r struct {
				Accuracy float64 `json:"accuracy"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			a = append(a, r.Accuracy)
		}
		return a
	}
	ex, lmAcc := acc(), acc("--landmarks", "20")
	if len(ex) != 3 || len(lmAcc) != 3 {
		t.Fatalf("results: exact %v, landmarks %v", ex, lmAcc)
	}
	for i := range ex {
		if ex[i] != lmAcc[i] {
			t.Errorf("split %d: eval --landmarks accuracy %v, exact %v", i, lmAcc[i], ex[i])
		}
	}
}

// TestKNNGraphAffordable: any N up to 10 dimensions, 250,000 rows up to
// 20, else a brute force up to N²·d = 2.5·10¹¹; spreading on other data
// runs on the anchor graph and says why.
func TestKNNGraphAffordable(t *testing.T) {
	for _, c := range []struct {
		n, d int
		want bool
	}{{1000000, 10, true}, {1000000, 11, false}, {250000, 20, true}, {250001, 16, false}, {50000, 100, true}, {50001, 100, false}, {100000, 36, false}, {6435, 36, true}, {20000, 16, true}} {
		if got := pipeline.KNNGraphAffordable(c.n, c.d); got != c.want {
			t.Errorf("pipeline.KNNGraphAffordable(%d, %d) = %v, want %v", c.n, c.d, got, c.want)
		}
	}
	ln := learner.AdaptPoints("spreading_knn:10", propagate.Spreading{Affinity: propagate.Affinity{Kind: propagate.KNN, K: 10}, Alpha: 0.2, Unreachable: propagate.UnreachableUnlabeled})
	if _, ok := pipeline.KNNGraphSpreading(ln, 100000, 36); ok || !strings.Contains(pipeline.AnchorInstead(ln, 100000, 36), "3.6e+11 multiply-adds") {
		t.Errorf("100,000 × 36: kNN graph %v, %q", ok, pipeline.AnchorInstead(ln, 100000, 36))
	}
	if _, ok := pipeline.KNNGraphSpreading(ln, 100000, 20); !ok || pipeline.AnchorInstead(ln, 100000, 20) != "" {
		t.Errorf("100,000 × 20: not the kNN graph")
	}
	if _, ok := pipeline.KNNGraphSpreading(ln, 1000000, 16); ok || !strings.Contains(pipeline.AnchorInstead(ln, 1000000, 16), "k-d tree search of 1000000 rows in 16 dimensions") {
		t.Errorf("10⁶ × 16: kNN graph %v, %q", ok, pipeline.AnchorInstead(ln, 1000000, 16))
	}
}

// TestLandmarksSpreadingMemory: the memory check of --landmarks with
// spreading on the kNN graph counts the sparse graph, not N×M blocks.
func TestLandmarksSpreadingMemory(t *testing.T) {
	dir := t.TempDir()
	trainPath, _ := moonsFiles(t, dir)
	for _, args := range [][]string{
		{"eval", "--data", "two_moons", "--learner", "spreading", "--landmarks", "50", "--labeled-per-class", "3", "--max-memory", "1KB"},
		{"classify", "--data", trainPath, "--learner", "spreading", "--landmarks", "50", "--max-memory", "1KB", "--out", filepath.Join(dir, "p.csv")},
	} {
		_, _, err := arbor(t, args...)
		if err == nil || !strings.Contains(err.Error(), "on the 10-NN graph of") {
			t.Errorf("%s: %v, want the kNN graph's estimate", args[0], err)
		}
	}
}
