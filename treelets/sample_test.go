package treelets

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
	"gonum.org/v1/gonum/mat"
)

// blobs returns three well-separated Gaussian blobs (σ = 0.3, centres 6
// apart) of per points each, and their labels.
func blobs(per int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(3*per, 2, nil)
	y := make([]int, 3*per)
	for i := range y {
		c := i % 3
		y[i] = c
		X.Set(i, 0, 6*float64(c)+0.3*rng.NormFloat64())
		X.Set(i, 1, 0.3*rng.NormFloat64())
	}
	return X, y
}

func TestSampleExtension(t *testing.T) {
	X, y := blobs(50, 1)
	g := kernel.Points{K: kernel.RBF{Gamma: 0.5}, X: X}
	for _, ext := range []Extension{ExtendSVM, ExtendKNN} {
		s := Sample{M: 40, Seed: 3, Clusters: 3, Extend: ext}
		r, err := s.Fit(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Rows, Draw(150, 40, 3)) || len(r.Rows) != 40 {
			t.Fatalf("rows %v", r.Rows)
		}
		// the sampled items carry the cut of treelets on K(S, S)
		KS, _ := g.Sym(context.Background(), nil, r.Rows)
		m, err := Settings{}.Fit(context.Background(), KS)
		if err != nil {
			t.Fatal(err)
		}
		cut, _ := m.CutK(3)
		for i, row := range r.Rows {
			if r.Labels[row] != cut[i] {
				t.Fatalf("%v: sampled item %d labelled %d, cut says %d", ext, row, r.Labels[row], cut[i])
			}
		}
		// separated blobs: the extension recovers the classes exactly
		if ari, _ := metrics.ARI(y, r.Labels); ari != 1 {
			t.Errorf("%v: ARI %v, want 1", ext, ari)
		}
		// the same seed gives the same result
		r2, _ := s.Fit(context.Background(), g)
		if !slices.Equal(r.Labels, r2.Labels) {
			t.Errorf("%v: refit differs", ext)
		}
	}
	// m = n: no extension, the cut of the full hierarchy
	r, err := Sample{Clusters: 3}.Fit(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if ari, _ := metrics.ARI(y, r.Labels); ari != 1 {
		t.Errorf("full sample: ARI %v", ari)
	}
	// and the same levels as treelets on the full kernel matrix
	K, _ := g.Sym(context.Background(), nil, r.Rows)
	m, err := Settings{}.Fit(context.Background(), K)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Levels, r.Model.Levels) {
		t.Errorf("full sample levels differ from Fit on K")
	}
}

func TestSampleErrors(t *testing.T) {
	X, _ := blobs(5, 2)
	g := kernel.Points{K: kernel.RBF{Gamma: 0.5}, X: X}
	for _, tc := range []struct {
		s    Sample
		want error
	}{
		{Sample{M: 16, Clusters: 2}, ErrBadParam},
		{Sample{M: 1, Clusters: 1}, ErrBadParam},
		{Sample{M: -2, Clusters: 1}, ErrBadParam},
		{Sample{M: 5, Clusters: 6}, ErrK},
		{Sample{Clusters: 16}, ErrK},
		{Sample{M: 5}, ErrBadParam},
		{Sample{Settings: Settings{Lambda: -1}}, ErrBadParam},
	} {
		if _, err := tc.s.Fit(context.Background(), g); !errors.Is(err, tc.want) {
			t.Errorf("%+v: error %v, want %v", tc.s, err, tc.want)
		}
	}
	if _, err := ParseExtension("forest"); !errors.Is(err, ErrBadParam) {
		t.Errorf("ParseExtension: %v", err)
	}
}
