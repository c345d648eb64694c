package landmark

import (
	"context"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestISOMAPAllLandmarks: with every point a landmark, landmark MDS
// is classical MDS of the geodesic distances, so Y·Yᵀ is the ISOMAP kernel
// (ISOMAP.Gram: −½·J·G⁽²⁾·J with negative eigenvalues clipped); a training
// point given as a new point gets its own features back.
func TestISOMAPAllLandmarks(t *testing.T) {
	ctx := context.Background()
	X := treeExtPoints(90, 6)
	spec := graph.Spec{Kind: graph.KindKNN, K: 7}
	all := make([]int, 90)
	for i := range all {
		all[i] = i
	}
	l, err := newISOMAP(ctx, X, spec, all, 0)
	if err != nil {
		t.Fatal(err)
	}
	K, _, err := kernel.ISOMAP{Graph: spec}.Gram(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	Y := l.Train()
	var YY mat.Dense
	YY.Mul(Y, Y.T())
	scale := mat.Norm(K, math.Inf(1))
	// Tolerance: two eigendecompositions of the same matrix (paths summed
	// in a different order, and eigenvalues near the clipping threshold).
	if d := maxAbsDiff(&YY, K); d > 1e-8*scale {
		t.Errorf("max |YYᵀ − K_isomap| = %g (scale %g)", d, scale)
	}
	F, err := l.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	// Compared through their values against the landmarks (here every
	// point): a landmark's own features are √λ_j·v_j in closed form, a new
	// point's the triangulation, equal up to its rounding divided by √λ_j;
	// the values against landmarks have no division.
	var FY mat.Dense
	FY.Mul(F, Y.T())
	if d := maxAbsDiff(&FY, &YY); d > 1e-9*scale {
		t.Errorf("training points as new points: max |F·Yᵀ − Y·Yᵀ| = %g", d)
	}
	// Fewer landmarks: still close to the exact kernel on this smooth set.
	some := []int{0, 9, 18, 27, 36, 45, 54, 63, 72, 81}
	l2, err := newISOMAP(ctx, X, spec, some, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Rank < 2 {
		t.Errorf("10 landmarks: rank %d", l2.Rank)
	}
}
