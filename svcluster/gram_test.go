package svcluster

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

func gramOf(k kernel.Kernel, X *mat.Dense) *mat.SymDense {
	n, _ := X.Dims()
	K := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			K.SetSym(i, j, k.Eval(X.RawRowView(i), X.RawRowView(j)))
		}
	}
	return K
}

// TestFitGramAgreesWithFit: cone labelling from the kernel matrix alone
// gives the clusters Fit gives from the points (Labelling: Cone), on data
// where Fit finds several clusters, with and without outliers, both kernels;
// and the model predicts its transduction from the training kernel rows
// and survives save → load.
func TestFitGramAgreesWithFit(t *testing.T) {
	ctx := context.Background()
	X, _ := fourBlobs(200, 1)
	X2, _ := fourBlobs(300, 2)
	for _, tc := range []struct {
		X    *mat.Dense
		kind KernelKind
		q, p float64
		un   bool
	}{
		{X, Gaussian, 1, 0.2, false}, {X, Gaussian, 1, 0.2, true}, {X, Gaussian, 0.5, 0, false},
		{X, Exponential, 1, 0.2, false}, {X2, Exponential, 0.5, 0.1, true}, {X2, Gaussian, 2, 0.1, false},
	} {
		n, _ := tc.X.Dims()
		C := 1.0
		if tc.p > 0 {
			C = 1 / (float64(n) * tc.p)
		}
		c := Clusterer{Q: tc.q, C: C, Kernel: tc.kind, Labelling: Cone, Unassigned: tc.un}
		ref, err := c.Fit(ctx, tc.X)
		if err != nil {
			t.Fatal(err)
		}
		var k kernel.Kernel = kernel.RBF{Gamma: tc.q}
		if tc.kind == Exponential {
			k = kernel.Exponential{Gamma: tc.q}
		}
		K := gramOf(k, tc.X)
		m, err := c.FitGram(ctx, K)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v q=%g p=%g: %d clusters, n_sv %d, n_bsv %d", tc.kind, tc.q, tc.p, ref.NClusters, ref.NSV, ref.NBSV)
		if ref.NClusters < 2 {
			t.Errorf("%v q=%g: want several clusters to compare, got %d", tc.kind, tc.q, ref.NClusters)
		}
		if !slices.Equal(m.Labels, ref.Labels) || m.NClusters != ref.NClusters {
			t.Errorf("%v q=%g p=%g: FitGram labels differ from Fit's (%d vs %d clusters)", tc.kind, tc.q, tc.p, m.NClusters, ref.NClusters)
		}
		if !slices.Equal(m.Inside, insideRows(n, ref.BSV)) {
			t.Errorf("outliers differ")
		}
		p, err := m.Predict(ctx, nil, K)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range p {
			if m.Labels[i] != Noise && l != m.Labels[i] {
				t.Fatalf("training row %d predicted %d, transduction %d", i, l, m.Labels[i])
			}
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		m2, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		p2, err := m2.Predict(ctx, nil, K)
		if err != nil || !slices.Equal(p2, p) || !m2.Gram {
			t.Errorf("save → load → predict differs (%v)", err)
		}
	}
}

func TestFitGramBadInput(t *testing.T) {
	ctx := context.Background()
	X, _ := fourBlobs(20, 1)
	K := gramOf(kernel.RBF{Gamma: 1}, X)
	if _, err := (Clusterer{C: 1}).FitGram(ctx, K); !errors.Is(err, ErrBadLabelling) {
		t.Errorf("default labelling: %v", err)
	}
	c := Clusterer{C: 1, Labelling: Cone}
	if _, err := (Clusterer{C: 0.001, Labelling: Cone}).FitGram(ctx, K); !errors.Is(err, ErrBadC) {
		t.Errorf("C: %v", err)
	}
	bad := mat.NewSymDense(20, nil)
	bad.CopySym(K)
	bad.SetSym(3, 3, 2)
	if _, err := c.FitGram(ctx, bad); !errors.Is(err, ErrBadParam) {
		t.Errorf("diagonal 2: %v", err)
	}
	bad.SetSym(3, 3, 1)
	bad.SetSym(3, 4, -0.5)
	if _, err := c.FitGram(ctx, bad); err == nil {
		t.Errorf("negative entry accepted")
	}
	if _, err := c.FitGram(ctx, mat.NewSymDense(1, []float64{1})); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("1 row: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.FitGram(cctx, K); err == nil {
		t.Errorf("cancelled context accepted")
	}
}
