package dataset

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readFixture reads a headerless numeric CSV with '#' comment lines.
func readFixture(t *testing.T, path string) *mat.Dense {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var data []float64
	var rows, cols int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		cols = len(f)
		for _, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, v)
		}
		rows++
	}
	return mat.NewDense(rows, cols, data)
}

// The fixtures are numpy results (testdata/gen_fixtures.py). numpy sums
// pairwise, we sum left to right: the means differ by a few ulps of the
// column sum, so 1e-13 absolute on values of order 1 is the reason-stated bound.
const scaleTol = 1e-13

func TestStandardizeIrisNumpy(t *testing.T) {
	iris, err := Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	orig := mat.DenseCopyOf(iris.X)
	for _, tc := range []struct {
		how  string
		file string
	}{{"std", "testdata/iris_std.csv"}, {"minmax", "testdata/iris_minmax.csv"}} {
		want := readFixture(t, tc.file)
		got, err := Scale(iris.X, tc.how)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(got, want, scaleTol) {
			t.Errorf("Scale(iris, %q) differs from numpy (max |diff| %g)", tc.how, maxAbsDiff(got, want))
		}
	}
	if !mat.Equal(iris.X, orig) {
		t.Error("Scale modified its input")
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

func TestScaleInvariants(t *testing.T) {
	X := mat.NewDense(4, 3, []float64{
		1, 7, 0.1,
		2, 7, 0.1,
		3, 7, 0.1,
		10, 7, 0.1,
	})
	z := Standardize(X)
	m := MinMax(X)
	for i := 0; i < 4; i++ {
		for _, j := range []int{1, 2} { // constant columns -> exactly 0
			if z.At(i, j) != 0 || m.At(i, j) != 0 {
				t.Errorf("constant column %d row %d: std %v minmax %v", j, i, z.At(i, j), m.At(i, j))
			}
		}
	}
	// closed form for column 0: mean 4, population var (9+4+1+36)/4 = 12.5
	sd := math.Sqrt(12.5)
	for i, x := range []float64{1, 2, 3, 10} {
		if got, want := z.At(i, 0), (x-4)/sd; math.Abs(got-want) > 1e-15 {
			t.Errorf("z[%d] = %v, want %v", i, got, want)
		}
		if got, want := m.At(i, 0), (x-1)/9; math.Abs(got-want) > 1e-15 {
			t.Errorf("minmax[%d] = %v, want %v", i, got, want)
		}
	}
	none, err := Scale(X, "none")
	if err != nil || !mat.Equal(none, X) || none == X {
		t.Errorf("Scale none: %v", err)
	}
	if _, err := Scale(X, "zscore"); !errors.Is(err, ErrUnknownScale) || !strings.Contains(err.Error(), `"zscore"`) {
		t.Errorf("Scale zscore: %v", err)
	}
}

func TestScalerTransform(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 5, 2, 5, 4, 5})
	s, err := FitScaler(X, "std")
	if err != nil {
		t.Fatal(err)
	}
	sd := math.Sqrt(8.0 / 3)
	if s.Shift[0] != 2 || math.Abs(s.Factor[0]-sd) > 1e-15 || s.Shift[1] != 5 || s.Factor[1] != 1 {
		t.Errorf("std scaler %+v", s)
	}
	// new points with the training statistics
	Y := mat.NewDense(1, 2, []float64{6, 7})
	got, err := s.Transform(nil, Y)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.At(0, 0)-4/sd) > 1e-15 || got.At(0, 1) != 2 {
		t.Errorf("transform %v", got.RawMatrix().Data)
	}
	// in place equals Standardize
	Z := Standardize(X)
	if _, err := s.Transform(X, X); err != nil || !mat.Equal(X, Z) {
		t.Errorf("in-place transform: %v", err)
	}
	if _, err := s.Transform(nil, mat.NewDense(1, 3, nil)); !errors.Is(err, ErrInconsistent) {
		t.Errorf("wrong width: %v", err)
	}
	if _, err := s.Transform(mat.NewDense(2, 2, nil), Y); !errors.Is(err, ErrInconsistent) {
		t.Errorf("wrong destination: %v", err)
	}
	m, _ := FitScaler(mat.NewDense(2, 1, []float64{3, -1}), "minmax")
	if m.Shift[0] != -1 || m.Factor[0] != 4 {
		t.Errorf("minmax scaler %+v", m)
	}
	if _, err := FitScaler(X, "l2"); !errors.Is(err, ErrUnknownScale) {
		t.Errorf("FitScaler(l2): %v", err)
	}
}

// Missing values (NaN) are left out of the statistics and stay missing.
func TestScaleMissing(t *testing.T) {
	nan := math.NaN()
	X := mat.NewDense(4, 2, []float64{1, nan, 3, 2, nan, 4, 5, nan})
	Z, err := Scale(X, "std")
	if err != nil {
		t.Fatal(err)
	}
	// column 0: 1, 3, 5 -> mean 3, population sd sqrt(8/3); column 1: 2, 4 -> mean 3, sd 1
	sd := math.Sqrt(8.0 / 3)
	want := []float64{-2 / sd, nan, 0, -1, nan, 1, 2 / sd, nan}
	for i, v := range Z.RawMatrix().Data {
		if math.IsNaN(want[i]) != math.IsNaN(v) || (!math.IsNaN(v) && math.Abs(v-want[i]) > 1e-15) {
			t.Errorf("Z[%d] = %v, want %v", i, v, want[i])
		}
	}
	M, _ := Scale(X, "minmax")
	if M.At(2, 1) != 1 || M.At(0, 0) != 0 || !math.IsNaN(M.At(3, 1)) {
		t.Errorf("minmax: %v", M.RawMatrix().Data)
	}
}
