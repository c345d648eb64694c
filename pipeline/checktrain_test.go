package pipeline_test

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestCheckTraining: no labelled row, one class, and every row labelled
// with nothing new to label are refused; a labelled and an unlabelled
// row of two classes, or every row labelled with new points, are not.
func TestCheckTraining(t *testing.T) {
	set := func(y ...int) *dataset.Dataset {
		return &dataset.Dataset{Name: "d.csv", LabelName: "class", X: mat.NewDense(len(y), 1, nil), Y: y, Classes: []string{"a", "b"}}
	}
	for _, c := range []struct {
		ds        *dataset.Dataset
		newPoints bool
		want      string // "" = no error
	}{
		{set(-1, -1), true, `d.csv: no labelled rows (label column "class")`},
		{set(0, 0, -1), true, "class"},
		{set(0, 1), false, "d.csv: every row is labelled and there is no --test"},
		{set(0, 1), true, ""},
		{set(0, 1, -1), false, ""},
	} {
		err := pipeline.CheckTraining(c.ds, c.newPoints)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v (new points %v): %v, want %q", c.ds.Y, c.newPoints, err, c.want)
		}
	}
}
