package dataset

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMatchNew: features in another order are put in the training order
// (a note), unknown test classes are a warning, a LIBSVM file's missing
// trailing features are zeros, another number of features is an error.
func TestMatchNew(t *testing.T) {
	train := &Dataset{Name: "train.csv", X: mat.NewDense(1, 3, nil), Features: []string{"a", "b", "c"}, Classes: []string{"x", "y"}}
	test := &Dataset{Name: "new.csv", X: mat.NewDense(1, 3, []float64{3, 1, 2}), Features: []string{"c", "a", "b"}, Classes: []string{"y", "z"}}
	var log bytes.Buffer
	if err := train.MatchNew(test, "new.csv", &log); err != nil {
		t.Fatal(err)
	}
	if got := test.X.RawRowView(0); got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Errorf("aligned row %v, want [1 2 3]", got)
	}
	want := "test: new.csv: feature columns matched to train.csv by name (they are in another order)\n" +
		`warning: new.csv: test labels "z" are not classes of train.csv ("x", "y"); those rows count as wrong` + "\n"
	if log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	sparse := &Dataset{Name: "new.svm", X: mat.NewDense(1, 2, []float64{5, 6}), Features: []string{"1", "2"}}
	if err := train.MatchNew(sparse, "new.svm", nil); err != nil || sparse.Dim() != 3 || sparse.X.At(0, 2) != 0 {
		t.Errorf("LIBSVM file: %v, %d features", err, sparse.Dim())
	}
	short := &Dataset{Name: "new.csv", X: mat.NewDense(1, 2, nil), Features: []string{"a", "b"}}
	if err := train.MatchNew(short, "new.csv", nil); err == nil || !strings.Contains(err.Error(), "new.csv: 2 features, but train.csv has 3") {
		t.Errorf("2 features: %v", err)
	}
}
