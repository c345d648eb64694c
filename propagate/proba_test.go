package propagate

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestProbaAgainstSklearn: Proba and TransductionProba equal scikit-learn's
// predict_proba and label_distributions_ (testdata/gen_proba.py) to 1e-9
// (the Iterative method is scikit-learn's loop: the same arithmetic up to
// summation order), for LabelPropagation and LabelSpreading on the RBF
// affinity (new points' rows exp(−γ‖x − x_j‖²)) and LabelSpreading on the
// kNN affinity (the new points' 7 nearest fitted rows), also after Save and
// Load.
func TestProbaAgainstSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/proba.json")
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Distributions [][]float64
		Transduction  []int
		Proba         [][]float64
		Neighbors     [][]int32
	}
	var fx struct {
		X, New [][]float64
		Y      []int
		LPRBF  rec `json:"lp_rbf"`
		LSRBF  rec `json:"ls_rbf"`
		LSKNN  rec `json:"ls_knn"`
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	X := mat.NewDense(len(fx.X), len(fx.X[0]), nil)
	for i, r := range fx.X {
		X.SetRow(i, r)
	}
	const gamma = 0.1
	W := mat.NewDense(len(fx.New), len(fx.X), nil)
	for i, x := range fx.New {
		for j, z := range fx.X {
			d := 0.0
			for q := range x {
				d += (x[q] - z[q]) * (x[q] - z[q])
			}
			W.Set(i, j, math.Exp(-gamma*d))
		}
	}
	rbf := Affinity{Kind: RBF, Gamma: gamma}
	lp, err := Propagation{Affinity: rbf, Method: Iterative}.Fit(ctx, X, fx.Y)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := Spreading{Affinity: rbf, Alpha: 0.2, Method: Iterative}.Fit(ctx, X, fx.Y)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := Spreading{Affinity: Affinity{Kind: KNN, K: 7}, Alpha: 0.2, Method: Iterative}.Fit(ctx, X, fx.Y)
	if err != nil {
		t.Fatal(err)
	}
	var nb []int32
	for _, r := range fx.LSKNN.Neighbors {
		nb = append(nb, r...)
	}
	for _, c := range []struct {
		name  string
		m     *Model
		want  rec
		proba func(m *Model) (*mat.Dense, error)
	}{
		{"lp_rbf", lp, fx.LPRBF, func(m *Model) (*mat.Dense, error) { return m.Proba(ctx, nil, W) }},
		{"ls_rbf", ls, fx.LSRBF, func(m *Model) (*mat.Dense, error) { return m.Proba(ctx, nil, W) }},
		{"ls_knn", lk, fx.LSKNN, func(m *Model) (*mat.Dense, error) {
			return m.ProbaNeighbors(ctx, nil, append([]int32(nil), nb...), 7)
		}},
	} {
		if d := maxDiff(t, c.m.TransductionProba(), c.want.Distributions); d > 1e-9 {
			t.Errorf("%s: max |Δ label_distributions_| = %.3g", c.name, d)
		}
		P, err := c.proba(c.m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d := maxDiff(t, P, c.want.Proba); d > 1e-9 {
			t.Errorf("%s: max |Δ predict_proba| = %.3g", c.name, d)
		}
		var buf bytes.Buffer
		if err := c.m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		m2, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		P2, err := c.proba(m2)
		if err != nil || !mat.Equal(P, P2) {
			t.Errorf("%s: loaded model's probabilities differ (%v)", c.name, err)
		}
	}
}

// TestPolicyNewPoints: a new point with no affinity to a reached row is
// Unlabeled, or class 0 under UnreachableFirst; the policy is saved with
// the model and WithUnreachable overrides it; its probability row is 0.
func TestPolicyNewPoints(t *testing.T) {
	ctx := context.Background()
	// Two components: {0, 1} with labels, {2, 3} without.
	X := mat.NewDense(4, 1, []float64{0, 0.1, 100, 100.1})
	y := []int{0, 1, -1, -1}
	far := mat.NewDense(1, 4, []float64{0, 0, 1, 1}) // affinity only to the unreached rows
	for _, pol := range []string{UnreachableUnlabeled, UnreachableFirst} {
		m, err := Propagation{Affinity: Affinity{Kind: KNN, K: 1}, Unreachable: pol}.Fit(ctx, X, append([]int(nil), y...))
		if err != nil {
			t.Fatal(err)
		}
		want := -1
		if pol == UnreachableFirst {
			want = 0
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		loaded, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, mm := range []*Model{m, loaded} {
			got, err := mm.Predict(ctx, nil, far)
			if err != nil || got[0] != want {
				t.Errorf("%s: new unreachable point labelled %v (%v), want %d", pol, got, err, want)
			}
		}
		other := UnreachableFirst
		if pol == UnreachableFirst {
			other = UnreachableUnlabeled
		}
		o, err := loaded.WithUnreachable(other)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := o.Predict(ctx, nil, far); got[0] == want {
			t.Errorf("%s overridden by %s: still %d", pol, other, want)
		}
		P, err := m.Proba(ctx, nil, far)
		if err != nil || P.At(0, 0) != 0 || P.At(0, 1) != 0 {
			t.Errorf("%s: unreachable point's probabilities %v (%v), want 0", pol, P, err)
		}
	}
	if _, err := (&Model{}).WithUnreachable("error"); err == nil {
		t.Error("WithUnreachable(error): no error")
	}
}
