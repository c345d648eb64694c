package knn

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestProbabilitiesAgainstSklearn: vote shares equal
// KNeighborsClassifier.predict_proba (testdata/gen_proba.py) to 1e-9 for
// uniform and distance weights, from points (Fit, Probabilities) and from
// kernel rows (FitGram, ProbaDiag with the linear kernel: the same
// Euclidean neighbours; the fixture has no ties at the K-th neighbour).
// Tolerance: distance weights 1/d, d from x·x + z·z − 2x·z, differ from
// scikit-learn's in the last bits.
func TestProbabilitiesAgainstSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/proba.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		X, Query [][]float64
		Y        []int
		Fits     []struct {
			K       int
			Weights string
			Proba   [][]float64
		}
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	toDense := func(r [][]float64) *mat.Dense {
		m := mat.NewDense(len(r), len(r[0]), nil)
		for i, v := range r {
			m.SetRow(i, v)
		}
		return m
	}
	X, Q := toDense(fx.X), toDense(fx.Query)
	var K mat.SymDense
	K.SymOuterK(1, X)
	var Kt mat.Dense
	Kt.Mul(Q, X.T())
	diag := make([]float64, len(fx.Query))
	for i, q := range fx.Query {
		for _, v := range q {
			diag[i] += v * v
		}
	}
	if len(fx.Fits) == 0 {
		t.Fatal("no fits in the fixture")
	}
	for _, f := range fx.Fits {
		c := Classifier{K: f.K, Weights: f.Weights, Kernel: kernel.Linear{}}
		mp, err := c.Fit(ctx, X, fx.Y)
		if err != nil {
			t.Fatal(err)
		}
		mg, err := c.FitGram(ctx, &K, fx.Y)
		if err != nil {
			t.Fatal(err)
		}
		P1, err := mp.Probabilities(ctx, nil, Points(Q))
		if err != nil {
			t.Fatal(err)
		}
		P2, err := mg.ProbaDiag(ctx, nil, &Kt, diag)
		if err != nil {
			t.Fatal(err)
		}
		for name, P := range map[string]*mat.Dense{"points": P1, "gram": P2} {
			worst := 0.0
			for i, row := range f.Proba {
				for j, w := range row {
					worst = max(worst, math.Abs(P.At(i, j)-w))
				}
			}
			if worst > 1e-9 {
				t.Errorf("k=%d %s %s: max |ΔP| = %.3g vs predict_proba", f.K, f.Weights, name, worst)
			}
		}
	}
}
