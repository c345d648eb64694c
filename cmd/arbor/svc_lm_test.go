package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSVCLandmarks: with every row sampled the landmark run is the exact
// one; with fewer, every row is labelled and the run says how.
func TestSVCLandmarks(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact.csv")
	lm := filepath.Join(dir, "lm.csv")
	mustArbor(t, "svc", "--data", "iris", "--pca", "2", "--q", "2", "--C", "1", "--out", exact, "--quiet")
	mustArbor(t, "svc", "--data", "iris", "--pca", "2", "--q", "2", "--C", "1", "--out", lm, "--quiet", "--landmarks", "150", "--landmark-method", "random")
	a, _ := os.ReadFile(exact)
	b, _ := os.ReadFile(lm)
	if string(a) != string(b) || len(a) == 0 {
		t.Error("all rows as landmarks: labels differ from the exact run")
	}
	out, stderr, err := arbor(t, "svc", "--data", "iris", "--pca", "2", "--q", "2", "--C", "1", "--out", lm, "--landmarks", "60")
	if err != nil || !strings.Contains(stderr, "every row is labelled by the sphere") || !strings.Contains(out, "60 sampled rows") {
		t.Errorf("60 landmarks: %v\n%s\n%s", err, out, stderr)
	}
	b, _ = os.ReadFile(lm)
	if got := strings.Count(strings.TrimSpace(string(b)), "\n"); got != 150 {
		t.Errorf("60 landmarks: %d label rows, want 150", got)
	}
}
