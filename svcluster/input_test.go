package svcluster

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	X, _ := fourBlobs(40, 2)
	for _, tc := range []struct {
		name string
		c    Clusterer
		X    mat.Matrix
		want error
	}{
		{"q=0", Clusterer{Q: 0, C: 1}, X, ErrBadQ},
		{"q<0", Clusterer{Q: -1, C: 1}, X, ErrBadQ},
		{"q=NaN", Clusterer{Q: math.NaN(), C: 1}, X, ErrBadQ},
		{"q=Inf", Clusterer{Q: math.Inf(1), C: 1}, X, ErrBadQ},
		{"C>1", Clusterer{Q: 1, C: 1.5}, X, ErrBadC},
		{"C<1/N", Clusterer{Q: 1, C: 0.01}, X, ErrBadC},
		{"C=0", Clusterer{Q: 1}, X, ErrBadC},
		{"C=NaN", Clusterer{Q: 1, C: math.NaN()}, X, ErrBadC},
		{"C=1/N", Clusterer{Q: 1, C: 1.0 / 40}, X, ErrAllOutliers},
		{"one point", Clusterer{Q: 1, C: 1}, mat.NewDense(1, 2, []float64{1, 2}), ErrTooFewRows},
		{"nil", Clusterer{Q: 1, C: 1}, nil, ErrEmpty},
		{"NaN", Clusterer{Q: 1, C: 1}, mat.NewDense(2, 1, []float64{1, math.NaN()}), ErrNonFinite},
		{"Inf", Clusterer{Q: 1, C: 1}, mat.NewDense(2, 1, []float64{math.Inf(-1), 0}), ErrNonFinite},
		{"kernel", Clusterer{Q: 1, C: 1, Kernel: 7}, X, ErrBadKernel},
		{"labelling", Clusterer{Q: 1, C: 1, Labelling: 9}, X, ErrBadLabelling},
		{"samples", Clusterer{Q: 1, C: 1, Samples: -1}, X, ErrBadParam},
	} {
		_, err := tc.c.Fit(ctx, tc.X)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		s    Sweep
		want error
	}{
		{"QStart<0", Sweep{QStart: -1}, ErrBadQ},
		{"QFactor", Sweep{QFactor: 0.5}, ErrBadParam},
		{"P0", Sweep{P0: 2}, ErrBadC},
		{"Clusters", Sweep{Clusters: -2}, ErrBadParam},
	} {
		if _, err := tc.s.Fit(ctx, X); !errors.Is(err, tc.want) {
			t.Errorf("sweep %s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := ParseKernel("poly"); !errors.Is(err, ErrBadKernel) {
		t.Errorf("ParseKernel(poly): %v", err)
	}
	if _, err := ParseLabelling("fast"); !errors.Is(err, ErrBadLabelling) {
		t.Errorf("ParseLabelling(fast): %v", err)
	}
	if _, err := PCA(nil, X, 3); !errors.Is(err, ErrBadParam) {
		t.Errorf("PCA to 3 of 2 columns: %v", err)
	}
}

// TestDuplicatedPoints: duplicating every point leaves the clusters of the
// originals unchanged and puts each copy with its original.
func TestDuplicatedPoints(t *testing.T) {
	ctx := context.Background()
	X, y := coreRings(3)
	n, _ := X.Dims()
	D := mat.NewDense(2*n, 2, nil)
	D.Stack(X, X)
	for _, lab := range []Labelling{Complete, KNNGraph, SVGraph, Cone} {
		a, err := Clusterer{Q: 1, C: 1 / (float64(n) * 0.3), Labelling: lab}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Clusterer{Q: 1, C: 1 / (float64(2*n) * 0.3), Labelling: lab}.Fit(ctx, D)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b.Labels[:n], b.Labels[n:]) {
			t.Errorf("%v: copies in different clusters", lab)
		}
		if lab != KNNGraph && ari(t, a.Labels, b.Labels[:n]) != 1 {
			t.Errorf("%v: duplicating the data changed the clusters: %v vs %v", lab, a.Sizes, b.Sizes)
		}
		if lab == Complete && ari(t, y, b.Labels[:n]) != 1 {
			t.Errorf("duplicated core and rings not separated: %v", b.Sizes)
		}
	}
}

// TestOneDimensional: two groups on a line are two clusters.
func TestOneDimensional(t *testing.T) {
	x := []float64{0, 0.1, 0.2, 0.3, 0.25, 0.15, 5, 5.1, 5.2, 5.05, 5.15}
	X := mat.NewDense(len(x), 1, x)
	for _, lab := range []Labelling{Naive, Complete, KNNGraph, SVGraph, Cone} {
		r, err := Clusterer{Q: 2, C: 1, Labelling: lab, K: 3}.Fit(context.Background(), X)
		if err != nil {
			t.Fatal(err)
		}
		want := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
		if !slices.Equal(r.Labels, want) {
			t.Errorf("%v: labels %v, want %v", lab, r.Labels, want)
		}
	}
}

// TestGOMAXPROCSFit: whole fits are identical for 1 and 2 workers.
func TestGOMAXPROCSFit(t *testing.T) {
	X, _ := coreRings(5)
	var ref []int
	for _, p := range []int{1, 2} {
		prev := runtimeGOMAXPROCS(p)
		for _, lab := range []Labelling{Complete, KNNGraph, SVGraph, Cone} {
			r, err := Clusterer{Q: 1, C: 1 / (500 * 0.3), Labelling: lab}.Fit(context.Background(), X)
			if err != nil {
				t.Fatal(err)
			}
			ref2 := append(append([]int(nil), r.Labels...), r.NSV, r.NBSV)
			if p == 1 {
				ref = append(ref, ref2...)
			} else if !slices.Equal(ref2, ref[:len(ref2)]) {
				t.Errorf("%v: GOMAXPROCS 1 and 2 differ", lab)
			} else {
				ref = ref[len(ref2):]
			}
		}
		runtimeGOMAXPROCS(prev)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	X, _ := fourBlobs(200, 3)
	if _, err := (Clusterer{Q: 1, C: 1}).Fit(ctx, X); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fit: %v", err)
	}
}
