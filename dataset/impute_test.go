package dataset

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestImputerSklearn: FitImputer's values and Transform equal
// scikit-learn's SimpleImputer (testdata/impute_sklearn.py) for every
// strategy: means to 1e-12, medians and modes (ties: the smallest) exactly.
func TestImputerSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/impute_sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx map[string]json.RawMessage
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	var raw [][]*float64
	if err := json.Unmarshal(fx["X"], &raw); err != nil {
		t.Fatal(err)
	}
	n, d := len(raw), len(raw[0])
	X := mat.NewDense(n, d, nil)
	for i, row := range raw {
		for j, v := range row {
			if v == nil {
				X.Set(i, j, math.NaN())
			} else {
				X.Set(i, j, *v)
			}
		}
	}
	for _, s := range ImputeStrategies {
		var want struct {
			Statistics  []float64   `json:"statistics"`
			Transformed [][]float64 `json:"transformed"`
		}
		if err := json.Unmarshal(fx[s], &want); err != nil {
			t.Fatal(s, err)
		}
		im, err := FitImputer(X, s, nil)
		if err != nil {
			t.Fatal(s, err)
		}
		for j, v := range want.Statistics {
			if math.Abs(im.Fill[j]-v) > 1e-12 {
				t.Errorf("%s: column %d fill %v, scikit-learn %v", s, j, im.Fill[j], v)
			}
		}
		Z := mat.DenseCopyOf(X)
		filled, err := im.Transform(Z)
		if err != nil {
			t.Fatal(err)
		}
		missing := 0
		for i := range n {
			for j := range d {
				if math.IsNaN(X.At(i, j)) {
					missing++
				}
				if math.Abs(Z.At(i, j)-want.Transformed[i][j]) > 1e-12 {
					t.Fatalf("%s: (%d, %d) = %v, scikit-learn %v", s, i, j, Z.At(i, j), want.Transformed[i][j])
				}
			}
		}
		if filled != missing {
			t.Errorf("%s: filled %d of %d missing cells", s, filled, missing)
		}
		// Through a Scaler: imputation first, then the scaling.
		sc := &Scaler{How: "std", Shift: make([]float64, d), Factor: make([]float64, d), Impute: im}
		for j := range d {
			sc.Shift[j], sc.Factor[j] = 1, 2
		}
		S, err := sc.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := S.At(4, 0), (want.Transformed[4][0]-1)/2; got != w {
			t.Errorf("%s: scaled imputed cell %v, want %v", s, got, w)
		}
	}
}

func TestImputerErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, math.NaN(), 2, math.NaN(), 3, math.NaN()})
	if _, err := FitImputer(X, "mode", nil); !errors.Is(err, ErrUnknownImpute) {
		t.Errorf("unknown strategy: %v", err)
	}
	_, err := FitImputer(X, "mean", []string{"a", "b"})
	if !errors.Is(err, ErrMissing) || err.Error() != `missing value: column "b" has no value to compute its mean from (every cell is missing): drop it (--ignore)` {
		t.Errorf("all-missing column: %v", err)
	}
	if im, err := FitImputer(X, "zero", nil); err != nil || im.Fill[1] != 0 {
		t.Errorf("zero: %v %v", im, err)
	}
	if im, err := FitImputer(X, "none", nil); im != nil || err != nil {
		t.Errorf("none: %v %v", im, err)
	}
	im, _ := FitImputer(X, "zero", nil)
	if _, err := im.Transform(mat.NewDense(1, 3, nil)); !errors.Is(err, ErrInconsistent) {
		t.Errorf("columns: %v", err)
	}
}
