package knn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLightImports: knn does not link package dataset (3.2 MB of embedded
// data sets in a Go 1.26 binary), and the smallest program using it
// (bench/knnsize) is less than 1 MB larger than bench/knnsize/floor, a
// program that links only gonum/mat and fmt (Go 1.26: 2.81 MB against
// 2.44 MB; with dataset linked it would be 3.2 MB more). A fixed limit in
// bytes broke with the Go release; the difference to the floor does not.
func TestLightImports(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".", "../propagate").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/arbor-ml/arbor/dataset" {
			t.Errorf("knn or propagate imports %s", p)
		}
	}
	dir := t.TempDir()
	size := func(pkg string) (string, int64) {
		bin := filepath.Join(dir, filepath.Base(pkg))
		if out, err := exec.Command(gobin, "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		return bin, st.Size()
	}
	bin, n := size("../bench/knnsize")
	_, floor := size("../bench/knnsize/floor")
	if n-floor >= 1_000_000 {
		t.Errorf("bench/knnsize is %d bytes, %d more than bench/knnsize/floor (%d): want < 1 MB more", n, n-floor, floor)
	}
	got, err := exec.Command(bin).Output()
	if err != nil || strings.TrimSpace(string(got)) != "[0 0 1 1]" {
		t.Errorf("knnsize printed %q (%v), want [0 0 1 1]", got, err)
	}
}
