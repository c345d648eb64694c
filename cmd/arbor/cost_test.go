package main

import (
	"path/filepath"
	"testing"

	"github.com/arbor-ml/arbor/pipeline"
)

// TestCostIsClassifys: arbor classify's refusal over --max-memory is
// pipeline.Cost's for the same settings and data shape, word for word.
func TestCostIsClassifys(t *testing.T) {
	dir := t.TempDir()
	train, test := moonsFiles(t, dir) // 200 rows, 8 labelled, 2 features, 2 classes
	out := filepath.Join(dir, "p.csv")
	sh := pipeline.Shape{Rows: 200, Labeled: 8, Features: 2, Classes: 2}
	withTest := sh
	withTest.Test = 200
	for _, c := range []struct {
		args []string
		s    pipeline.Settings
		sh   pipeline.Shape
	}{
		{[]string{"--kernel", "hck:average", "--max-memory", "200K"}, pipeline.Settings{Kernel: "hck:average"}, sh},
		{[]string{"--kernel", "hck:average", "--float32", "--max-memory", "100K"}, pipeline.Settings{Kernel: "hck:average", Float32: true}, sh},
		{[]string{"--kernel", "rbf", "--max-memory", "200K", "--test", test}, pipeline.Settings{Kernel: "rbf"}, withTest},
		{[]string{"--kernel", "rbf", "--learner", "knn", "--max-memory", "10K", "--test", test}, pipeline.Settings{Kernel: "rbf", Learner: "knn"}, withTest},
		{[]string{"--kernel", "isomap", "--landmarks", "50", "--max-memory", "10K"}, pipeline.Settings{Kernel: "isomap", Landmarks: 50}, sh},
		{[]string{"--learner", "lp", "--affinity", "knn:5", "--max-memory", "1K"}, pipeline.Settings{Learner: "lp", Params: map[string]string{"affinity": "knn:5"}}, sh},
		{[]string{"--learner", "spreading", "--affinity", "rbf:20", "--max-memory", "1K"}, pipeline.Settings{Learner: "spreading", Params: map[string]string{"affinity": "rbf:20"}}, sh},
	} {
		args := append([]string{"classify", "--data", train, "--out", out, "--quiet"}, c.args...)
		_, _, err := arbor(t, args...)
		if err == nil {
			t.Errorf("%v: no error", c.args)
			continue
		}
		s := c.s
		s.MemoryBudget, _, _ = memFlags{raw: c.args[len(c.args)-1]}.budget()
		if c.sh.Test > 0 {
			s.MemoryBudget, _, _ = memFlags{raw: c.args[len(c.args)-3]}.budget()
		}
		s.MemoryBudgetSource = "--max-memory"
		e, cerr := pipeline.Cost(s, c.sh)
		if cerr != nil {
			t.Errorf("%v: Cost: %v", c.args, cerr)
			continue
		}
		if want := e.Err(); want == nil || err.Error() != want.Error() {
			t.Errorf("%v:\n arbor: %v\n Cost:  %v", c.args, err, want)
		}
	}
}
