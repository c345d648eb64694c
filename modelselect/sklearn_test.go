package modelselect

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// sklearnCase is one search of testdata/sklearn_gridsearch.json, written
// by testdata/gen_sklearn_gridsearch.py (scikit-learn's GridSearchCV; the
// versions are in the file).
type sklearnCase struct {
	Name        string              `json:"name"`
	Data        string              `json:"data"`
	Scale       string              `json:"scale"`
	Splitter    string              `json:"splitter"`
	Folds       [][]int             `json:"folds"`
	Params      []map[string]string `json:"params"`
	SplitScores [][]float64         `json:"split_scores"`
	Mean        []float64           `json:"mean_test_score"`
	Std         []float64           `json:"std_test_score"`
	Rank        []int               `json:"rank_test_score"`
	BestIndex   int                 `json:"best_index"`
	BestParams  map[string]string   `json:"best_params"`
	Arbor       struct {
		Learner string              `json:"learner"`
		Params  map[string][]string `json:"params"`
		Kernels []string            `json:"kernels"`
	} `json:"arbor"`
}

func loadSklearn(t *testing.T) []sklearnCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/sklearn_gridsearch.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct{ Cases []sklearnCase }
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) == 0 {
		t.Fatal("no cases in the fixture")
	}
	return fx.Cases
}

// TestFoldsSklearn: KFold and StratifiedKFold without shuffling give
// scikit-learn's test rows exactly.
func TestFoldsSklearn(t *testing.T) {
	for _, c := range loadSklearn(t) {
		kind, ks, ok := strings.Cut(c.Splitter, ":")
		if !ok {
			continue // shuffled by NumPy: read as a file below
		}
		k, _ := strconv.Atoi(ks)
		ds, err := dataset.Embedded(c.Data)
		if err != nil {
			t.Fatal(err)
		}
		var f Folds
		if kind == "stratified" {
			f, err = StratifiedKFold(ds.Y, k, false, 0)
		} else {
			f, err = KFold(ds.Y, k, false, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(f) != len(c.Folds) {
			t.Fatalf("%s: %d folds, scikit-learn %d", c.Name, len(f), len(c.Folds))
		}
		for i := range f {
			if !slices.Equal(f[i], c.Folds[i]) {
				t.Errorf("%s fold %d:\n got %v\nwant %v", c.Name, i, f[i], c.Folds[i])
			}
		}
	}
}

// sameSetting reports whether an Arbor candidate is scikit-learn's
// candidate p: C and gamma (rbf:GAMMA) of SVC, n_neighbors (k) of
// KNeighborsClassifier, compared as numbers.
func sameSetting(c Candidate, p map[string]string) bool {
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	for name, v := range p {
		switch name {
		case "C":
			if num(c.Params["C"]) != num(v) {
				return false
			}
		case "gamma":
			if c.Kernel != "rbf:"+strconv.FormatFloat(num(v), 'g', -1, 64) {
				return false
			}
		case "n_neighbors":
			if c.Params["k"] != v {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// TestGridSearchSklearn runs the fixture's searches on the same folds:
// every split score, mean and (population) std equal to 1e-12 (scores are
// counts over fold sizes, computed in the same order: the tolerance only
// allows for a last-bit difference), the ranks equal, and the same best
// setting (first among ties, in the same grid order).
func TestGridSearchSklearn(t *testing.T) {
	for _, c := range loadSklearn(t) {
		t.Run(c.Name, func(t *testing.T) {
			ds, err := dataset.Embedded(c.Data)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, f := range c.Folds {
				for i, r := range f {
					if i > 0 {
						text.WriteString(",")
					}
					text.WriteString(strconv.Itoa(r))
				}
				text.WriteString("\n")
			}
			folds, err := ReadFolds(strings.NewReader(text.String()), c.Name+".folds", ds.Y)
			if err != nil {
				t.Fatal(err)
			}
			s := Search{
				Grids: []Grid{{Learner: c.Arbor.Learner, Params: c.Arbor.Params, Kernels: c.Arbor.Kernels}},
				Folds: folds, Scale: c.Scale, Refit: true,
			}
			res, err := s.Run(context.Background(), ds)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Candidates) != len(c.Params) {
				t.Fatalf("%d candidates, scikit-learn %d", len(res.Candidates), len(c.Params))
			}
			const tol = 1e-12
			for i, cand := range res.Candidates {
				if !sameSetting(cand, c.Params[i]) {
					t.Fatalf("candidate %d is %s, scikit-learn's %v", i, cand, c.Params[i])
				}
				for f, v := range res.Split[i] {
					if math.Abs(v-c.SplitScores[i][f]) > tol {
						t.Errorf("%s fold %d: score %.17g, scikit-learn %.17g", cand, f, v, c.SplitScores[i][f])
					}
				}
				if math.Abs(res.Mean[i]-c.Mean[i]) > tol || math.Abs(res.Std[i]-c.Std[i]) > tol {
					t.Errorf("%s: mean %.17g std %.17g, scikit-learn %.17g %.17g", cand, res.Mean[i], res.Std[i], c.Mean[i], c.Std[i])
				}
				if res.Rank[i] != c.Rank[i] {
					t.Errorf("%s: rank %d, scikit-learn %d", cand, res.Rank[i], c.Rank[i])
				}
			}
			if res.Best != c.BestIndex || !sameSetting(res.Candidates[res.Best], c.BestParams) {
				t.Errorf("best %d (%s), scikit-learn %d (%v)", res.Best, res.Candidates[res.Best], c.BestIndex, c.BestParams)
			}
			if res.Refit == nil || res.Refit.Model == nil {
				t.Fatal("no refit model")
			}
		})
	}
}
