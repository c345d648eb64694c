package propagate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// TestKNNModelAgainstSklearn: Spreading.FitKNN on two moons (5 labels per
// class, knn:7) gives scikit-learn's transduction_ and
// label_distributions_, and KNNModel.Predict on 381 new points gives its
// predict (testdata/gen_predict_knn.py), except the 91 points whose 7
// neighbours carry no label mass (0/0 there: scikit-learn class 0, Arbor
// unlabelled). The smallest probability margin of the others is 0.007,
// far above rounding. Predict also equals Model.Predict on the dense
// affinity rows built here by brute force (the definition), and a saved
// and loaded model predicts identically.
func TestKNNModelAgainstSklearn(t *testing.T) {
	var fx struct {
		K             int         `json:"k"`
		Labeled       []int       `json:"labeled"`
		New           [][]float64 `json:"new"`
		Transduction  []int       `json:"transduction"`
		Distributions [][]float64 `json:"distributions"`
		Predict       []int       `json:"predict"`
		Zero          []int       `json:"zero"`
	}
	raw, err := os.ReadFile("testdata/predict_knn.json")
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
	Xt := mat.NewDense(len(fx.New), 2, nil)
	for i, r := range fx.New {
		Xt.SetRow(i, r)
	}
	ctx := context.Background()
	s := Spreading{Affinity: Affinity{Kind: KNN, K: fx.K}}
	m, err := s.FitKNN(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Transduction(), fx.Transduction) {
		t.Errorf("transduction differs from scikit-learn's")
	}
	if d := maxDiff(t, m.Model.Distributions, fx.Distributions); d > 1e-12 {
		t.Errorf("distributions differ from scikit-learn's by %g", d)
	}
	got, err := m.Predict(ctx, nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(fx.Predict)
	for _, i := range fx.Zero {
		want[i] = learner.Unlabeled
	}
	if !slices.Equal(got, want) {
		t.Errorf("predict\n got %v\nwant %v", got, want)
	}
	// The definition: Model.Predict on the t×N rows with a 1 for each of the
	// K nearest fitted rows by (d², index), found by sorting all N.
	n := ds.Len()
	W := mat.NewDense(len(fx.New), n, nil)
	for q := range fx.New {
		ord := make([]int, n)
		d2 := make([]float64, n)
		for j := range ord {
			ord[j] = j
			a, b := fx.New[q][0]-ds.X.At(j, 0), fx.New[q][1]-ds.X.At(j, 1)
			d2[j] = a*a + b*b
		}
		sort.SliceStable(ord, func(a, b int) bool { return d2[ord[a]] < d2[ord[b]] })
		for _, j := range ord[:fx.K] {
			W.Set(q, j, 1)
		}
	}
	def, err := m.Model.Predict(ctx, nil, W)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, def) {
		t.Errorf("predict differs from Model.Predict on the affinity rows\n got %v\nwant %v", got, def)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	back, err := LoadKNN(bytes.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Predict(ctx, make([]int, len(got)), Xt)
	if err != nil || !slices.Equal(again, got) || !slices.Equal(back.Transduction(), m.Transduction()) || back.K() != fx.K || back.Dim() != 2 {
		t.Errorf("loaded model predicts %v (%v)", again, err)
	}
	if !mat.Equal(back.Model.Distributions, m.Model.Distributions) {
		t.Errorf("loaded distributions differ")
	}
	// Bad input and damaged files.
	if _, err := (Spreading{}).FitKNN(ctx, ds.X, y); !errors.Is(err, ErrAffinity) {
		t.Errorf("rbf affinity: %v, want ErrAffinity", err)
	}
	if _, err := m.Predict(ctx, nil, mat.NewDense(1, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("columns: %v", err)
	}
	if _, err := m.Predict(ctx, make([]int, 2), Xt); !errors.Is(err, ErrShape) {
		t.Errorf("dst: %v", err)
	}
	if _, err := m.Predict(ctx, nil, mat.NewDense(1, 2, []float64{0, math.NaN()})); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	for name, nb := range map[string][]int32{"row 400": {1, 400}, "row −1": {-1, 0}, "3 for k = 2": {0, 1, 2}} {
		if _, err := m.Model.PredictNeighbors(ctx, nil, nb, 2); !errors.Is(err, ErrShape) {
			t.Errorf("PredictNeighbors %s: %v, want ErrShape", name, err)
		}
	}
	for name, text := range map[string]string{
		"truncated":  string(saved[:len(saved)/2]),
		"foreign":    `{"format":"arbor-anchor-graph","version":1}`,
		"newer":      `{"format":"arbor-knn-graph","version":2}`,
		"short rows": strings.Replace(string(saved), `"n": 400`, `"n": 401`, 1),
		"label":      `{"format":"arbor-knn-graph","version":1,"learner":"spreading","k":1,"n":1,"dim":1,"classes":2,"rows":"AAAAAAAAAAA=","distributions":"AAAAAAAA8D8AAAAAAAAAAA==","transduction":[2],"method":"iterative","iter":1,"change":0,"converged":true}`,
	} {
		if _, err := LoadKNN(strings.NewReader(text)); err == nil {
			t.Errorf("%s: loaded", name)
		} else if name != "truncated" && !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
}

// TestKNNModelGOMAXPROCS: the fit and the predictions do not depend on
// the number of threads (bit-identical soft labels).
func TestKNNModelGOMAXPROCS(t *testing.T) {
	ds, err := dataset.Embedded("two_moons")
	if err != nil {
		t.Fatal(err)
	}
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = learner.Unlabeled
		if i%40 == 0 {
			y[i] = ds.Y[i]
		}
	}
	Xt := mat.NewDense(3000, 2, nil)
	for i := 0; i < 3000; i++ {
		Xt.Set(i, 0, -1.5+4*float64(i%60)/60)
		Xt.Set(i, 1, -1+2.5*float64(i/60)/50)
	}
	ctx := context.Background()
	var first *KNNModel
	var firstPred []int
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(procs)
		m, err := Spreading{Affinity: Affinity{Kind: KNN, K: 6}, Unreachable: UnreachableUnlabeled}.FitKNN(ctx, ds.X, y)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first, firstPred = m, p
			continue
		}
		if !mat.Equal(m.Model.Distributions, first.Model.Distributions) || !slices.Equal(p, firstPred) {
			t.Errorf("GOMAXPROCS %d: a different fit or prediction than with 1", procs)
		}
	}
}

// BenchmarkKNNModel times Spreading.FitKNN (knn:7) on the peer_time.py
// data (5,000 two-moons points, 10 labelled per class) and Predict on the
// same 5,000 points as new ones.
func BenchmarkKNNModel(b *testing.B) {
	X, y := loadMoons5000(b)
	ctx := context.Background()
	s := Spreading{Affinity: Affinity{Kind: KNN, K: 7}, Unreachable: UnreachableUnlabeled}
	b.Run("fit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.FitKNN(ctx, X, y); err != nil {
				b.Fatal(err)
			}
		}
	})
	m, err := s.FitKNN(ctx, X, y)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("predict", func(b *testing.B) {
		b.ReportAllocs()
		dst := make([]int, len(y))
		for b.Loop() {
			if _, err := m.Predict(ctx, dst, X); err != nil {
				b.Fatal(err)
			}
		}
	})
}
