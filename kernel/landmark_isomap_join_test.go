package kernel

import (
	"context"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"gonum.org/v1/gonum/mat"
)

// TestLandmarkISOMAPJoined: on a 3-NN graph of three far-apart groups
// (three components) the joins of paper 000 Eq. 4 added as edges give,
// with every point a landmark, exactly ISOMAP.Gram's joined kernel; with
// ten landmarks the fit succeeds and every feature is finite.
func TestLandmarkISOMAPJoined(t *testing.T) {
	ctx := context.Background()
	base := treeExtPoints(60, 6)
	r, c := base.Dims()
	X := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			X.Set(i, j, base.At(i, j)+float64(40*(i%3))*float64(j%2)) // groups 40 apart
		}
	}
	spec := graph.Spec{Kind: graph.KindKNN, K: 3}
	g, err := graph.Build(ctx, X, spec)
	if err != nil {
		t.Fatal(err)
	}
	if nc, _ := g.Components(); nc < 2 {
		t.Fatalf("test data: %d component, want several", nc)
	}
	all := make([]int, r)
	for i := range all {
		all[i] = i
	}
	l, err := NewLandmarkISOMAP(ctx, X, spec, all, 0)
	if err != nil {
		t.Fatal(err)
	}
	K, _, err := ISOMAP{Graph: spec}.Gram(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	Y := l.Train()
	var YY mat.Dense
	YY.Mul(Y, Y.T())
	scale := mat.Norm(K, math.Inf(1))
	if d := maxAbsDiff(&YY, K); d > 1e-8*scale {
		t.Errorf("max |YYᵀ − K_isomap| = %g (scale %g)", d, scale)
	}
	l2, err := NewLandmarkISOMAP(ctx, X, spec, []int{0, 7, 14, 21, 28, 35, 42, 49, 56, 59}, 0)
	if err != nil {
		t.Fatal(err)
	}
	F, err := l2.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range F.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("10 landmarks: feature %v", v)
		}
	}
}
