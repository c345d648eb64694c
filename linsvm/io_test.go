package linsvm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func blobs(n, d, classes int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % classes
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64()+float64((y[i]+j)%classes))
		}
	}
	return X, y
}

// TestSaveLoad: a saved and loaded model has the same weights bit for bit
// and labels new points identically, for two and for several classes; a
// cut, foreign or newer file is ErrFormat.
func TestSaveLoad(t *testing.T) {
	ctx := context.Background()
	for _, classes := range []int{2, 4} {
		X, y := blobs(300, 5, classes, uint64(classes))
		m, err := Classifier{C: 0.7, Seed: 2}.Fit(ctx, X, y)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		q, err := Load(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		for k := range m.w {
			w1, b1 := m.Weights(k)
			w2, b2 := q.Weights(k)
			if fmt.Sprint(w1, b1) != fmt.Sprint(w2, b2) {
				t.Fatalf("%d classes: problem %d weights differ after loading", classes, k)
			}
		}
		Xt, _ := blobs(200, 5, classes, 99)
		want, err := m.Predict(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := q.Predict(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(q.Classes()) != fmt.Sprint(m.Classes()) {
			t.Fatalf("%d classes: loaded model predicts %v, want %v", classes, got, want)
		}
		// Parallel blocks: the same labels with one thread.
		prev := runtime.GOMAXPROCS(1)
		one, err := q.Predict(ctx, make([]int, 200), Xt)
		runtime.GOMAXPROCS(prev)
		if err != nil || fmt.Sprint(one) != fmt.Sprint(want) {
			t.Fatalf("GOMAXPROCS=1: %v %v", one, err)
		}
		full := buf.Bytes()
		for _, bad := range [][]byte{full[:len(full)/2], []byte(`{"format":"arbor-svm","version":1}`),
			bytes.Replace(full, []byte(`"version": 1`), []byte(`"version": 2`), 1), []byte("x,y\n1,2\n")} {
			if _, err := Load(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) {
				t.Errorf("%.40q: %v, want ErrFormat", bad, err)
			}
		}
		if _, err := q.Predict(ctx, nil, mat.NewDense(2, 4, nil)); err == nil || !strings.Contains(err.Error(), "4 columns") {
			t.Errorf("wrong width: %v", err)
		}
	}
}

// TestCompose: the model composed with a map A labels u as the model
// labels u·A, with weights A·w (closed form).
func TestCompose(t *testing.T) {
	ctx := context.Background()
	X, y := blobs(200, 4, 3, 7)
	m, err := Classifier{Seed: 1}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	A := mat.NewDense(9, 4, nil)
	U := mat.NewDense(150, 9, nil)
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
	want, _ := m.Predict(ctx, nil, &UA)
	got, err := c.Predict(ctx, nil, U)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("composed: %v %v, want %v", got, err, want)
	}
	w, _ := m.Weights(1)
	cw, _ := c.Weights(1)
	for i := 0; i < 9; i++ {
		s := 0.0
		for j := 0; j < 4; j++ {
			s += A.At(i, j) * w[j]
		}
		if d := s - cw[i]; d > 1e-12 || d < -1e-12 {
			t.Fatalf("weight %d: %v, want A·w = %v", i, cw[i], s)
		}
	}
	if _, err := m.Compose(mat.NewDense(3, 5, nil)); !errors.Is(err, ErrInput) {
		t.Errorf("3×5 map: %v, want ErrInput", err)
	}
}
