package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/pipeline"
)

// TestMaxMemory: a run over the budget stops before the work with one line
// naming the size needed and the option that fits.
func TestMaxMemory(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir)
	out := filepath.Join(dir, "p.csv")
	for _, c := range []struct {
		args []string
		hint string
	}{
		{[]string{"classify", "--data", train, "--kernel", "hck:average", "--max-memory", "200K", "--out", out}, "--landmarks"},
		{[]string{"classify", "--data", train, "--kernel", "rbf", "--max-memory", "200K", "--out", out}, "on demand"},
		{[]string{"cluster", "--data", train, "--k", "2", "--max-memory", "100K"}, "--landmarks 50"},
		{[]string{"kernel", "--data", train, "--kernel", "hck", "--max-memory", "100K", "--out", out}, ""},
		{[]string{"eval", "--data", "two_moons", "--labeled-per-class", "5", "--kernel", "rbf", "--max-memory", "100K"}, "--landmarks"},
		// Too few rows for landmarks to help: say so, not "even --landmarks 200 does not fit".
		{[]string{"eval", "--data", "iris", "--labeled-per-class", "5", "--kernel", "hck:average", "--max-memory", "10K"}, "--landmarks cannot help with 150 rows: raise --max-memory"},
	} {
		_, _, err := arbor(t, c.args...)
		if !errors.Is(err, pipeline.ErrMemory) {
			t.Errorf("%v: err = %v, want the memory error", c.args, err)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "needs about") || !strings.Contains(msg, c.hint) {
			t.Errorf("%v: message %q: want one line with the size and %q", c.args, msg, c.hint)
		}
	}
	// The same runs within a large budget work.
	if _, _, err := arbor(t, "classify", "--data", train, "--kernel", "rbf", "--max-memory", "1G", "--out", out, "--quiet"); err != nil {
		t.Error(err)
	}
	if _, _, err := arbor(t, "classify", "--data", train, "--max-memory", "lots", "--out", out); err == nil || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("--max-memory lots: %v", err)
	}
}
