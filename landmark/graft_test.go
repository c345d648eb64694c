package landmark

import (
	"context"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestGraftFeatures: the O(r)-per-point features of a grafting landmark
// tree rule equal the definition, the tree rule's kernel rows times
// W = U_r·Λ_r^{-1/2} (Rows · W), for every non-single linkage, Euclidean
// and graph trees, on new points, on the training rows (landmarks among
// them: δ = 0) and on points duplicating a landmark. Tolerance: the two
// sums group M terms of size ≤ max|u|·max|W| differently, 1e-9 relative to
// the largest feature.
func TestGraftFeatures(t *testing.T) {
	ctx := context.Background()
	X := randPoints(300, 4, 3)
	// Rows 7 and 8 duplicate rows 1 and 2 (ties of the nearest landmark).
	X.SetRow(7, X.RawRowView(1))
	X.SetRow(8, X.RawRowView(2))
	lm := []int{1, 2, 5, 9, 11, 20, 33, 40, 41, 57, 63, 70, 88, 99, 101, 120, 150, 151, 199, 230, 250, 299}
	Xt := randPoints(200, 4, 4)
	Xt.Scale(1.5, Xt)
	g := graph.Spec{Kind: graph.KindKNN, K: 5}
	for _, h := range []kernel.HCK{
		{Method: hclust.Average}, {Method: hclust.Complete}, {Method: hclust.Ward}, {Method: hclust.Weighted},
		{Method: hclust.Average, Graph: &g},
	} {
		ny, err := newNystromHCK(ctx, X, h, lm, 0)
		if err != nil {
			t.Fatal(err)
		}
		if ny.graft == nil {
			t.Fatalf("%v: no graft map", h.Method)
		}
		for _, pts := range []*mat.Dense{X, Xt} {
			Z, err := ny.Features(ctx, pts)
			if err != nil {
				t.Fatal(err)
			}
			R, err := ny.Rows(ctx, pts)
			if err != nil {
				t.Fatal(err)
			}
			var want mat.Dense
			want.Mul(R, ny.w)
			scale := mat.Norm(&want, math.Inf(1))
			if d := maxAbsDiff(Z, &want); d > 1e-9*scale {
				t.Errorf("%v graph=%v: max |Z − Rows·W| = %g (scale %g)", h.Method, h.Graph != nil, d, scale)
			}
		}
	}
	// Single linkage is exact over all landmarks: no graft map.
	ny, err := newNystromHCK(ctx, X, kernel.HCK{Method: hclust.Single}, lm, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ny.graft != nil {
		t.Error("single linkage: graft map made")
	}
}
