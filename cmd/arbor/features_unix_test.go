//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFeaturesNpyFIFO: a .npy of features goes to a regular file only (its
// header gets the row count at the end), not to a FIFO, which would be
// written through.
func TestFeaturesNpyFIFO(t *testing.T) {
	dir := t.TempDir()
	train, test := messyTSV(t, dir, 60, 2)
	lm := filepath.Join(dir, "lm.arbor")
	mustArbor(t, "classify", "--data", train, "--label", "class", "--id", "sample", "--impute", "mean", "--landmarks", "10",
		"--learner", "knn", "--save-model", lm, "--out", filepath.Join(dir, "a.csv"), "--quiet")
	fifo := filepath.Join(dir, "pipe.npy")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skip(err)
	}
	_, _, err := arbor(t, "features", "--quiet", "--model", lm, "--data", test, "--out", fifo)
	if err == nil || !strings.Contains(err.Error(), "regular file") {
		t.Errorf("features --out FIFO.npy: %v, want a refusal naming regular files", err)
	}
}
