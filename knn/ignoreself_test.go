package knn

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// IgnoreSelf: the ranking does not depend on K(x, x), so the predictions
// with a query's true self value and with that value inflated by 10¹³ (a
// Nyström extension of a kernel that is not positive semi-definite, as
// landmark ISOMAP) are the plain model's with the true value; the plain
// model given the inflated values loses the informative digits and ties
// every labelled point. Saved and loaded, the setting is kept.
func TestIgnoreSelf(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	const n, d, q = 300, 4, 200
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 3
		for j := 0; j < d; j++ {
			X.Set(i, j, float64(c)*0.8*float64(j%2)+rng.NormFloat64())
		}
		y[i] = -1
		if i < 45 {
			y[i] = c
		}
	}
	Q := mat.NewDense(q, d, nil)
	for i := 0; i < q; i++ {
		for j := 0; j < d; j++ {
			Q.Set(i, j, float64(i%3)*0.8*float64(j%2)+rng.NormFloat64())
		}
	}
	// Kernel rows of the queries against the training rows (linear kernel)
	// and their self values.
	var Kt mat.Dense
	Kt.Mul(Q, X.T())
	diag := make([]float64, q)
	inflated := make([]float64, q)
	for i := range diag {
		r := Q.RawRowView(i)
		for _, v := range r {
			diag[i] += v * v
		}
		inflated[i] = diag[i] + 1e13
	}
	var G mat.SymDense
	G.SymOuterK(1, X)
	for _, k := range []int{1, 3, 7} {
		plain, err := Classifier{K: k}.FitGram(ctx, &G, y)
		if err != nil {
			t.Fatal(err)
		}
		ign, err := Classifier{K: k, IgnoreSelf: true}.FitGram(ctx, &G, y)
		if err != nil {
			t.Fatal(err)
		}
		want, err := plain.PredictDiag(ctx, nil, &Kt, diag)
		if err != nil {
			t.Fatal(err)
		}
		for name, dg := range map[string][]float64{"true": diag, "inflated": inflated} {
			got, err := ign.PredictDiag(ctx, nil, &Kt, dg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("k = %d, %s self values: IgnoreSelf predictions differ from the plain model's", k, name)
			}
		}
		bad, err := plain.PredictDiag(ctx, nil, &Kt, inflated)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(bad, want) {
			t.Errorf("k = %d: the plain model is unaffected by inflated self values (the test's premise)", k)
		}
		// The transduction (GramRows) is the plain one too.
		if !slices.Equal(ign.Transduction(), plain.Transduction()) {
			t.Errorf("k = %d: transduction differs", k)
		}
		// Saved and loaded.
		var buf bytes.Buffer
		if err := ign.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(buf.Bytes(), []byte(`"ignore_self": true`)) {
			t.Errorf("saved model lacks ignore_self")
		}
		back, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.PredictDiag(ctx, nil, &Kt, inflated)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("k = %d: loaded IgnoreSelf model predicts otherwise", k)
		}
	}
	if _, err := (Classifier{K: 3, IgnoreSelf: true, Weights: Distance}).FitGram(ctx, &G, y); !errors.Is(err, ErrBadParam) {
		t.Errorf("IgnoreSelf with distance weights: err = %v, want ErrBadParam", err)
	}
}
