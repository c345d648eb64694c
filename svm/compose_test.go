package svm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/kernel"
)

// TestCompose: the linear-kernel model composed with a map A labels u as
// the model labels u·A (one-vs-one with three classes, and two classes);
// other kernels and FitGram models are refused.
func TestCompose(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 5))
	for _, classes := range []int{2, 3} {
		X := mat.NewDense(90, 4, nil)
		y := make([]int, 90)
		for i := range y {
			y[i] = i % classes
			for j := 0; j < 4; j++ {
				X.Set(i, j, rng.NormFloat64()+float64((y[i]+j)%classes))
			}
		}
		m, err := Classifier{C: 1, Kernel: kernel.Linear{}}.Fit(ctx, X, y)
		if err != nil {
			t.Fatal(err)
		}
		A := mat.NewDense(7, 4, nil)
		U := mat.NewDense(120, 7, nil)
		for _, M := range []*mat.Dense{A, U} {
			raw := M.RawMatrix().Data
			for i := range raw {
				raw[i] = rng.NormFloat64()
			}
		}
		c, err := m.Compose(A)
		if err != nil {
			t.Fatal(err)
		}
		var UA mat.Dense
		UA.Mul(U, A)
		want, err := m.PredictPoints(ctx, nil, &UA)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.PredictPoints(ctx, nil, U)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%d classes: composed %v (%v), want %v", classes, got, err, want)
		}
		if _, err := m.Compose(mat.NewDense(7, 3, nil)); !errors.Is(err, ErrShape) {
			t.Errorf("7×3 map: %v, want ErrShape", err)
		}
	}
	X := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 1, 1.1, 1.2})
	m, err := Classifier{C: 1, Kernel: kernel.RBF{Gamma: 1}}.Fit(ctx, X, []int{0, 0, 0, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Compose(mat.NewDense(2, 1, nil)); !errors.Is(err, ErrBadParam) {
		t.Errorf("rbf model: %v, want ErrBadParam", err)
	}
}
