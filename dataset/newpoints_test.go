package dataset

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestNewPoints: column order, unknown classes and LIBSVM zero padding of
// a test set against its training set.
func TestNewPoints(t *testing.T) {
	train := &Dataset{Name: "train.csv", X: mat.NewDense(1, 3, []float64{1, 2, 3}), Features: []string{"a", "b", "c"}, Classes: []string{"x", "y"}}
	swapped := &Dataset{Name: "test.csv", X: mat.NewDense(1, 3, nil), Features: []string{"a", "c", "b"}, Classes: []string{"y", "z", "w"}}
	if err := train.CheckColumns(swapped); err == nil || !strings.Contains(err.Error(), `column "c" is feature 2, but feature 3 in train.csv`) {
		t.Errorf("swapped columns: %v", err)
	}
	for _, f := range [][]string{{"a", "b", "c"}, {"1", "2", "3"}, {"a", "b"}} {
		if err := train.CheckColumns(&Dataset{Features: f}); err != nil {
			t.Errorf("features %v: %v", f, err)
		}
	}
	if got := train.UnknownClasses(swapped); !slices.Equal(got, []string{"z", "w"}) {
		t.Errorf("unknown classes %v", got)
	}
	sparse := &Dataset{X: mat.NewDense(2, 1, []float64{7, 8}), Features: []string{"1"}}
	sparse.PadFeatures(train)
	if !mat.Equal(sparse.X, mat.NewDense(2, 3, []float64{7, 0, 0, 8, 0, 0})) || !slices.Equal(sparse.Features, train.Features) {
		t.Errorf("padded %v %v", mat.Formatted(sparse.X), sparse.Features)
	}
	sparse.PadFeatures(&Dataset{X: mat.NewDense(1, 2, nil)}) // wider already: unchanged
	if _, c := sparse.X.Dims(); c != 3 {
		t.Errorf("narrowed to %d columns", c)
	}
}

// TestAlignFeatures: a test set naming the same features in another order
// gets d's order, values and missing cells following their columns; one
// naming other features, or another number, is left alone.
func TestAlignFeatures(t *testing.T) {
	train := &Dataset{X: mat.NewDense(1, 3, []float64{1, 2, 3}), Features: []string{"a", "b", "c"}}
	test := &Dataset{X: mat.NewDense(2, 3, []float64{30, 10, 20, 31, 11, 21}), Features: []string{"c", "a", "b"}, Missing: []Cell{{Row: 1, Col: 0}}}
	if !train.AlignFeatures(test) {
		t.Fatal("AlignFeatures: not moved")
	}
	if got := test.X.RawMatrix().Data; !slices.Equal(got, []float64{10, 20, 30, 11, 21, 31}) {
		t.Errorf("aligned rows %v", got)
	}
	if !slices.Equal(test.Features, train.Features) || test.Missing[0].Col != 2 {
		t.Errorf("features %v, missing cell in column %d, want %v and 2", test.Features, test.Missing[0].Col, train.Features)
	}
	if train.AlignFeatures(test) {
		t.Error("aligned again: moved")
	}
	for _, f := range [][]string{{"a", "b", "x"}, {"b", "a"}} {
		other := &Dataset{X: mat.NewDense(1, len(f), nil), Features: f}
		if train.AlignFeatures(other) || !slices.Equal(other.Features, f) {
			t.Errorf("features %v: moved", f)
		}
	}
}
