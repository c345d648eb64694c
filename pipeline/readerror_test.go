package pipeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestExplainReadError: a text cell in the model's ID or label column
// names the role the model was fitted with, unless the options give that
// role; a bad cell of a model feature is returned as it is; any other
// text column is explained as dataset.Options.Explain does.
func TestExplainReadError(t *testing.T) {
	p := &pipeline.Pipeline{Features: []string{"f1", "f2"}, IDName: "uid", LabelName: "kind"}
	text := func(col string, others ...string) error {
		return &dataset.ParseError{File: "new.csv", Line: 2, Column: col, Err: dataset.ErrNotNumber, TextColumns: others}
	}
	for _, c := range []struct {
		name string
		err  error
		opt  dataset.Options
		want string // in the message; "" = the error as it is
	}{
		{"id column", text("uid"), dataset.Options{}, "(the model was fitted with --id uid --label kind: give the same here)"},
		{"label among the text columns", text("note", "kind"), dataset.Options{ID: "uid"}, "(the model was fitted with --label kind: give the same here)"},
		{"roles given", text("uid"), dataset.Options{ID: "uid", Label: "kind"}, "--id uid keeps it as row IDs"},
		{"other text column", text("note"), dataset.Options{}, `if column "note" is not a feature`},
		{"model feature", text("f2"), dataset.Options{}, ""},
		{"not a parse error", errors.New("disk full"), dataset.Options{}, ""},
	} {
		got := p.ExplainReadError(c.err, c.opt)
		if !errors.Is(got, c.err) {
			t.Errorf("%s: %v does not wrap %v", c.name, got, c.err)
		}
		if c.want == "" {
			if got != c.err {
				t.Errorf("%s: %v, want the error as it is", c.name, got)
			}
		} else if !strings.Contains(got.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, got, c.want)
		}
	}
}
