package propagate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAnchorProba: the anchor graph's probabilities of new points are the
// closed form on the dense anchor weights (denseAnchorZ2, independent of
// the k-d tree): scores Z_x A / λ, clipped at 0, divided by their sum (to
// 1e-12: the same sums in another order); each row sums to 1 and its
// largest entry is Predict's class; and they do not depend on the block of
// rows asked for at once.
func TestAnchorProba(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	n, d := 120, 2
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		c := i % 3
		X.Set(i, 0, float64(c)*1.2+rng.NormFloat64()*0.7)
		X.Set(i, 1, rng.NormFloat64()*0.7)
		y[i] = -1
		if i < 15 {
			y[i] = c
		}
	}
	Xt := mat.NewDense(50, d, nil)
	for i := range 50 {
		Xt.Set(i, 0, rng.Float64()*3.6-0.6)
		Xt.Set(i, 1, rng.NormFloat64()*0.7)
	}
	m := 30
	anchors := mat.NewDense(m, d, nil)
	for r := range m {
		anchors.SetRow(r, X.RawRowView(4*r))
	}
	for _, s := range []int{2, 3, 5} {
		am, err := AnchorGraph{S: s}.Fit(ctx, X, anchors, y)
		if err != nil {
			t.Fatal(err)
		}
		P, err := am.Proba(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		labels, err := am.Predict(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		var F mat.Dense
		F.Mul(denseAnchorZ2(Xt, X, anchors, s), am.a)
		negative := 0
		for i := range 50 {
			want := make([]float64, 3)
			sum := 0.0
			for j := range 3 {
				v := F.At(i, j) / am.lambda[j]
				if v < 0 {
					negative++
				}
				want[j] = math.Max(v, 0)
				sum += want[j]
			}
			total, best := 0.0, 0
			for j := range 3 {
				if d := math.Abs(P.At(i, j) - want[j]/sum); d > 1e-12 {
					t.Errorf("S=%d row %d class %d: P = %v, closed form %v", s, i, j, P.At(i, j), want[j]/sum)
				}
				total += P.At(i, j)
				if P.At(i, j) > P.At(i, best) {
					best = j
				}
			}
			if math.Abs(total-1) > 1e-12 || best != labels[i] {
				t.Errorf("S=%d row %d: P %v sums to %v, label %d", s, i, mat.Row(nil, i, P), total, labels[i])
			}
		}
		t.Logf("S=%d: %d negative scores clipped", s, negative)
		// Row by row gives the same numbers.
		for i := range 50 {
			Pi, err := am.Proba(ctx, nil, mat.NewDense(1, d, mat.Row(nil, i, Xt)))
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(Pi, P.Slice(i, i+1, 0, 3)) {
				t.Fatalf("S=%d row %d alone: %v, in the block %v", s, i, mat.Row(nil, 0, Pi), mat.Row(nil, i, P))
			}
		}
	}
}
