package svcluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/metrics"
	"gonum.org/v1/gonum/mat"
)

// fourBlobs: n points in 4 unit-variance Gaussian blobs on a square of side
// 12 (well separated, so every labelling finds the same 4 clusters).
func fourBlobs(n int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 4))
	X := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 4
		X.Set(i, 0, rng.NormFloat64()+12*float64(c%2))
		X.Set(i, 1, rng.NormFloat64()+12*float64(c/2))
		y[i] = c
	}
	return X, y
}

// fitted returns the data, settings and SVDD solution shared by labelling
// tests and benchmarks.
func fitted(tb testing.TB, n int, q, p float64) ([]float64, int, Clusterer, svddSolution, []int) {
	X, y := fourBlobs(n, 1)
	x, _, d, err := rowMajor(X)
	if err != nil {
		tb.Fatal(err)
	}
	c := Clusterer{Q: q, C: 1 / (float64(n) * p)}.withDefaults()
	sol, err := solveSVDD(context.Background(), x, n, d, c)
	if err != nil {
		tb.Fatal(err)
	}
	return x, d, c, sol, y
}

// TestLabellingsAgreeWithNaive: on well-separated data every labelling
// gives the clusters of the naive complete graph (eq. 17 over all pairs).
func TestLabellingsAgreeWithNaive(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 300
	}
	x, d, c, sol, y := fitted(t, n, 1, 0.05)
	c.Labelling = Naive
	ref, err := c.label(context.Background(), x, n, d, sol)
	if err != nil {
		t.Fatal(err)
	}
	if a := ari(t, y, ref.Labels); ref.NClusters != 4 || a != 1 {
		t.Fatalf("naive: %d clusters, ARI %v; want the 4 blobs", ref.NClusters, a)
	}
	for _, m := range []Labelling{Complete, SVGraph, KNNGraph, Cone} {
		c.Labelling = m
		r, err := c.label(context.Background(), x, n, d, sol)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Labels, ref.Labels) {
			t.Errorf("%v: labels differ from the naive complete graph (%d clusters %v)", m, r.NClusters, r.Sizes)
		}
	}
}

// BenchmarkLabelling compares the labellings on one fitted sphere at
// N = 2000 (4 blobs, q = 1, 1/(NC) = 0.05; all give the same 4 clusters,
// checked). Run: go test -run - -bench Labelling -benchtime 1x ./svcluster/
// (the naive graph takes about a minute).
func BenchmarkLabelling(b *testing.B) {
	const n = 2000
	x, d, c, sol, y := fitted(b, n, 1, 0.05)
	for _, m := range []Labelling{Naive, Complete, SVGraph, KNNGraph, Cone} {
		b.Run(fmt.Sprintf("%v/n=%d", m, n), func(b *testing.B) {
			c.Labelling = m
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.label(context.Background(), x, n, d, sol)
				if err != nil {
					b.Fatal(err)
				}
				if a, _ := metrics.ARI(y, r.Labels); r.NClusters != 4 || a != 1 {
					b.Fatalf("%v: %d clusters, ARI %v", m, r.NClusters, a)
				}
			}
		})
	}
}

// BenchmarkFit is SVDD + labelling end to end on noisy two moons
// (q = 10, 1/(NC) = 0.05; the moons come out as 2 clusters).
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		ds := dataset.Moons(n, 0.08, 1)
		for _, m := range []Labelling{KNNGraph, Cone, Complete} {
			if m == Complete && n > 2000 {
				continue
			}
			b.Run(fmt.Sprintf("%v/n=%d", m, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r, err := Clusterer{Q: 10, C: 1 / (float64(n) * 0.05), Labelling: m}.Fit(context.Background(), ds.X)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(r.NClusters), "clusters")
				}
			})
		}
	}
}

// BenchmarkSweep is the §3.2 hierarchy on Iris (2 PCs) down to 3 clusters.
func BenchmarkSweep(b *testing.B) {
	Z, _ := irisPCA2(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Sweep{Clusters: 3}).Fit(context.Background(), Z); err != nil {
			b.Fatal(err)
		}
	}
}
