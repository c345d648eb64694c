package pipeline_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// TestSplitChoice: drawn splits are ssl.PerClassSplits's, a file's lines
// are dataset.ReadSplits's (one line with Line), each described; choices
// that do not fit together are settings errors; a split holding one class
// is an error naming it; a class of a single row is a warning.
func TestSplitChoice(t *testing.T) {
	y := []int{0, 0, 0, 1, 1, 1, 2}
	ds := &dataset.Dataset{Name: "d", X: mat.NewDense(len(y), 1, nil), Y: y, Classes: []string{"a", "b", "c"}}
	var log bytes.Buffer
	splits, desc, err := pipeline.SplitChoice{PerClass: 1, Repeats: 3, Seed: 4, Log: &log}.Splits(ds)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ssl.PerClassSplits(y, 1, 3, 4)
	if !reflect.DeepEqual(splits, want) || desc != "1 labelled per class, seeds 4..6" {
		t.Errorf("per class: %v %q, want %v", splits, desc, want)
	}
	if !strings.Contains(log.String(), `warning: class "c" has a single row`) {
		t.Errorf("no warning of the single-row class: %q", log.String())
	}
	path := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(path, []byte("0,3\n1,4,6\n0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	splits, desc, err = pipeline.SplitChoice{Path: path, Line: 2}.Splits(ds)
	if err != nil || !reflect.DeepEqual(splits, [][]int{{1, 4, 6}}) || desc != "splits "+path+" line 2" {
		t.Errorf("line 2: %v %q %v", splits, desc, err)
	}
	if _, _, err := (pipeline.SplitChoice{Path: path}).Splits(ds); err == nil || err.Error() != "d, split 2 of "+path+": "+ssl.SplitClasses([]int{0, 1}, y, ds.Classes).Error() {
		t.Errorf("one-class split: %v", err)
	}
	for _, c := range []pipeline.SplitChoice{{}, {Path: path, PerClass: 1}, {Path: path, Line: 4}, {PerClass: 1}, {PerClass: 1, Repeats: 2, Seed: 1<<32 - 1}} {
		if _, _, err := c.Splits(ds); !errors.Is(err, learner.ErrSettings) {
			t.Errorf("%+v: %v, want a settings error", c, err)
		}
	}
	usps, err := dataset.Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	want, err = dataset.EmbeddedSplits("usps", 10)
	if err != nil {
		t.Fatal(err)
	}
	splits, desc, err = pipeline.SplitChoice{Path: "usps:10"}.Splits(usps)
	if err != nil || (!reflect.DeepEqual(splits, want) || desc != "splits usps:10") {
		t.Errorf("usps:10: %d splits %q", len(splits), desc)
	}
	if _, _, err := (pipeline.SplitChoice{Path: "usps:ten"}).Splits(usps); !errors.Is(err, learner.ErrSettings) {
		t.Errorf("usps:ten: %v, want a settings error", err)
	}
}
