package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSVMSingletonClass: a class with a single labelled row is accepted by
// every SVM path, as LIBSVM (scikit-learn's SVC) and the Gram path
// (ssl.SVM) accept it: the point kernel's on-demand columns, the landmark
// C-SVC, and the Gram path of a cluster kernel. With the labelled rows
// among the landmarks the landmark SVM with rbf is the exact one, so the
// first two write the same predictions.
func TestSVMSingletonClass(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,y,class\n")
	// three blobs; "gamma" has one labelled row
	for i := 0; i < 90; i++ {
		c := i % 3
		x := float64(c*4) + float64(i%7)*0.3
		y := float64(c%2) + float64(i%5)*0.25
		lab := "?"
		switch {
		case c == 0 && i < 30:
			lab = "alpha"
		case c == 1 && i < 30:
			lab = "beta"
		case c == 2 && i == 2:
			lab = "gamma"
		}
		b.WriteString(strings.Join([]string{ftoa(x), ftoa(y), lab}, ",") + "\n")
	}
	data := filepath.Join(dir, "single.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pts, lm := filepath.Join(dir, "p.csv"), filepath.Join(dir, "l.csv")
	mustArbor(t, "classify", "--data", data, "--kernel", "rbf", "--learner", "svm", "--quiet", "--out", pts)
	mustArbor(t, "classify", "--data", data, "--kernel", "rbf", "--learner", "svm", "--landmarks", "40", "--quiet", "--out", lm)
	mustArbor(t, "classify", "--data", data, "--kernel", "hck:average", "--learner", "svm", "--quiet", "--out", filepath.Join(dir, "h.csv"))
	a, _ := os.ReadFile(pts)
	c, _ := os.ReadFile(lm)
	if string(a) != string(c) {
		t.Errorf("points and landmark SVM predictions differ")
	}
	if !strings.Contains(string(a), ",gamma,") {
		t.Errorf("no row predicted gamma:\n%s", a)
	}
}

// TestLandmarksFlagChecks: --landmarks refuses a negative count (it used
// to run the exact method silently), and the landmark cluster kernels name
// the tree of all rows they took by its linkage (average and complete
// were described as the single-linkage tree).
func TestLandmarksFlagChecks(t *testing.T) {
	for _, cmd := range []string{"classify", "eval", "cluster", "kernel"} {
		_, _, err := arbor(t, cmd, "--data", "two_moons", "--landmarks", "-5")
		if err == nil || !strings.Contains(err.Error(), "--landmarks") || !strings.Contains(err.Error(), "≥ 1, or 0") {
			t.Errorf("%s --landmarks -5: %v", cmd, err)
		}
	}
	dir := t.TempDir()
	for kern, want := range map[string]string{
		"hck:average":  "average-linkage tree of all",
		"hck:complete": "complete-linkage tree of all",
		"hck:single":   "single-linkage tree of all",
		"hck:ward":     "Ward tree of all",
	} {
		_, stderr, err := arbor(t, "classify", "--data", "../../examples/two_moons_10_labels.csv", "--label", "moon", "--id", "id", "--kernel", kern,
			"--landmarks", "60", "--out", filepath.Join(dir, "p.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", kern, want, stderr)
		}
	}
}
