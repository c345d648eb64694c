package knn

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Ties = TiesLowest gives scikit-learn's KNeighborsClassifier predictions
// (testdata/ties_sklearn.py: 120 points, 30 labelled, 3 classes, k = 2, 4,
// 6, uniform and distance weights; no two distances equal), where the
// default rule (the peer's) differs on the tied votes.
func TestTiesLowestMatchesScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/ties_sklearn.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, recs := recs[0], recs[1:]
	n := len(recs)
	X := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for i, r := range recs {
		for j := 0; j < 3; j++ {
			X.Set(i, j, num(r[j]))
		}
		y[i] = int(num(r[3]))
	}
	ctx := context.Background()
	for col := 4; col < len(head); col++ {
		name := head[col]
		w, k := name[:len(name)-1], int(name[len(name)-1]-'0')
		lowest, err := Classifier{K: k, Weights: w, Ties: TiesLowest}.Fit(ctx, X, y)
		if err != nil {
			t.Fatal(err)
		}
		nearest, err := Classifier{K: k, Weights: w}.Fit(ctx, X, y)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lowest.PredictPoints(ctx, nil, X)
		if err != nil {
			t.Fatal(err)
		}
		def, err := nearest.PredictPoints(ctx, nil, X)
		if err != nil {
			t.Fatal(err)
		}
		differ := 0
		for i, r := range recs {
			want := int(num(r[col]))
			if got[i] != want {
				t.Errorf("%s: row %d: %d, scikit-learn %d", name, i, got[i], want)
			}
			if def[i] != want {
				differ++
			}
		}
		if w == Uniform && k > 2 && differ == 0 {
			t.Errorf("%s: the default rule agrees with scikit-learn on every row: the fixture has no tied votes", name)
		}
		t.Logf("%s: default rule differs from scikit-learn on %d of %d rows", name, differ, n)
	}
	// The setting survives Save/Load.
	m, err := Classifier{K: 4, Ties: TiesLowest}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m.PredictPoints(ctx, nil, X)
	c, _ := m2.PredictPoints(ctx, nil, X)
	for i := range a {
		if a[i] != c[i] {
			t.Fatalf("loaded model: row %d %d, saved %d", i, c[i], a[i])
		}
	}
	if _, err := (Classifier{K: 1, Ties: "first"}).Fit(ctx, X, y); err == nil {
		t.Error(`Ties = "first": no error`)
	}
}
