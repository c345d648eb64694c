package pipeline_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestSavedTree: an exact cluster-kernel pipeline with the tree rule saves
// its training tree, and the loaded pipeline labels new points from it (no
// N×N matrix) as the fitting process labelled them; a file without the
// tree rebuilds it with the kernel and
// labels them alike; with the linear rule no tree is saved.
func TestSavedTree(t *testing.T) {
	ctx := context.Background()
	ds, sc, _, newX := fixture(t)
	n := ds.Len()
	Xt, err := sc.Transform(nil, newX) // Fit's test rows are scaled with Settings.Scaler
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ kernel, learner, rule string }{
		{"hck:average", "svm", ""},
		{"hck:complete", "knn", ""},
		{"hckg:single", "svm", ""},
		{"connectivity", "knn", ""},
		{"hck:average", "svm", kernel.RuleLinear},
	} {
		res, err := pipeline.Fit(ctx, pipeline.Settings{Scaler: sc, Kernel: c.kernel, Learner: c.learner, Rule: c.rule}, ds, Xt)
		if err != nil {
			t.Fatal(err)
		}
		want := res.Labels[n:]
		p, err := res.Pipeline()
		if err != nil {
			t.Fatal(err)
		}
		var withTree bytes.Buffer
		if err := p.Save(&withTree); err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(withTree.Bytes(), []byte(`"tree":[[`)); has != (c.rule == "") {
			t.Errorf("%s %s rule %q: tree saved %v", c.kernel, c.learner, c.rule, has)
		}
		old, err := pipeline.New(ds, sc, kernel.Built{Spec: res.Spec}, p.Rule, res.Model)
		if err != nil {
			t.Fatal(err)
		}
		var noTree bytes.Buffer
		if err := old.Save(&noTree); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(noTree.Bytes(), []byte(`"tree":`)) {
			t.Fatalf("%s: a pipeline without its tree saved one", c.kernel)
		}
		for name, file := range map[string][]byte{"with the tree": withTree.Bytes(), "without": noTree.Bytes()} {
			q, err := pipeline.Load(bytes.NewReader(file), "m.arbor")
			if err != nil {
				t.Fatalf("%s %s, %s: %v", c.kernel, c.learner, name, err)
			}
			got, err := q.Predict(ctx, newX)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s rule %q, %s: loaded pipeline labels %v, the fit %v", c.kernel, c.learner, c.rule, name, got, want)
			}
		}
	}
}
