package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLandmarkHeldout runs a new user's landmark pipeline end to end on
// the digits 0–4 of scikit-learn's digits (a tab-separated training file
// with IDs, class names, the class column in the middle and empty cells;
// a comma-separated held-out file with the columns in another order):
// classify --landmarks 40 --learner svm --proba --decision and --learner
// knn --proba, whose probabilities and decision values for the training
// and the held-out rows must equal LIBSVM's (svm_train with svm-train -b 1
// -t 0's settings on the features arbor features writes) and
// KNeighborsClassifier's on those features. Fixture and reference:
// testdata/digits_lm_*, made by bench/proba/landmark_heldout.py --fixture.
// Tolerance 1e-12: the held-out rows' values come through the SVM composed
// with the map's projection, whose sums run in another order than on z(x)
// (about 1e-15 here); a different solver path or fold would show at 1e-8
// or more.
func TestLandmarkHeldout(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits_lm_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	type ref struct {
		Columns  []string    `json:"columns"`
		Training [][]float64 `json:"training"`
		Heldout  [][]float64 `json:"heldout"`
	}
	var refs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &refs); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model, fit := filepath.Join(dir, "lm.arbor"), filepath.Join(dir, "fit.csv")
	ztr, zte := filepath.Join(dir, "ztr.csv"), filepath.Join(dir, "zte.csv")
	train, test := "testdata/digits_lm_train.tsv", "testdata/digits_lm_test.csv"
	for _, c := range []struct {
		learner string
		args    []string
	}{
		{"svm", []string{"--C", "1.0", "--proba", "--decision"}},
		{"knn", []string{"--k", "5", "--proba"}},
	} {
		var want ref
		if err := json.Unmarshal(refs[c.learner], &want); err != nil {
			t.Fatal(err)
		}
		mustArbor(t, append([]string{"classify", "--data", train, "--label", "class", "--id", "sample", "--impute", "mean",
			"--landmarks", "40", "--kernel", "rbf:0.015", "--test", test, "--save-model", model, "--out", fit, "--quiet",
			"--learner", c.learner}, c.args...)...)
		recs := readCSV(t, fit)
		head := recs[0]
		first := slices.Index(head, "given") + 1
		if !slices.Equal(head[first:], want.Columns) {
			t.Fatalf("%s: columns %q, want %q", c.learner, head[first:], want.Columns)
		}
		var gotTrain, gotTest [][]string
		for _, r := range recs[1:] {
			if r[0] == "data" {
				gotTrain = append(gotTrain, r)
			} else {
				gotTest = append(gotTest, r)
			}
		}
		// The rows arbor features writes are classify's rows, in order.
		mustArbor(t, "features", "--model", model, "--data", train, "--out", ztr, "--quiet")
		mustArbor(t, "features", "--model", model, "--data", test, "--out", zte, "--quiet")
		for _, s := range []struct {
			z    string
			rows [][]string
		}{{ztr, gotTrain}, {zte, gotTest}} {
			zs := readCSV(t, s.z)
			if len(zs)-1 != len(s.rows) || zs[0][1] != "sample" {
				t.Fatalf("%s: %d rows of features (header %q), classify wrote %d", s.z, len(zs)-1, zs[0][:2], len(s.rows))
			}
			for i, r := range zs[1:] {
				if r[1] != s.rows[i][2] {
					t.Fatalf("%s row %d: ID %s, classify's %s", s.z, i, r[1], s.rows[i][2])
				}
			}
		}
		for _, s := range []struct {
			what string
			got  [][]string
			want [][]float64
		}{{"training", gotTrain, want.Training}, {"held-out", gotTest, want.Heldout}} {
			if len(s.got) != len(s.want) {
				t.Fatalf("%s: %d %s rows, want %d", c.learner, len(s.got), s.what, len(s.want))
			}
			worst := 0.0
			for i, r := range s.got {
				for j, w := range s.want[i] {
					worst = math.Max(worst, math.Abs(parse(t, r[first+j])-w))
				}
			}
			if worst > 1e-12 {
				t.Errorf("%s, %s rows: max |Δ| %.3g from the reference", c.learner, s.what, worst)
			}
		}
	}
}
