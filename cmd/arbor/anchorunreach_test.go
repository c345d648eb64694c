package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnchorUnreachableFlag: classify --landmarks with lp and spreading
// (on the anchor graph, and on the kNN graph of all rows) honours
// --unreachable as the exact learners do. Two groups 1,000 apart
// with both labels in the first: the Gaussian anchor weights across the
// gap are exactly 0, so the second group's rows are unreachable — an error
// (error), "?" (unlabeled) or the first class (first), with the rows counted
// in a warning.
func TestAnchorUnreachableFlag(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,label\n")
	for i := 0; i < 40; i++ {
		x := float64(i%20) / 20
		if i >= 20 {
			x += 1000
		}
		lab := ""
		switch i {
		case 0:
			lab = "a"
		case 19:
			lab = "b"
		}
		fmt.Fprintf(&b, "%g,%s\n", x, lab)
	}
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// spreading on knn:10 runs on the kNN graph of all rows with
	// --landmarks (knngraphspread.go), on rbf:20 on the anchor graph.
	for _, learner := range []string{"lp", "spreading", "spreading --affinity rbf:20"} {
		for _, policy := range []string{"error", "unlabeled", "first"} {
			out := filepath.Join(dir, "p.csv")
			args := append([]string{"classify", "--data", data, "--learner"}, strings.Fields(learner)...)
			args = append(args, "--scale", "none", "--unreachable", policy, "--out", out)
			for _, lm := range []bool{false, true} {
				a := args
				if lm {
					a = append(append([]string(nil), args...), "--landmarks", "8")
				}
				_, stderr, err := arbor(t, a...)
				if policy == "error" {
					if err == nil || !strings.Contains(err.Error(), "20 points") {
						t.Errorf("%s landmarks=%v --unreachable error: %v, want an error naming 20 points", learner, lm, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s landmarks=%v %s: %v\n%s", learner, lm, policy, err, stderr)
				}
				if !strings.Contains(stderr, "20 points") {
					t.Errorf("%s landmarks=%v %s: no warning counting the 20 points:\n%s", learner, lm, policy, stderr)
				}
				pred, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSpace(string(pred)), "\n")
				want := "?"
				if policy == "first" {
					want = "a"
				}
				if h := strings.Split(lines[0], ","); len(h) < 3 || h[2] != "label" {
					t.Fatalf("header %q: want the label third", lines[0])
				}
				for _, line := range lines[21:] {
					if f := strings.Split(line, ","); f[2] != want { // part,row,label,…
						t.Errorf("%s landmarks=%v %s: row %q, want label %q", learner, lm, policy, line, want)
						break
					}
				}
			}
		}
	}
}
