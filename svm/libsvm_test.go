package svm

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Fixtures from svm/testdata/gen_fixtures.py (scikit-learn's SVC and
// OneClassSVM, i.e. LIBSVM; version recorded in the file).

type fixMachine struct {
	Pos, Neg int
	SV       []int
	Coef     []float64
	Rho, Obj float64
	Obj64    float64
}

type fixSVC struct {
	Name      string
	Kernel    string
	Gamma     float64
	C         float64
	Weights   map[string]float64
	X, Xt     [][]float64
	Y         []int
	Support   []int
	NSupport  []int `json:"n_support"`
	Machines  []fixMachine
	Decision  [][]float64
	Predict   []int
	Generator string
}

type fixOC struct {
	Name     string
	Gamma, C float64
	Nu       float64
	X, Xt    [][]float64
	Alpha    []float64
	Rho      float64
	Decision []float64
}

type fixtures struct {
	Sklearn  string
	SVC      []fixSVC
	Oneclass []fixOC
	Platt    struct {
		Dec, Labels []float64
		A, B        float64
	}
	Coupling struct {
		R [][]float64
		P []float64
	}
}

var (
	fixOnce sync.Once
	fix     fixtures
	fixErr  error
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func loadFixtures(t *testing.T) *fixtures {
	t.Helper()
	fixOnce.Do(func() {
		b, err := os.ReadFile("testdata/fixtures.json")
		if err != nil {
			fixErr = err
			return
		}
		fixErr = json.Unmarshal(b, &fix)
	})
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return &fix
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func (f *fixSVC) kernel() kernel.Kernel {
	if f.Kernel == "linear" {
		return kernel.Linear{}
	}
	return kernel.RBF{Gamma: f.Gamma}
}

func (f *fixSVC) classifier() Classifier {
	c := Classifier{C: f.C}
	if len(f.Weights) > 0 {
		c.Weights = map[int]float64{}
		for k, v := range f.Weights {
			lab, _ := strconv.Atoi(k)
			c.Weights[lab] = v
		}
	}
	return c
}

// fitFixture trains on a fixture with point kernels or, for
// "precomputed", on kernel.Gram, and returns the model and test decision
// values.
func fitFixture(t *testing.T, f *fixSVC) (*Model, *mat.Dense, []int) {
	t.Helper()
	ctx := context.Background()
	X, Xt := dense(f.X), dense(f.Xt)
	c := f.classifier()
	if f.Kernel == "precomputed" {
		k := kernel.RBF{Gamma: f.Gamma}
		K, err := kernel.Gram(ctx, nil, k, X)
		if err != nil {
			t.Fatal(err)
		}
		Kt, err := kernel.Cross(ctx, nil, k, Xt, X)
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.FitGram(ctx, K, f.Y)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := m.DecisionGram(nil, Kt)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(ctx, nil, Kt)
		if err != nil {
			t.Fatal(err)
		}
		return m, dec, pred
	}
	c.Kernel = f.kernel()
	m, err := c.Fit(ctx, X, f.Y)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := m.Decision(nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.PredictPoints(context.Background(), nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	return m, dec, pred
}

// exactObjective is ½cᵀKc − Σ|c| over the given rows in float64.
func exactObjective(t *testing.T, f *fixSVC, rows []int, coef []float64) float64 {
	k := f.kernel()
	if f.Kernel == "precomputed" {
		k = kernel.RBF{Gamma: f.Gamma}
	}
	o := 0.0
	for a, ra := range rows {
		for b, rb := range rows {
			o += 0.5 * coef[a] * coef[b] * k.Eval(f.X[ra], f.X[rb])
		}
		o -= math.Abs(coef[a])
	}
	return o
}

// TestLIBSVMFixtures compares C-SVC with LIBSVM: same support vectors, dual
// coefficients within 1e-5·C and ρ within 1e-5 (the solver follows
// LIBSVM's path; only kernel values may differ in the last bits), dual
// objective within 1e-6 relative (both as LIBSVM reports it, with its
// float32 kernel cache, and recomputed in float64), decision values within
// 1e-4 and identical predictions.
func TestLIBSVMFixtures(t *testing.T) {
	fx := loadFixtures(t)
	for i := range fx.SVC {
		f := &fx.SVC[i]
		t.Run(f.Name, func(t *testing.T) {
			m, dec, pred := fitFixture(t, f)
			if !slices.Equal(m.SV, f.Support) {
				t.Errorf("support vectors\n got %v\nwant %v", m.SV, f.Support)
			}
			if !slices.Equal(m.NSV, f.NSupport) {
				t.Errorf("NSV = %v, want %v", m.NSV, f.NSupport)
			}
			if !m.Converged {
				t.Errorf("not converged: %v", m.Warnings)
			}
			if len(m.Machines) != len(f.Machines) {
				t.Fatalf("%d machines, want %d", len(m.Machines), len(f.Machines))
			}
			for p, want := range f.Machines {
				got := m.Machines[p]
				if got.Pos != want.Pos || got.Neg != want.Neg {
					t.Errorf("machine %d is (%d,%d), want (%d,%d)", p, got.Pos, got.Neg, want.Pos, want.Neg)
				}
				rows := make([]int, len(got.SV))
				for k, s := range got.SV {
					rows[k] = m.SV[s]
				}
				if !slices.Equal(rows, want.SV) {
					t.Errorf("machine %d SV rows\n got %v\nwant %v", p, rows, want.SV)
					continue
				}
				for k := range rows {
					if d := math.Abs(got.Coef[k] - want.Coef[k]); d > 1e-5*f.C {
						t.Errorf("machine %d coef[%d] = %.9g, want %.9g", p, k, got.Coef[k], want.Coef[k])
					}
				}
				if d := math.Abs(got.Rho - want.Rho); d > 1e-5 {
					t.Errorf("machine %d rho = %.9g, want %.9g", p, got.Rho, want.Rho)
				}
				if d := math.Abs(got.Objective-want.Obj) / math.Abs(want.Obj); d > 1e-6 {
					t.Errorf("machine %d objective = %.12g, want %.12g (rel %.2g)", p, got.Objective, want.Obj, d)
				}
				// The same objective in float64 from the coefficients.
				o := exactObjective(t, f, rows, got.Coef)
				if d := math.Abs(o-want.Obj64) / math.Abs(want.Obj64); d > 1e-6 {
					t.Errorf("machine %d float64 objective = %.12g, want %.12g (rel %.2g)", p, o, want.Obj64, d)
				}
			}
			for i, row := range f.Decision {
				for p, v := range row {
					if d := math.Abs(dec.At(i, p) - v); d > 1e-4 {
						t.Errorf("decision[%d][%d] = %.8g, want %.8g", i, p, dec.At(i, p), v)
					}
				}
			}
			if !slices.Equal(pred, f.Predict) {
				t.Errorf("predictions\n got %v\nwant %v", pred, f.Predict)
			}
		})
	}
}
