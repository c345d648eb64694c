package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestISOMAPJoined: on a 5-NN graph of three components the
// landmark ISOMAP takes its geodesics over the graph joined by paper 000
// Eq. 4 as ISOMAP.Gram joins it. With every point a landmark Y·Yᵀ is
// ISOMAP.Gram's kernel; with 24 of 120 points the features are landmark
// MDS (de Silva & Tenenbaum) of Compute's exact joined all-pairs
// geodesics, computed here from the definition.
func TestISOMAPJoined(t *testing.T) {
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
	if d := maxAbsDiff(&YY, K); d > 1e-8*scale {
		t.Errorf("every point a landmark: max |YYᵀ − K_isomap| = %g (scale %g)", d, scale)
	}
	// 24 landmarks: landmark MDS of the exact joined geodesics.
	var lm []int
	for i := 0; i < n; i += 5 {
		lm = append(lm, i)
	}
	l2, err := newISOMAP(ctx, X, spec, lm, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := len(lm)
	mean, vals, V, keep := lmdsReference(t, m, 0x1p-52, func(a, b int) float64 { return ref.G.At(lm[a], lm[b]) })
	// Y_ref = −½·(Δ_p − δ̄)·V_r·Λ_r^{-1/2}; compare Gram matrices (signs of
	// eigenvectors are arbitrary).
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

// TestISOMAPSmallEigenvalues: on 20 groups of a 5-NN graph, joined
// by paper 000 Eq. 4 (each join about doubles the largest geodesic), the
// structure inside the groups lies at 10⁻⁸ and below of B's largest
// eigenvalue. A value between any row p and a landmark c is then
// Σ_j v_j(c)·(−½·v_jᵀ(δ_p − δ̄)) over the kept eigenvectors — no division
// by √λ_j — and the features must give it to the rounding of that sum:
// a landmark's features computed by the triangulation instead of
// √λ_j·v_j(c) carry ε·‖δ‖/√λ_j, which along the small eigenvalues is
// larger than the within-group values themselves.
func TestISOMAPSmallEigenvalues(t *testing.T) {
	ctx := context.Background()
	const groups, per = 20, 15
	n := groups * per
	rng := rand.New(rand.NewPCG(5, 9))
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		g := float64(i % groups)
		X.Set(i, 0, 25*g+rng.NormFloat64())
		X.Set(i, 1, rng.NormFloat64())
	}
	spec := graph.Spec{Kind: graph.KindKNN, K: 5}
	ref, err := graph.Geodesics{Spec: spec, Exact: true}.Compute(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Components < groups {
		t.Fatalf("test data: %d components, want %d", ref.Components, groups)
	}
	var lm []int
	for i := 0; i < n; i += 3 {
		lm = append(lm, i)
	}
	const rcond = 1e-13
	l, err := newISOMAP(ctx, X, spec, lm, rcond)
	if err != nil {
		t.Fatal(err)
	}
	// The map's own geodesics (Compute's agree to rounding, which the
	// eigenvectors of the small eigenvalues would amplify): the same Δ and
	// δ_p as the map, so what is compared is the features' formula.
	m := len(lm)
	if d := maxAbsDiff(l.geo, landmarkBlock(ref.G, lm)); d > 1e-9*mat.Max(l.geo) {
		t.Fatalf("the map's geodesics differ from Compute's by %g", d)
	}
	mean, vals, V, keep := lmdsReference(t, m, rcond, func(a, b int) float64 { return 0.5 * (l.geo.At(a, lm[b]) + l.geo.At(b, lm[a])) })
	if len(keep) != l.Rank {
		t.Fatalf("rank %d, reference %d", l.Rank, len(keep))
	}
	if small := vals[keep[len(keep)-1]] / vals[m-1]; small > 1e-8 {
		t.Fatalf("test data: smallest kept eigenvalue %g of λ_max, want the small-eigenvalue regime (< 1e-8)", small)
	}
	Y := l.Train()
	worst, scale := 0.0, 0.0
	proj := make([]float64, len(keep))
	for p := 0; p < n; p++ {
		for c, j := range keep {
			s := 0.0
			// Hδ: the eigenvectors are orthogonal to 1 only up to
			// rounding, and δ_p − δ̄ has a large constant part.
			mu := 0.0
			for a := 0; a < m; a++ {
				g := l.geo.At(a, p)
				mu += (g*g - mean[a]) / float64(m)
			}
			for a := 0; a < m; a++ {
				g := l.geo.At(a, p)
				s += V.At(a, j) * (g*g - mean[a] - mu)
			}
			proj[c] = -0.5 * s
		}
		for ci, a := range lm {
			want := 0.0
			for c, j := range keep {
				want += proj[c] * V.At(ci, j)
			}
			got := mat.Dot(Y.RowView(p), Y.RowView(a))
			worst = max(worst, math.Abs(got-want))
			scale = max(scale, math.Abs(want))
		}
	}
	// Within-group values are about 1e-8 of scale: 1e-12 keeps them to
	// four digits (uncentred rows were off by 1e-3 of scale).
	if worst > 1e-12*scale {
		t.Errorf("max |y_p·y_c − Σ_j v_j(c)·(−½ v_jᵀ(δ_p − δ̄))| = %g, scale %g (relative %g)", worst, scale, worst/scale)
	}
}

// landmarkBlock returns the M×N rows lm of G.
func landmarkBlock(G mat.Matrix, lm []int) *mat.Dense {
	_, n := G.Dims()
	out := mat.NewDense(len(lm), n, nil)
	for a, r := range lm {
		for p := 0; p < n; p++ {
			out.Set(a, p, G.At(r, p))
		}
	}
	return out
}

// lmdsReference is landmark MDS's reference factorisation from its
// definition: Δ (m×m, entries g(a, b)²), the means of its columns δ̄, the
// eigendecomposition of −½·H·Δ·H, and the eigenvectors kept (descending)
// above rcond·λ_max.
func lmdsReference(t *testing.T, m int, rcond float64, g func(a, b int) float64) ([]float64, []float64, *mat.Dense, []int) {
	t.Helper()
	delta := mat.NewSymDense(m, nil)
	for a := 0; a < m; a++ {
		for b := a; b < m; b++ {
			v := g(a, b)
			delta.SetSym(a, b, v*v)
		}
	}
	mean := make([]float64, m)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			mean[b] += delta.At(a, b) / float64(m)
		}
	}
	vals, V, err := eigen.Sym(context.Background(), centerSym(delta), true)
	if err != nil {
		t.Fatal(err)
	}
	var keep []int
	for j := m - 1; j >= 0; j-- {
		if vals[j] > rcond*vals[m-1] {
			keep = append(keep, j)
		}
	}
	return mean, vals, V, keep
}
