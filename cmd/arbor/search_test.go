package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/pipeline"
)

// TestSearchMatchesGridSearchCV: arbor search on iris with its default
// folds (stratified, 5) gives scikit-learn's cv_results_ of the fixture
// modelselect/testdata/sklearn_gridsearch.json (gen_sklearn_gridsearch.py)
// and saves the refit model with the setting chosen.
func TestSearchMatchesGridSearchCV(t *testing.T) {
	raw, err := os.ReadFile("../../modelselect/testdata/sklearn_gridsearch.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Name      string    `json:"name"`
			Mean      []float64 `json:"mean_test_score"`
			Rank      []int     `json:"rank_test_score"`
			BestIndex int       `json:"best_index"`
		}
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	ref := fx.Cases[0]
	if ref.Name != "iris_svc_stratified5" {
		t.Fatalf("fixture case %s", ref.Name)
	}
	model := filepath.Join(t.TempDir(), "m.arbor")
	out := mustArbor(t, "search", "--data", "iris", "--scale", "none", "--kernel", "rbf:0.01,rbf:0.1,rbf:1,rbf:10",
		"--C", "0.1,1,10,100", "--json", "--quiet", "--save-model", model)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(ref.Mean) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(ref.Mean), out)
	}
	best := -1
	for i, l := range lines {
		var r struct {
			Mean float64 `json:"mean_test_score"`
			Rank int     `json:"rank_test_score"`
			Best bool    `json:"best"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Mean-ref.Mean[i]) > 1e-12 || r.Rank != ref.Rank[i] {
			t.Errorf("line %d: mean %v rank %d, scikit-learn %v %d", i, r.Mean, r.Rank, ref.Mean[i], ref.Rank[i])
		}
		if r.Best {
			best = i
		}
	}
	if best != ref.BestIndex {
		t.Fatalf("best line %d, scikit-learn's best_index_ %d", best, ref.BestIndex)
	}
	f, err := os.Open(model)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := pipeline.Load(f, model)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Selection
	if s == nil || s.Learner != "svm" || s.Kernel != "rbf:0.1" || s.Params["C"] != "1" || s.CV != "stratified:5" || s.Candidates != 16 || p.Spec.String() != "rbf:0.1" {
		t.Fatalf("model records %+v, kernel %s", s, p.Spec)
	}
}

func TestSearchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--learner", "svm", "--k", "1,2"}, "--k has no effect on --learner svm"},
		{[]string{"--cv", "3", "--folds", "f.txt"}, "mutually exclusive"},
		{[]string{"--cv", "1"}, "1 folds, want at least 2"},
		{[]string{"--C", "1,,2"}, "--C: empty value"},
		{[]string{"--scoring", "breakeven"}, "svm has no class scores"},
		{[]string{"--max-memory", "10K"}, "not enough memory: a grid search of 1 setting × 5 folds on 150 rows"},
	} {
		_, _, err := arbor(t, append([]string{"search", "--data", "iris", "--quiet"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
		if strings.Contains(c.want, "effect") && !errors.Is(err, errUsage) {
			t.Errorf("%v: not a usage error", c.args)
		}
	}
}

// TestEvalSeveralAffinities: eval with a list of affinities gives, for
// each, the rows eval gives with that affinity alone.
func TestEvalSeveralAffinities(t *testing.T) {
	type rec struct {
		Learner  string  `json:"learner"`
		Split    int     `json:"split"`
		Correct  int     `json:"correct"`
		Accuracy float64 `json:"accuracy"`
	}
	parse := func(out string) []rec {
		var rs []rec
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var r rec
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return rs
	}
	base := []string{"eval", "--data", "two_moons", "--labeled-per-class", "5", "--repeats", "2", "--learner", "lp,spreading", "--json", "--quiet"}
	all := parse(mustArbor(t, append(base, "--affinity", "knn:10,rbf:20")...))
	one := append(parse(mustArbor(t, append(base, "--affinity", "knn:10")...)), parse(mustArbor(t, append(base, "--affinity", "rbf:20")...))...)
	if len(all) != 8 || len(one) != 8 {
		t.Fatalf("%d and %d rows, want 8 (2 splits × 2 learners × 2 affinities)", len(all), len(one))
	}
	for _, r := range one {
		found := false
		for _, a := range all {
			if a == r {
				found = true
			}
		}
		if !found {
			t.Errorf("%+v alone is not among the list's rows %+v", r, all)
		}
	}
	for _, name := range []string{"lp_knn:10", "lp_rbf:20", "spreading_knn:10", "spreading_rbf:20"} {
		if !strings.Contains(mustArbor(t, "eval", "--data", "two_moons", "--labeled-per-class", "5", "--repeats", "1", "--learner", "lp,spreading", "--affinity", "knn:10,rbf:20", "--quiet"), name) {
			t.Errorf("no row %s in the table", name)
		}
	}
	bep := mustArbor(t, "eval", "--data", "iris", "--labeled-per-class", "5", "--repeats", "1", "--metric", "bep", "--learner", "lp", "--affinity", "kernel,knn:5", "--kernel", "rbf:0.5", "--quiet")
	if !strings.Contains(bep, "lp_precomputed_z") || !strings.Contains(bep, "lp_knn5_z") {
		t.Errorf("eval --metric bep with two affinities:\n%s", bep)
	}
	if _, _, err := arbor(t, "classify", "--data", "two_moons", "--learner", "lp", "--affinity", "knn:10,rbf:20", "--quiet"); err == nil || !strings.Contains(err.Error(), "classify runs one learner") {
		t.Errorf("classify with two affinities: %v", err)
	}
}
