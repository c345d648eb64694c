package kernel

import (
	"context"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/eigen"
	"gonum.org/v1/gonum/mat"
)

// TestLandmarkISOMAPJoined: on a 5-NN graph of three components the
// landmark ISOMAP takes its geodesics over the graph joined by paper 000
// Eq. 4 as ISOMAP.Gram joins it. With every point a landmark Y·Yᵀ is
// ISOMAP.Gram's kernel; with 24 of 120 points the features are landmark
// MDS (de Silva & Tenenbaum) of Compute's exact joined all-pairs
// geodesics, computed here from the definition.
func TestLandmarkISOMAPJoined(t *testing.T) {
	ctx := context.Background()
	const n = 120
	X := splitPoints(n, 4)
	spec := graph.Spec{Kind: graph.KindKNN, K: 5}
	ref, err := graph.Geodesics{Spec: spec, Exact: true}.Compute(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Components < 3 {
		t.Fatalf("test data: %d components", ref.Components)
	}
	all := make([]int, n)
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
		t.Errorf("every point a landmark: max |YYᵀ − K_isomap| = %g (scale %g)", d, scale)
	}
	// 24 landmarks: landmark MDS of the exact joined geodesics.
	var lm []int
	for i := 0; i < n; i += 5 {
		lm = append(lm, i)
	}
	l2, err := NewLandmarkISOMAP(ctx, X, spec, lm, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := len(lm)
	delta := mat.NewSymDense(m, nil)
	for a := 0; a < m; a++ {
		for b := a; b < m; b++ {
			v := ref.G.At(lm[a], lm[b])
			delta.SetSym(a, b, v*v)
		}
	}
	mean := make([]float64, m)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			mean[b] += delta.At(a, b) / float64(m)
		}
	}
	vals, V, err := eigen.Sym(ctx, centerSym(delta), true)
	if err != nil {
		t.Fatal(err)
	}
	// Y_ref = −½·(Δ_p − δ̄)·V_r·Λ_r^{-1/2}; compare Gram matrices (signs of
	// eigenvectors are arbitrary).
	var keep []int
	for j := m - 1; j >= 0; j-- {
		if vals[j] > float64(m)*0x1p-52*vals[m-1] {
			keep = append(keep, j)
		}
	}
	if len(keep) != l2.Rank {
		t.Fatalf("rank %d, reference %d", l2.Rank, len(keep))
	}
	Yr := mat.NewDense(n, len(keep), nil)
	for p := 0; p < n; p++ {
		for c, j := range keep {
			s := 0.0
			for a := 0; a < m; a++ {
				g := ref.G.At(p, lm[a])
				s += V.At(a, j) * (g*g - mean[a])
			}
			Yr.Set(p, c, -0.5*s/math.Sqrt(vals[j]))
		}
	}
	var A, B mat.Dense
	Y2 := l2.Train()
	A.Mul(Y2, Y2.T())
	B.Mul(Yr, Yr.T())
	bs := mat.Norm(&B, math.Inf(1))
	if d := maxAbsDiff(&A, &B); d > 1e-8*bs {
		t.Errorf("24 landmarks: max |YYᵀ − landmark MDS of the exact G| = %g (scale %g)", d, bs)
	}
}
