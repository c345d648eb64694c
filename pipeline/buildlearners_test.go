package pipeline_test

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestBuildLearners: the learners named, and the refusals in order, each
// wrapping learner.ErrSettings: more than one when one is wanted, a
// setting given that no learner reads, a learner on landmark features
// without landmarks.
func TestBuildLearners(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	learner.AddFlags(fs)
	values := learner.FlagValues(fs, 0)
	outputs := map[string][]string{"tree": {"hibust"}}
	ls, err := pipeline.BuildLearners("svm,knn", values, nil, outputs, false, 0)
	if err != nil || len(ls) != 2 || ls[0].Name() != "svm" || !strings.HasPrefix(ls[1].Name(), "knn") {
		t.Fatalf("svm,knn: %v, %v", ls, err)
	}
	for _, c := range []struct {
		names     string
		given     []string
		one       bool
		landmarks int
		want      string
	}{
		{"svm,knn", nil, true, 0, "classify runs one learner; got 2"},
		{"svm", []string{"k"}, true, 0, "--k has no effect on --learner svm"},
		{"svm", []string{"tree"}, true, 0, "--tree"},
		{"linsvm", nil, true, 0, "linsvm"},
		{"nosuch", nil, false, 0, "nosuch"},
	} {
		_, err := pipeline.BuildLearners(c.names, values, c.given, outputs, c.one, c.landmarks)
		if !errors.Is(err, learner.ErrSettings) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.names, c.given, err, c.want)
		}
	}
	if ls, err := pipeline.BuildLearners("linsvm", values, nil, outputs, true, 50); err != nil || len(ls) != 1 {
		t.Errorf("linsvm with landmarks: %v, %v", ls, err)
	}
}
