package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// TestEvalIsLibrarys: arbor eval --json reports, split by split, what
// pipeline.Eval returns for the same settings (scaled data, splits drawn
// by ssl.PerClassSplits, learners by pipeline.Learners), exactly and with
// landmarks.
func TestEvalIsLibrarys(t *testing.T) {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := dataset.FitScaler(ds.X, "std")
	if err != nil {
		t.Fatal(err)
	}
	if ds.X, err = sc.Transform(nil, ds.X); err != nil {
		t.Fatal(err)
	}
	splits, err := ssl.PerClassSplits(ds.Y, 5, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	var specs []kernel.Spec
	for _, k := range []string{"rbf:0.5", "hck:average"} {
		sp, err := kernel.ParseSpec(k)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, sp)
	}
	learners, err := pipeline.Learners("svm,knn", map[string]string{"k": "1,3"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"0", "30"} {
		out, _, err := arbor(t, "eval", "--data", "iris", "--labeled-per-class", "5", "--repeats", "3", "--seed", "4",
			"--kernel", "rbf:0.5,hck:average", "--learner", "svm,knn", "--k", "1,3", "--landmarks", m, "--json", "--quiet")
		if err != nil {
			t.Fatal(err)
		}
		set := pipeline.EvalSettings{Kernels: specs, Learners: learners, Seed: 4}
		if m == "30" {
			set.Landmarks = 30
		}
		res, err := pipeline.Eval(context.Background(), set, ds, splits)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(res) {
			t.Fatalf("--landmarks %s: %d results from arbor eval, %d from pipeline.Eval", m, len(lines), len(res))
		}
		for i, line := range lines {
			var got ssl.Result
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatal(err)
			}
			want := res[i]
			if got.Learner != want.Learner || got.Kernel != want.Kernel || got.Split != want.Split || got.Correct != want.Correct || got.Total != want.Total || got.Accuracy != want.Accuracy {
				t.Errorf("--landmarks %s, result %d: arbor eval %+v, pipeline.Eval %+v", m, i, got, want)
			}
		}
	}
}
