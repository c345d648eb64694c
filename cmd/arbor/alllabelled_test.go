package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbaEveryRowLabelled: with every row labelled and no --test,
// classify --proba (or --decision) still has something to write: the
// model's estimates for the labelled rows, one p_CLASS per class summing
// to 1; without them it refuses, as there is nothing to predict.
func TestProbaEveryRowLabelled(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.csv")
	for _, args := range [][]string{
		{"--learner", "svm", "--kernel", "rbf:0.5", "--proba", "--decision"},
		{"--learner", "knn", "--k", "5", "--proba"},
		{"--learner", "svm", "--landmarks", "30", "--kernel", "rbf:0.5", "--decision"},
	} {
		mustArbor(t, append([]string{"classify", "--data", "iris", "--out", out, "--quiet"}, args...)...)
		recs := readCSV(t, out)
		if len(recs) != 151 {
			t.Fatalf("%v: %d rows, want 150", args, len(recs)-1)
		}
		head := strings.Join(recs[0], ",")
		for _, r := range recs[1:] {
			sum := 0.0
			for j, h := range recs[0] {
				if strings.HasPrefix(h, "p_") {
					sum += parse(t, r[j])
				}
			}
			if strings.Contains(head, "p_") && math.Abs(sum-1) > 1e-12 {
				t.Fatalf("%v: row %s: probabilities sum to %v", args, r[1], sum)
			}
		}
	}
	if _, _, err := arbor(t, "classify", "--data", "iris", "--out", out, "--quiet"); err == nil || !strings.Contains(err.Error(), "nothing to predict") {
		t.Errorf("classify with every row labelled, no --test and no --proba: %v, want nothing to predict", err)
	}
}
