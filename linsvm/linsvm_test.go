package linsvm

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLinearSVC compares with scikit-learn's LinearSVC (LIBLINEAR) at a
// tight tolerance (testdata/gen_fixtures.py): the primal optimum w is
// unique (strictly convex), so both solvers' weights agree to the
// tolerance of their stopping rules; 1e-4 absolute on weights, intercepts
// and decision values, and the same predicted classes.
func TestLinearSVC(t *testing.T) {
	raw, err := os.ReadFile("testdata/linearsvc.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Name, Loss string
			C          float64
			N, D       int
			X, Xt      []float64
			Y          []int
			Coef       [][]float64
			Intercept  []float64
			Decision   []float64
			Pred       []int
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		X := mat.NewDense(c.N, c.D, c.X)
		m, err := Classifier{C: c.C, Loss: c.Loss, Tol: 1e-8, MaxIter: 100000, Seed: 1}.Fit(context.Background(), X, c.Y)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Converged {
			t.Errorf("%s/%s/C=%v: not converged in %v passes", c.Name, c.Loss, c.C, m.Iter)
		}
		for k := range c.Coef {
			w, b := m.Weights(k)
			for j := range w {
				if math.Abs(w[j]-c.Coef[k][j]) > 1e-4 {
					t.Errorf("%s/%s/C=%v: w[%d][%d] = %v, LinearSVC %v", c.Name, c.Loss, c.C, k, j, w[j], c.Coef[k][j])
				}
			}
			if math.Abs(b-c.Intercept[k]) > 1e-4 {
				t.Errorf("%s/%s/C=%v: b[%d] = %v, LinearSVC %v", c.Name, c.Loss, c.C, k, b, c.Intercept[k])
			}
		}
		Xt := mat.NewDense(len(c.Xt)/c.D, c.D, c.Xt)
		dec, err := m.Decision(nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		for i := range dec {
			if math.Abs(dec[i]-c.Decision[i]) > 1e-4 {
				t.Fatalf("%s/%s/C=%v: decision %d = %v, LinearSVC %v", c.Name, c.Loss, c.C, i, dec[i], c.Decision[i])
			}
		}
		pred, err := m.Predict(context.Background(), nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pred {
			if pred[i] != c.Pred[i] {
				t.Fatalf("%s/%s/C=%v: class of test row %d = %d, LinearSVC %d", c.Name, c.Loss, c.C, i, pred[i], c.Pred[i])
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{0, 1, 2})
	for _, c := range []struct {
		s Classifier
		y []int
	}{
		{Classifier{C: -1}, []int{0, 1, 0}},
		{Classifier{Loss: "l3"}, []int{0, 1, 0}},
		{Classifier{}, []int{0, 0, Unlabeled}},
		{Classifier{}, []int{0, 1}},
	} {
		if _, err := c.s.Fit(context.Background(), X, c.y); err == nil {
			t.Errorf("%+v %v: no error", c.s, c.y)
		}
	}
}

func BenchmarkFit(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, d := 5000, 20
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % 4
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64()+float64(y[i]*(j%3)))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Classifier{Seed: 1}).Fit(context.Background(), X, y); err != nil {
			b.Fatal(err)
		}
	}
}
