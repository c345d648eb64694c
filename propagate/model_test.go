package propagate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// TestPredictOutOfSample: Model.Predict on new points equals scikit-learn's
// LabelPropagation/LabelSpreading predict (testdata/gen_predict.py: two
// moons, 5 labels per class, RBF gamma 20, a 9×9 grid; the smallest
// probability margin there is 0.02, far above rounding), and the
// transduction equals transduction_. Save → Load predicts identically.
func TestPredictOutOfSample(t *testing.T) {
	var fx struct {
		Gamma   float64     `json:"gamma"`
		Labeled []int       `json:"labeled"`
		Grid    [][]float64 `json:"grid"`
		LP, LS  struct {
			Transduction []int `json:"transduction"`
			Predict      []int `json:"predict"`
		}
	}
	raw, err := os.ReadFile("testdata/predict.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Embedded("two_moons")
	if err != nil {
		t.Fatal(err)
	}
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = learner.Unlabeled
	}
	for _, r := range fx.Labeled {
		y[r] = ds.Y[r]
	}
	grid := mat.NewDense(len(fx.Grid), 2, nil)
	for i, r := range fx.Grid {
		grid.SetRow(i, r)
	}
	ctx := context.Background()
	Kt, err := kernel.Cross(ctx, nil, kernel.RBF{Gamma: fx.Gamma}, grid, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	aff := Affinity{Kind: RBF, Gamma: fx.Gamma}
	lp, err := Propagation{Affinity: aff, Method: Iterative}.Fit(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := Spreading{Affinity: aff}.Fit(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		m           *Model
		trans, pred []int
	}{{"propagation", lp, fx.LP.Transduction, fx.LP.Predict}, {"spreading", ls, fx.LS.Transduction, fx.LS.Predict}} {
		if !slices.Equal(c.m.Transduction(), c.trans) {
			t.Errorf("%s: transduction differs from scikit-learn's", c.name)
		}
		got, err := c.m.Predict(ctx, nil, Kt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.pred) {
			t.Errorf("%s: predict\n got %v\nwant %v", c.name, got, c.pred)
		}
		var buf bytes.Buffer
		if err := c.m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		again, err := back.Predict(ctx, make([]int, len(got)), Kt)
		if err != nil || !slices.Equal(again, got) || !slices.Equal(back.Transduction(), c.m.Transduction()) {
			t.Errorf("%s: loaded model predicts %v (%v)", c.name, again, err)
		}
		if !slices.Equal(c.m.Classes(), []int{0, 1}) {
			t.Errorf("%s: classes %v", c.name, c.m.Classes())
		}
	}
	// Bad input: columns, destination, NaN, a malformed file.
	if _, err := lp.Predict(ctx, nil, mat.NewDense(1, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("columns: %v", err)
	}
	if _, err := lp.Predict(ctx, make([]int, 2), Kt); !errors.Is(err, ErrShape) {
		t.Errorf("dst: %v", err)
	}
	bad := mat.DenseCopyOf(Kt)
	bad.Set(0, 0, nan())
	if _, err := lp.Predict(ctx, nil, bad); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	for _, text := range []string{`{}`, `{"format":"arbor-propagate","version":2}`,
		`{"format":"arbor-propagate","version":1,"n_classes":2,"distributions":[[1,0]],"transduction":[2],"method":"closed","iter":0,"change":0,"converged":true}`} {
		if _, err := Load(strings.NewReader(text)); !errors.Is(err, ErrFormat) {
			t.Errorf("Load(%s): %v", text, err)
		}
	}
	// A point with no affinity to any fitted row is unlabelled.
	if got, _ := lp.Predict(ctx, nil, mat.NewDense(1, ds.Len(), nil)); got[0] != learner.Unlabeled {
		t.Errorf("zero row: %v", got)
	}
}

func nan() float64 { z := 0.0; return z / z }
