package dataset

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestWithLabeledSubsetClone(t *testing.T) {
	iris, err := Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	semi := iris.WithLabeled([]int{0, 50, 149})
	if got := semi.Labeled(); !slices.Equal(got, []int{0, 50, 149}) {
		t.Errorf("Labeled() = %v", got)
	}
	if len(semi.UnlabeledRows()) != 147 || semi.Y[50] != 1 || semi.Y[149] != 2 {
		t.Errorf("WithLabeled: Y[50]=%d Y[149]=%d", semi.Y[50], semi.Y[149])
	}
	if iris.Y[1] != 0 || len(iris.Labeled()) != 150 {
		t.Error("WithLabeled modified the original")
	}
	semi.X.Set(0, 0, -1)
	if iris.X.At(0, 0) != 5.1 {
		t.Error("WithLabeled shares X")
	}
	sub := iris.Subset([]int{149, 0, 0})
	if sub.Len() != 3 || sub.X.At(0, 3) != 1.8 || sub.X.At(2, 0) != 5.1 || !slices.Equal(sub.Y, []int{2, 0, 0}) {
		t.Errorf("Subset: %v %v", sub.X.RawMatrix().Data, sub.Y)
	}
	if len(sub.Classes) != 3 || !slices.Equal(sub.ClassCounts(), []int{2, 0, 1}) {
		t.Errorf("Subset classes %v counts %v", sub.Classes, sub.ClassCounts())
	}
	c := iris.Clone()
	c.X.Set(1, 1, 99)
	c.Y[0] = 2
	c.Classes[0] = "x"
	if iris.X.At(1, 1) == 99 || iris.Y[0] != 0 || iris.Classes[0] != "0" {
		t.Error("Clone shares storage")
	}
	names := semi.LabelNames()
	if names[0] != "0" || names[1] != "" || names[149] != "2" {
		t.Errorf("LabelNames: %q %q %q", names[0], names[1], names[149])
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	m := Moons(50, 0.2, 1).WithLabeled([]int{1, 2, 3})
	m.Classes = []string{"a b", "c,d"} // needs quoting
	m.X.Set(0, 0, math.SmallestNonzeroFloat64)
	m.X.Set(0, 1, -math.MaxFloat64)
	var buf bytes.Buffer
	if err := m.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(&buf, "rt.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(back.X, m.X) || !slices.Equal(back.Y, m.Y) || !slices.Equal(back.Classes, m.Classes) || !slices.Equal(back.Features, m.Features) {
		t.Errorf("round trip changed the data:\n%v %v\n%v %v", back.Y, back.Classes, m.Y, m.Classes)
	}
	bad := m.Clone()
	bad.Features[1] = "label"
	if err := bad.WriteCSV(&buf); !errors.Is(err, ErrDuplicateColumn) {
		t.Errorf("feature named label: %v", err)
	}
}

func TestCheck(t *testing.T) {
	good := &Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []int{0, Unlabeled}, Classes: []string{"a"}}
	if err := good.Check(); err != nil {
		t.Errorf("good: %v", err)
	}
	for what, d := range map[string]*Dataset{
		"nil X":      {Name: "s"},
		"short Y":    {X: mat.NewDense(2, 1, nil), Y: []int{0}, Classes: []string{"a"}},
		"bad label":  {X: mat.NewDense(2, 1, nil), Y: []int{0, 1}, Classes: []string{"a"}},
		"features":   {X: mat.NewDense(2, 1, nil), Y: []int{0, 0}, Classes: []string{"a"}, Features: []string{"x", "y"}},
		"non-finite": {X: mat.NewDense(2, 1, []float64{1, math.NaN()}), Y: []int{0, 0}, Classes: []string{"a"}},
	} {
		err := d.Check()
		if err == nil {
			t.Errorf("%s: no error", what)
			continue
		}
		if what == "non-finite" {
			if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "row 1") {
				t.Errorf("%s: %v", what, err)
			}
		} else if !errors.Is(err, ErrInconsistent) {
			t.Errorf("%s: %v", what, err)
		}
	}
}

// TestPoints: a data set's points are its X; no data set has none.
func TestPoints(t *testing.T) {
	var none *Dataset
	if none.Points() != nil {
		t.Error("a nil data set has points")
	}
	ds := &Dataset{X: mat.NewDense(2, 1, []float64{1, 2})}
	if ds.Points() != ds.X {
		t.Error("Points is not X")
	}
}
