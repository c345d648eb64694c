package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
)

func saveLoad(t *testing.T, p *pipeline.Pipeline) *pipeline.Pipeline {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Save(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := pipeline.Load(&buf, "lp.arbor")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestPropagationRBF: label propagation and spreading fitted on the points
// with the rbf affinity, saved and loaded, label a grid of new points as
// scikit-learn's predict (fixture propagate/testdata/predict.json, made by
// propagate/testdata/gen_predict.py with scikit-learn 1.2.1).
func TestPropagationRBF(t *testing.T) {
	var fx struct {
		Gamma   float64     `json:"gamma"`
		Labeled []int       `json:"labeled"`
		Grid    [][]float64 `json:"grid"`
		LP, LS  struct {
			Predict []int `json:"predict"`
		}
	}
	raw, err := os.ReadFile("../propagate/testdata/predict.json")
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
	aff := propagate.Affinity{Kind: propagate.RBF, Gamma: fx.Gamma}
	lp, err := propagate.Propagation{Affinity: aff, Method: propagate.Iterative}.Fit(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := propagate.Spreading{Affinity: aff}.Fit(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := dataset.FitScaler(ds.X, "none")
	for _, c := range []struct {
		name string
		m    learner.Model
		want []int
	}{{"propagation", lp, fx.LP.Predict}, {"spreading", ls, fx.LS.Predict}} {
		p, err := pipeline.New(ds, sc, kernel.Built{}, "", c.m)
		if err != nil {
			t.Fatal(err)
		}
		p.Affinity = aff.String()
		got, err := saveLoad(t, p).Predict(ctx, grid)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, scikit-learn %v", c.name, got, c.want)
		}
	}
}

// TestPropagationKNN: with the knn:K affinity, a new point's affinity row
// is 1 at its K nearest training rows (by the definition, brute force
// here) and the saved pipeline labels as the model given those rows.
func TestPropagationKNN(t *testing.T) {
	ctx := context.Background()
	ds, sc, y, newX := fixture(t)
	aff := propagate.Affinity{Kind: propagate.KNN, K: 5}
	m, err := propagate.Propagation{Affinity: aff}.Fit(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	Xt, _ := sc.Transform(nil, newX)
	n, _ := ds.X.Dims()
	t0, _ := Xt.Dims()
	W := mat.NewDense(t0, n, nil)
	for q := 0; q < t0; q++ {
		order := make([]int, n)
		d2 := make([]float64, n)
		for j := range order {
			order[j] = j
			for c := 0; c < ds.Dim(); c++ {
				v := Xt.At(q, c) - ds.X.At(j, c)
				d2[j] += v * v
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return d2[order[a]] < d2[order[b]] })
		for _, j := range order[:5] {
			W.Set(q, j, 1)
		}
	}
	want, err := m.Predict(ctx, nil, W)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.New(ds, sc, kernel.Built{}, "", m)
	if err != nil {
		t.Fatal(err)
	}
	p.Affinity = aff.String()
	got, err := saveLoad(t, p).Predict(ctx, newX)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("knn:5: %v, want %v", got, want)
	}
}
