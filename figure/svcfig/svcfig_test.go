package svcfig

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/svcluster"
	"gonum.org/v1/gonum/mat"
)

// TestClustering: 2-D data give one row of contour panels (plus a row of
// curves after a sweep); other dimensions need a sweep (ErrNot2D without);
// the figure renders.
func TestClustering(t *testing.T) {
	ctx := context.Background()
	pts := []float64{0, 0, 0.1, 0.2, -0.2, 0.1, 0.15, -0.1, 3, 3, 3.1, 2.9, 2.8, 3.2, 3.2, 3.1}
	X := mat.NewDense(8, 2, pts)
	res, err := svcluster.Clusterer{Q: 1, C: 1}.Fit(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Clustering(X, res, nil, "two blobs", [2]string{"x", "y"})
	if err != nil || len(f.Plots) != 1 {
		t.Fatalf("2-D: %v, %d rows", err, len(f.Plots))
	}
	var buf bytes.Buffer
	if err := f.WriteTo(&buf, ".svg"); err != nil || buf.Len() == 0 {
		t.Fatalf("render: %v", err)
	}
	h, err := svcluster.Sweep{}.Fit(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Clustering(X, h.Levels[len(h.Levels)-1].Result, h, "two blobs", [2]string{"x", "y"})
	if err != nil || len(f.Plots) != 2 {
		t.Fatalf("sweep: %v, %d rows", err, len(f.Plots))
	}
	X3 := mat.NewDense(8, 3, nil)
	for i := range 8 {
		X3.Set(i, 0, pts[2*i])
		X3.Set(i, 1, pts[2*i+1])
	}
	r3, err := svcluster.Clusterer{Q: 1, C: 1}.Fit(ctx, X3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Clustering(X3, r3, nil, "3-D", [2]string{"x", "y"}); !errors.Is(err, ErrNot2D) {
		t.Errorf("3-D without a sweep: %v", err)
	}
}

// TestClusteringDeterministic: the picture of a clustering with many
// small contours (two moons, q = 20, 1/(NC) = 0.89) is the same PNG, byte
// for byte, on every rendering.
func TestClusteringDeterministic(t *testing.T) {
	ds, err := dataset.Embedded("two_moons")
	if err != nil {
		t.Fatal(err)
	}
	res, err := svcluster.Clusterer{Q: 20, C: 0.0028}.Fit(context.Background(), ds.X)
	if err != nil {
		t.Fatal(err)
	}
	render := func() []byte {
		f, err := Clustering(ds.X, res, nil, "two moons", [2]string{"x", "y"})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.WriteTo(&b, ".png"); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first := render()
	for i := range 3 {
		if !bytes.Equal(first, render()) {
			t.Fatalf("rendering %d differs from the first", i+2)
		}
	}
}

func TestAxes(t *testing.T) {
	for _, c := range []struct {
		pca      bool
		features []string
		want     [2]string
	}{
		{true, []string{"a", "b"}, [2]string{"principal component 1", "principal component 2"}},
		{false, []string{"a", "b", "c"}, [2]string{"a", "b"}},
		{false, []string{"a"}, [2]string{"feature 1", "feature 2"}},
		{false, nil, [2]string{"feature 1", "feature 2"}},
	} {
		if got := Axes(c.pca, c.features); got != c.want {
			t.Errorf("Axes(%v, %q) = %q, want %q", c.pca, c.features, got, c.want)
		}
	}
}
