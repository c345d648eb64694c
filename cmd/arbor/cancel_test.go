package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCancelAtN6000: Ctrl-C (a cancelled context) in the middle of
// `arbor kernel` and `arbor eval` on N = 6000 points returns within 3 s
// with the context's error, and `arbor kernel` leaves neither its output
// nor a temporary file behind.
func TestCancelAtN6000(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "n6000.csv")
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 6000 {
		c := i % 2
		fmt.Fprintf(&b, "%.6f,%.6f,%d\n", rng.NormFloat64()+3*float64(c), rng.NormFloat64(), c)
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "K.csv")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"kernel", []string{"kernel", "--data", data, "--kernel", "rbf:0.5", "--out", out, "--quiet"}},
		{"eval", []string{"eval", "--data", data, "--kernel", "rbf:0.5", "--learner", "svm", "--labeled-per-class", "1500", "--repeats", "20", "--scale", "none", "--quiet"}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var stdout, stderr bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- run(ctx, c.args, &stdout, &stderr) }()
		time.Sleep(400 * time.Millisecond)
		cancel()
		t0 := time.Now()
		select {
		case err := <-done:
			// 3 s, not 1: on a loaded 2-core machine the process gets a
			// fraction of a core (1.26 s seen at load ~5); the error below
			// is what shows the run stopped instead of finishing
			if d := time.Since(t0); d > 3*time.Second {
				t.Errorf("%s: returned %v after the cancel", c.name, d)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: error %v, want context.Canceled (finished before the cancel?)", c.name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still running 5 s after the cancel", c.name)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%s: files left beside the data: %v", c.name, names)
		}
	}
}
