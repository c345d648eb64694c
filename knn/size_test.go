package knn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLightImports: knn does not link package dataset (2.2 MB of embedded
// data sets), and the smallest program using it (bench/knnsize) stays under
// 3 MB and labels its points.
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
	bin := filepath.Join(t.TempDir(), "knnsize")
	if out, err := exec.Command(gobin, "build", "-o", bin, "../bench/knnsize").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() >= 3_000_000 {
		t.Errorf("bench/knnsize is %d bytes, want < 3 MB", st.Size())
	}
	got, err := exec.Command(bin).Output()
	if err != nil || strings.TrimSpace(string(got)) != "[0 0 1 1]" {
		t.Errorf("knnsize printed %q (%v), want [0 0 1 1]", got, err)
	}
}
