package pipeline_test

import (
	"errors"
	"testing"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestCheckGiven: a setting given is refused when none of the learners
// reads it, a kernel flag when none uses a kernel; the first refused
// setting in the order given is named.
func TestCheckGiven(t *testing.T) {
	outputs := map[string][]string{"tree": {"hibust"}}
	for _, c := range []struct {
		names string
		given []string
		want  string
	}{
		{"svm", []string{"C", "gamma", "kernel"}, ""},
		{"svm,knn", []string{"C", "k"}, ""},
		{"propagation", []string{"affinity"}, ""},
		{"svm", []string{"C", "k", "tree"}, "--k has no effect on --learner svm (it is for knn)"},
		{"svm", []string{"tree"}, "--tree has no effect on --learner svm (it is for hibust)"},
		{"hibust", []string{"tree"}, ""},
		{"lp", []string{"gamma", "k"}, "--gamma has no effect on --learner lp: it uses no kernel (label propagation and spreading use --affinity; --affinity kernel uses the --kernel matrix)"},
		{"lp,svm", []string{"gamma"}, ""},
	} {
		ls, err := pipeline.Learners(c.names, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		err = pipeline.CheckGiven(c.names, ls, c.given, outputs)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.names, c.given, err)
		case c.want != "" && (err == nil || err.Error() != c.want || !errors.Is(err, learner.ErrSettings)):
			t.Errorf("%s %v: %v, want %q", c.names, c.given, err, c.want)
		}
	}
}
