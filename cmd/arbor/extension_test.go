package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// moonsFiles writes 200 two-moons points with 4 labels per class (the rest
// unlabelled) and the same points without labels as a test file.
func moonsFiles(t *testing.T, dir string) (string, string) {
	t.Helper()
	ds := dataset.Moons(200, 0.1, 3)
	var train, test strings.Builder
	train.WriteString("f1,f2,label\n")
	test.WriteString("f1,f2\n")
	seen := map[int]int{}
	for i := 0; i < ds.Len(); i++ {
		r := ds.X.RawRowView(i)
		lab := ""
		if seen[ds.Y[i]] < 4 {
			seen[ds.Y[i]]++
			lab = fmt.Sprint(ds.Y[i])
		}
		fmt.Fprintf(&train, "%v,%v,%s\n", r[0], r[1], lab)
		fmt.Fprintf(&test, "%v,%v\n", r[0], r[1])
	}
	trainPath := filepath.Join(dir, "train.csv")
	testPath := filepath.Join(dir, "test.csv")
	if err := os.WriteFile(trainPath, []byte(train.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testPath, []byte(test.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return trainPath, testPath
}

// TestClassifyExtensionRule: with the training points themselves as --test,
// the default tree-aware rule gives every point its transductive label (its
// kernel row is its own row of K); paper 000 §3.5's linear rule does not on
// two moons (86.5 % agreement). --extension takes tree|linear.
func TestClassifyExtensionRule(t *testing.T) {
	dir := t.TempDir()
	trainPath, testPath := moonsFiles(t, dir)
	agree := func(rule string) float64 {
		out := filepath.Join(dir, rule+".csv")
		_, stderr, err := arbor(t, "classify", "--data", trainPath, "--test", testPath, "--kernel", "hckg:average:knn:7",
			"--learner", "svm", "--scale", "none", "--extension", rule, "--out", out, "--quiet")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, "out-of-sample rule: "+rule) {
			t.Errorf("stderr does not name the rule %q:\n%s", rule, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		data, tst := map[string]string{}, map[string]string{}
		for _, r := range recs[1:] {
			if r[0] == "test" {
				tst[r[1]] = r[2]
			} else {
				data[r[1]] = r[2]
			}
		}
		same := 0
		for k, v := range tst {
			if data[k] == v {
				same++
			}
		}
		return float64(same) / float64(len(tst))
	}
	if a := agree("tree"); a != 1 {
		t.Errorf("tree rule: %.3f of the training points get their transductive label, want all", a)
	}
	if a := agree("linear"); a >= 1 {
		t.Errorf("linear rule agrees on every point (%.3f): the comparison does not test anything", a)
	}
	if _, _, err := arbor(t, "classify", "--data", trainPath, "--test", testPath, "--kernel", "hck", "--extension", "nearest", "--out", filepath.Join(dir, "x.csv")); err == nil {
		t.Error("--extension nearest: no error")
	}
}

// TestClassifyLandmarks: --landmarks M runs svm and knn on Nyström features
// for a point kernel and a cluster kernel, says so, and refuses the
// combinations not implemented.
func TestClassifyLandmarks(t *testing.T) {
	dir := t.TempDir()
	trainPath, testPath := moonsFiles(t, dir)
	out := filepath.Join(dir, "p.csv")
	for _, args := range [][]string{
		{"--kernel", "rbf:scale", "--learner", "svm", "--landmarks", "60"},
		{"--learner", "lp", "--landmarks", "60", "--test", testPath},
		{"--kernel", "isomap", "--learner", "svm", "--landmarks", "60", "--test", testPath},
		{"--kernel", "hckg:average:knn:7", "--learner", "knn", "--k", "3", "--landmarks", "60", "--landmark-method", "random", "--seed", "4", "--test", testPath},
	} {
		a := append([]string{"classify", "--data", trainPath, "--out", out, "--quiet"}, args...)
		stdout, stderr, err := arbor(t, a...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		if !strings.Contains(stderr, "landmarks 60") || !strings.Contains(stdout, "predicted 192 unlabelled rows") {
			t.Errorf("%v: stdout %q stderr %q", args, stdout, stderr)
		}
	}
	if stdout, stderr, err := arbor(t, "classify", "--data", trainPath, "--out", out, "--kernel", "multitype:poly:2:2", "--landmarks", "50"); err != nil ||
		!strings.Contains(stderr, "multi-type kernel on the Nyström affinity") || !strings.Contains(stdout, "predicted 192 unlabelled rows") {
		t.Errorf("--landmarks with multitype: %v\n%s%s", err, stdout, stderr)
	}
	if stdout, stderr, err := arbor(t, "classify", "--data", trainPath, "--out", out, "--landmarks", "50", "--learner", "spreading", "--affinity", "rbf:2"); err != nil ||
		!strings.Contains(stderr, "label spreading (alpha 0.2) on the anchor graph") || !strings.Contains(stdout, "predicted 192 unlabelled rows") {
		t.Errorf("--landmarks with spreading: %v\n%s%s", err, stdout, stderr)
	}
	if stdout, stderr, err := arbor(t, "classify", "--data", trainPath, "--out", out, "--landmarks", "50", "--learner", "spreading"); err != nil ||
		!strings.Contains(stderr, "label spreading (alpha 0.2) on the exact 10-NN graph of all 200 rows") || !strings.Contains(stdout, "predicted 192 unlabelled rows") {
		t.Errorf("--landmarks with spreading on knn:10: %v\n%s%s", err, stdout, stderr)
	}
}

// TestKernelLandmarks: arbor kernel --landmarks M writes the N×r features;
// with every row a landmark and the linear kernel in 2-D the rank is 2
// (the Nyström map's closed forms are tested in package kernel).
func TestKernelLandmarks(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "Z.csv")
	stdout := mustArbor(t, "kernel", "--data", "two_moons", "--kernel", "linear", "--landmarks", "400", "--landmark-method", "random", "--out", out, "--quiet")
	if !strings.Contains(stdout, "400×2 features") {
		t.Errorf("stdout %q", stdout)
	}
	if _, _, err := arbor(t, "kernel", "--data", "two_moons", "--kernel", "hck", "--landmarks", "50", "--embed", "2", "--embed-out", filepath.Join(dir, "e.csv"), "--out", out); err == nil {
		t.Error("--landmarks with --embed: no error")
	}
	mustArbor(t, "kernel", "--data", "two_moons", "--kernel", "isomap", "--landmarks", "50", "--out", out, "--quiet")
}

// TestClusterLandmarks: with every row a landmark the landmark clustering
// is the exact one (same rows, same tree, each row its own nearest
// landmark), also on a disconnected graph; with fewer it labels every row
// and says how.
func TestClusterLandmarks(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact.csv")
	lm := filepath.Join(dir, "lm.csv")
	split, _ := splitMoonsFiles(t, dir) // a 7-NN graph of several components, joined by Eq. 4
	for _, dist := range [][]string{{"--distance", "euclidean"}, {"--distance", "graph", "--graph", "knn:7"}, {"--data", split, "--distance", "graph", "--graph", "knn:7"}} {
		data, m, k := "two_moons", "400", "2"
		if dist[0] == "--data" {
			data, m, k, dist = dist[1], "200", "5", dist[2:6]
		}
		mustArbor(t, append([]string{"cluster", "--data", data, "--linkage", "average", "--k", k, "--out", exact, "--quiet"}, dist...)...)
		mustArbor(t, append([]string{"cluster", "--data", data, "--linkage", "average", "--k", k, "--out", lm, "--quiet", "--landmarks", m, "--landmark-method", "random"}, dist...)...)
		a, _ := os.ReadFile(exact)
		b, _ := os.ReadFile(lm)
		if string(a) != string(b) || len(a) == 0 {
			t.Errorf("%v: all rows as landmarks: labels differ from the exact clustering", dist)
		}
	}
	_, stderr, err := arbor(t, "cluster", "--data", "two_moons", "--linkage", "average", "--k", "2", "--out", lm, "--landmarks", "50")
	if err != nil || !strings.Contains(stderr, "nearest landmark") {
		t.Errorf("50 landmarks: %v\n%s", err, stderr)
	}
}

// TestEvalLandmarks: eval --landmarks scores the landmark learners on the
// same splits as the exact ones; with the linear kernel and every row a
// landmark, kNN on Z ranks by ‖z_i − z_j‖ = ‖x_i − x_j‖, so it scores as
// the exact kNN on the linear kernel's distances.
func TestEvalLandmarks(t *testing.T) {
	out := mustArbor(t, "eval", "--data", "two_moons", "--labeled-per-class", "5", "--repeats", "2", "--kernel", "rbf,hck:average",
		"--learner", "svm,knn,lp", "--k", "3", "--landmarks", "80", "--quiet")
	for _, want := range []string{"svm (linear kernel on Z)", "knn k=3 (on Z)", "lp (anchor graph)", "hck:average M=80"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval --landmarks: no %q in\n%s", want, out)
		}
	}
	lm := mustArbor(t, "eval", "--data", "two_moons", "--labeled-per-class", "5", "--repeats", "2", "--kernel", "linear",
		"--learner", "knn", "--k", "1", "--landmarks", "400", "--landmark-method", "random", "--quiet", "--json")
	ex := mustArbor(t, "eval", "--data", "two_moons", "--labeled-per-class", "5", "--repeats", "2", "--kernel", "linear",
		"--learner", "knn", "--k", "1", "--quiet", "--json")
	acc := func(s string) []string {
		var a []string
		for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
			i := strings.Index(line, `"correct":`)
			j := strings.Index(line[i:], ",")
			a = append(a, line[i:i+j])
		}
		return a
	}
	if a, b := acc(lm), acc(ex); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("linear kernel, all rows landmarks, 1-NN: %v, exact %v", a, b)
	}
}
