package propagate

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/metrics"
)

// TestUSPSTable1 reproduces paper 002 Table 1, "LP (linear, Gaussian)":
// label propagation with the Gaussian affinity 1/(2σ²) = 0.05 on USPS/100
// (first official split, no scaling) is 80.29% accurate on the 1400
// unlabelled rows — 1124 of them, as the dense numpy harmonic solution and
// scikit-learn's LabelPropagation(gamma=0.05) also give. Both methods.
func TestUSPSTable1(t *testing.T) {
	if testing.Short() {
		t.Skip("USPS affinity matrix")
	}
	ctx := context.Background()
	d, err := dataset.Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	splits, err := dataset.EmbeddedSplits("usps", 100)
	if err != nil {
		t.Fatal(err)
	}
	semi := d.WithLabeled(splits[0])
	U := semi.UnlabeledRows()
	truth := make([]int, len(U))
	for i, r := range U {
		truth[i] = d.Y[r]
	}
	for _, m := range []string{Closed, Iterative} {
		r, err := Propagation{Affinity: Affinity{Kind: RBF, Gamma: 0.05}, Method: m}.Fit(ctx, d.X, semi.Y)
		if err != nil {
			t.Fatal(err)
		}
		pred := make([]int, len(U))
		for i, u := range U {
			pred[i] = r.Transduction()[u]
		}
		acc, _ := metrics.Accuracy(truth, pred)
		if acc != 1124.0/1400 || !r.Converged {
			t.Errorf("%s: accuracy %.4f (converged %v), want 0.8029", m, acc, r.Converged)
		}
	}
}
