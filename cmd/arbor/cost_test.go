package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
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

// TestEvalCostIsEvals: arbor eval's refusal over --max-memory is
// pipeline.EvalCost's for the same settings and data shape.
func TestEvalCostIsEvals(t *testing.T) {
	ds, err := dataset.Embedded("two_moons")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kernels, learners, landmarks string
		float32                      bool
	}{
		{"rbf:1,hck:average", "svm,knn", "0", false},
		{"rbf:1,hck:average", "svm,lp", "0", true},
		{"isomap", "knn,spreading", "0", false},
		{"rbf:1", "svm,lp", "50", false},
	} {
		args := []string{"eval", "--data", "two_moons", "--labeled-per-class", "5", "--kernel", c.kernels, "--learner", c.learners,
			"--landmarks", c.landmarks, "--max-memory", "20K", "--quiet"}
		if c.float32 {
			args = append(args, "--float32")
		}
		_, _, runErr := arbor(t, args...)
		if runErr == nil {
			t.Errorf("%v: no error", args)
			continue
		}
		var specs []kernel.Spec
		for _, k := range strings.Split(c.kernels, ",") {
			sp, err := kernel.ParseSpec(k)
			if err != nil {
				t.Fatal(err)
			}
			specs = append(specs, sp)
		}
		learners, err := pipeline.Learners(c.learners, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := strconv.Atoi(c.landmarks)
		e, cerr := pipeline.EvalCost(pipeline.EvalSettings{Kernels: specs, Learners: learners, Landmarks: m, Float32: c.float32,
			MemoryBudget: 20 << 10, MemoryBudgetSource: "--max-memory"}, pipeline.EvalShape(ds, 5))
		if cerr != nil {
			t.Errorf("%v: EvalCost: %v", args, cerr)
			continue
		}
		if want := e.Err(); want == nil || runErr.Error() != want.Error() {
			t.Errorf("%v:\n arbor:    %v\n EvalCost: %v", args, runErr, want)
		}
	}
}
