package svcluster

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// crossKernel returns K(A_i, B_j) for the paper's kernels.
func crossKernel(kind KernelKind, q float64, A, B *mat.Dense) *mat.Dense {
	ra, _ := A.Dims()
	rb, _ := B.Dims()
	K := mat.NewDense(ra, rb, nil)
	for i := 0; i < ra; i++ {
		for j := 0; j < rb; j++ {
			K.Set(i, j, kind.eval(q, distance.SqDist(A.RawRowView(i), B.RawRowView(j))))
		}
	}
	return K
}

func gridPoints() *mat.Dense {
	var v []float64
	for a := -3.0; a <= 15; a += 1.5 {
		for b := -3.0; b <= 15; b += 1.5 {
			v = append(v, a, b)
		}
	}
	return mat.NewDense(len(v)/2, 2, v)
}

// TestModelContract: the model of a fitted clustering predicts, from kernel
// rows alone, what the point path gives: R²(x) equal to Clustering.Dist2,
// training rows get their own cluster, new points the cluster of their
// Euclidean-nearest non-outlier row (the kernels are monotone in distance),
// and save → load → predict is identical.
func TestModelContract(t *testing.T) {
	ctx := context.Background()
	X, _ := fourBlobs(200, 1)
	G := gridPoints()
	for _, kind := range []KernelKind{Gaussian, Exponential} {
		for _, unassigned := range []bool{false, true} {
			c := Clusterer{Q: 1, C: 1 / (200 * 0.2), Kernel: kind, Unassigned: unassigned}
			cl, err := c.Fit(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			m := cl.Model()
			if len(cl.BSV) == 0 {
				t.Fatalf("%v: want outliers at 1/(NC) = 0.2", kind)
			}
			if got := m.Classes(); len(got) != cl.NClusters || got[len(got)-1] != cl.NClusters-1 {
				t.Errorf("Classes %v for %d clusters", got, cl.NClusters)
			}
			if !slices.Equal(m.Transduction(), cl.Labels) {
				t.Errorf("Transduction differs from Labels")
			}
			x, _, _, _ := rowMajor(X)
			K := crossKernel(kind, 1, X, X)
			p, err := m.Predict(ctx, nil, K)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range p {
				want := cl.Labels[i]
				if want == Noise { // unassigned outlier: Predict assigns it as Fit would
					want = cl.Labels[m.Inside[nearestRow(x, 2, i, m.Inside)]]
				}
				if l != want {
					t.Fatalf("%v unassigned=%v: training row %d predicted %d, label %d", kind, unassigned, i, l, cl.Labels[i])
				}
			}
			Kg := crossKernel(kind, 1, G, X)
			pg, err := m.Predict(ctx, nil, Kg)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := m.Dist2(ctx, nil, Kg, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := m.Outlier(ctx, nil, Kg, nil)
			if err != nil {
				t.Fatal(err)
			}
			gn, _ := G.Dims()
			nOut := 0
			for r := 0; r < gn; r++ {
				ref := cl.Dist2(G.RawRowView(r))
				if math.Abs(d2[r]-ref) > 1e-12 {
					t.Fatalf("grid %d: Dist2 from kernel row %v, from point %v", r, d2[r], ref)
				}
				if out[r] != (ref > cl.R2+1e-9*max(1, cl.R2)) {
					t.Errorf("grid %d: Outlier %v with R²(x) = %v, R² = %v", r, out[r], ref, cl.R2)
				}
				if out[r] {
					nOut++
				}
				// Reference: Euclidean-nearest non-outlier row.
				xr := append(append([]float64(nil), x...), G.RawRowView(r)...)
				near := m.Inside[nearestRow(xr, 2, 200, m.Inside)]
				if pg[r] != cl.Labels[near] {
					t.Errorf("grid %d: predicted %d, nearest non-outlier row %d has %d", r, pg[r], near, cl.Labels[near])
				}
			}
			if nOut == 0 || nOut == gn {
				t.Errorf("grid: %d of %d outside; want both kinds", nOut, gn)
			}
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			m2, err := Load(&buf)
			if err != nil {
				t.Fatal(err)
			}
			p2, err := m2.Predict(ctx, nil, Kg)
			if err != nil {
				t.Fatal(err)
			}
			d22, _ := m2.Dist2(ctx, nil, Kg, nil)
			if !slices.Equal(p2, pg) || !slices.Equal(d22, d2) || !slices.Equal(m2.Transduction(), m.Transduction()) {
				t.Errorf("%v: save → load → predict differs", kind)
			}
		}
	}
}

func TestModelBadInput(t *testing.T) {
	ctx := context.Background()
	X, _ := fourBlobs(40, 1)
	m, err := Clusterer{Q: 1, C: 1}.FitModel(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(ctx, nil, mat.NewDense(2, 3, nil)); !errors.Is(err, ErrBadParam) {
		t.Errorf("wrong columns: %v", err)
	}
	bad := mat.NewDense(1, 40, nil)
	bad.Set(0, 7, math.NaN())
	if _, err := m.Predict(ctx, nil, bad); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	if _, err := m.PredictDiag(ctx, nil, mat.NewDense(2, 40, nil), []float64{1}); !errors.Is(err, ErrBadParam) {
		t.Errorf("diag length: %v", err)
	}
	// A model whose training diagonal is not all 1 needs k(x, x).
	md := *m
	md.TrainDiag = slices.Repeat([]float64{1}, 40)
	Kt := crossKernel(Gaussian, 1, X, X)
	if _, err := md.Predict(ctx, nil, Kt); !errors.Is(err, ErrNeedDiag) {
		t.Errorf("TrainDiag set: %v", err)
	}
	want, _ := m.Predict(ctx, nil, Kt)
	if got, err := md.PredictDiag(ctx, nil, Kt, slices.Repeat([]float64{1}, 40)); err != nil || !slices.Equal(got, want) {
		t.Errorf("PredictDiag with unit diagonals differs from Predict (%v)", err)
	}
	for _, s := range []string{`{}`, `{"format":"arbor-knn","version":1}`, `{"format":"arbor-svcluster","version":2}`, `not json`,
		`{"format":"arbor-svcluster","version":1,"kernel":"gaussian","labels":[0,5],"n_clusters":1,"beta":[1,0],"inside":[0,1]}`} {
		if _, err := Load(strings.NewReader(s)); !errors.Is(err, ErrFormat) {
			t.Errorf("Load(%s): %v", s, err)
		}
	}
}
