package propagate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAnchorUnreachable: with S = 1 every row is tied to its nearest anchor
// alone, so the rows of the anchor at 5.1 (rows 3–5) form a component of
// the anchor graph without a label. Both anchor learners then follow the
// Unreachable policy as the exact ones do: ErrUnreachable by default,
// learner.Unlabeled (−1) or class 0 with a warning, and the rows listed.
func TestAnchorUnreachable(t *testing.T) {
	X := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	anchors := mat.NewDense(2, 1, []float64{0.1, 5.1})
	y := []int{0, -1, 1, -1, -1, -1}
	fits := map[string]func(policy string) (*AnchorModel, error){
		"propagation": func(p string) (*AnchorModel, error) {
			return AnchorGraph{S: 1, Unreachable: p}.Fit(context.Background(), X, anchors, y)
		},
		"spreading": func(p string) (*AnchorModel, error) {
			return AnchorSpreading{S: 1, Unreachable: p}.Fit(context.Background(), X, anchors, y)
		},
	}
	for name, fit := range fits {
		if _, err := fit(""); !errors.Is(err, ErrUnreachable) {
			t.Errorf("%s, default policy: %v, want ErrUnreachable", name, err)
		}
		for policy, want := range map[string]int{UnreachableUnlabeled: -1, UnreachableFirst: 0} {
			m, err := fit(policy)
			if err != nil {
				t.Fatalf("%s %s: %v", name, policy, err)
			}
			tr := m.Transduction()
			if fmt.Sprint(m.Unreachable) != "[3 4 5]" || len(m.Warnings) != 1 || !errors.Is(m.Warnings[0], ErrUnreachable) {
				t.Errorf("%s %s: Unreachable %v, warnings %v", name, policy, m.Unreachable, m.Warnings)
			}
			for _, i := range []int{3, 4, 5} {
				if tr[i] != want {
					t.Errorf("%s %s: row %d labelled %d, want %d", name, policy, i, tr[i], want)
				}
			}
			if tr[0] != 0 || tr[2] != 1 {
				t.Errorf("%s %s: labelled rows relabelled: %v", name, policy, tr)
			}
			// New points: one by the labelled anchor gets a class, one by
			// the unlabelled anchor is learner.Unlabeled, as Model.Predict
			// leaves a point with all-zero scores (it used to be class 0).
			got, err := m.Predict(context.Background(), nil, mat.NewDense(2, 1, []float64{0.05, 5.05}))
			if err != nil {
				t.Fatal(err)
			}
			if got[0] < 0 || got[1] != -1 {
				t.Errorf("%s %s: new points labelled %v, want [class, -1]", name, policy, got)
			}
		}
	}
	if err := (AnchorGraph{Unreachable: "drop"}).Validate(); !errors.Is(err, ErrBadParam) {
		t.Errorf("unknown policy: %v, want ErrBadParam", err)
	}
	if err := (AnchorSpreading{Sigma: -1}).Validate(); !errors.Is(err, ErrBadParam) {
		t.Errorf("Sigma −1: %v, want ErrBadParam", err)
	}
}

// TestKNNRadius: the mean over the rows of the distance to the k-th
// nearest row (the row itself the first) equals the definition by sorting
// all distances, for n below the sample size (all rows used), with
// duplicated rows; above it, the evenly spaced sample rows.
func TestKNNRadius(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	for _, n := range []int{50, 2600} {
		d := 3
		X := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				X.Set(i, j, math.Round(4*rng.NormFloat64())/4) // ties and duplicates
			}
		}
		for _, k := range []int{1, 2, 7} {
			got, err := KNNRadius(context.Background(), X, k)
			if err != nil {
				t.Fatal(err)
			}
			q := min(n, 2000)
			want := 0.0
			for a := 0; a < q; a++ {
				i := a * n / q
				ds := make([]float64, n)
				for j := 0; j < n; j++ {
					for c := 0; c < d; c++ {
						u := X.At(i, c) - X.At(j, c)
						ds[j] += u * u
					}
				}
				sort.Float64s(ds)
				want += math.Sqrt(ds[k-1])
			}
			want /= float64(q)
			if math.Abs(got-want) > 1e-12*want+1e-15 {
				t.Errorf("n %d k %d: %v, want %v", n, k, got, want)
			}
			if k == 1 && got != 0 {
				t.Errorf("k = 1: %v, want 0 (the row itself)", got)
			}
		}
	}
	if _, err := KNNRadius(context.Background(), mat.NewDense(3, 1, nil), 4); !errors.Is(err, ErrBadParam) {
		t.Errorf("k > n: %v, want ErrBadParam", err)
	}
}
