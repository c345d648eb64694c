package svcluster

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/metrics"
	"gonum.org/v1/gonum/mat"
)

func irisPCA2(t testing.TB) (*mat.Dense, []int) {
	t.Helper()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	Z, err := PCA(nil, ds.X, 2)
	if err != nil {
		t.Fatal(err)
	}
	return Z, ds.Y
}

// TestIrisReference compares one (q, C) with the independent NumPy/sklearn
// pipeline of testdata/gen_iris_ref.py.
func TestIrisReference(t *testing.T) {
	var ref struct {
		Q, P          float64
		NSV           int `json:"n_sv"`
		NBSV          int `json:"n_bsv"`
		R2            float64
		Clusters      int
		Sizes         []int
		Misclassified int
		Labels        []int
	}
	b, err := os.ReadFile("testdata/iris_q7_p06.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	Z, y := irisPCA2(t)
	for _, lab := range []Labelling{Naive, Complete, KNNGraph, SVGraph} {
		r, err := Clusterer{Q: ref.Q, C: 1 / (150 * ref.P), Labelling: lab}.Fit(context.Background(), Z)
		if err != nil {
			t.Fatal(err)
		}
		// R² agrees to the solvers' tolerances (LIBSVM tol 1e-7 there, 1e-5 here).
		if math.Abs(r.R2-ref.R2) > 1e-5 {
			t.Errorf("%v: R² = %.8f, sklearn pipeline %.8f", lab, r.R2, ref.R2)
		}
		// A β within tolerance of 0 may count as a support vector or not.
		if r.NBSV != ref.NBSV || abs(r.NSV-ref.NSV) > 1 {
			t.Errorf("%v: n_sv, n_bsv = %d, %d; reference %d, %d", lab, r.NSV, r.NBSV, ref.NSV, ref.NBSV)
		}
		if r.NClusters != ref.Clusters || !slices.Equal(r.Sizes, ref.Sizes) || !slices.Equal(r.Labels, ref.Labels) {
			t.Errorf("%v: %d clusters of sizes %v; reference %d of %v (labels equal: %v)",
				lab, r.NClusters, r.Sizes, ref.Clusters, ref.Sizes, slices.Equal(r.Labels, ref.Labels))
		}
		mis, _, err := metrics.Misclassified(y, r.Labels)
		if err != nil {
			t.Fatal(err)
		}
		if mis != ref.Misclassified {
			t.Errorf("%v: %d misclassified, reference %d", lab, mis, ref.Misclassified)
		}
	}
}

// TestIrisSweep is the paper's §3.3 check: the divisive sweep stops at three
// clusters with at most 15 misclassified points (paper: 15 for the Gaussian
// kernel at q = 10.7).
func TestIrisSweep(t *testing.T) {
	Z, y := irisPCA2(t)
	h, err := Sweep{Clusters: 3}.Fit(context.Background(), Z)
	if err != nil {
		t.Fatal(err)
	}
	if h.Chosen < 0 {
		t.Fatalf("sweep did not reach 3 clusters: %s", h.Stop)
	}
	lv := h.Levels[h.Chosen]
	mis, _, err := metrics.Misclassified(y, lv.Labels)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("iris sweep: q = %.4g, C = %.4g (1/(NC) = %.3g), %d clusters %v, n_sv %d, n_bsv %d, %d misclassified, %d fits",
		lv.Q, lv.C, lv.P, lv.NClusters, lv.Sizes, lv.NSV, lv.NBSV, mis, h.Fits)
	if lv.NClusters != 3 || mis > 15 {
		t.Errorf("chosen level: %d clusters, %d misclassified; want 3 and ≤ 15", lv.NClusters, mis)
	}
}
