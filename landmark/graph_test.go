package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// splitPoints returns n points in 2-D in three groups far apart (a 5-NN
// graph of several components), each group stretched differently.
func splitPoints(n int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 3))
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		g := float64(i % 3)
		X.Set(i, 0, 30*g+(1+g)*rng.NormFloat64())
		X.Set(i, 1, 20*g*g+rng.NormFloat64())
	}
	return X
}

// graphHCKReference computes the landmark graph kernel's rows by its
// definition from the exact joined geodesics of all rows (Compute's N×N G):
// the tree of the landmark block of G, and for each point with geodesic
// distances g to the landmarks the graft onto the nearest (or, single
// linkage, min over landmarks of max(g_l, M(l, ·))), centred.
//
// Single linkage: the tree is that of ALL rows (single linkage of G), the
// landmark block its restriction, and a training row (train true: dists[p]
// belongs to row p) has its exact ultrametric row.
func graphHCKReference(t *testing.T, method hclust.Method, G *mat.SymDense, lm []int, dists [][]float64, train bool) *mat.Dense {
	t.Helper()
	m := len(lm)
	S := mat.NewSymDense(m, nil)
	var Ufull *mat.SymDense
	if method == hclust.Single {
		full, err := hclust.Linkage(context.Background(), distance.FromSymmetric(G), method)
		if err != nil {
			t.Fatal(err)
		}
		Ufull = full.Ultrametric(nil)
	}
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			if Ufull != nil {
				S.SetSym(a, b, Ufull.At(lm[a], lm[b]))
			} else {
				S.SetSym(a, b, G.At(lm[a], lm[b]))
			}
		}
	}
	tree, err := hclust.Linkage(context.Background(), distance.FromSymmetric(S), method)
	if err != nil {
		t.Fatal(err)
	}
	U := tree.Ultrametric(nil)
	col := make([]float64, m)
	grand := 0.0
	for j := 0; j < m; j++ {
		for i := 0; i < m; i++ {
			col[j] += U.At(i, j) / float64(m)
		}
		grand += col[j] / float64(m)
	}
	out := mat.NewDense(len(dists), m, nil)
	u := make([]float64, m)
	for p, g := range dists {
		if Ufull != nil && train {
			for j := 0; j < m; j++ {
				u[j] = Ufull.At(p, lm[j])
			}
		} else if method == hclust.Single {
			for j := 0; j < m; j++ {
				u[j] = math.Inf(1)
				for l := 0; l < m; l++ {
					u[j] = min(u[j], max(g[l], U.At(l, j)))
				}
			}
		} else {
			s := 0
			for l := range g {
				if g[l] < g[s] {
					s = l
				}
			}
			for j := 0; j < m; j++ {
				u[j] = max(g[s], U.At(s, j))
			}
		}
		mean := 0.0
		for _, v := range u {
			mean += v / float64(m)
		}
		for j := 0; j < m; j++ {
			out.Set(p, j, -0.5*(u[j]-mean-col[j]+grand))
		}
	}
	return out
}

// TestNystromGraphHCK: on a 5-NN graph of three components, the landmark
// graph kernel with 24 of 120 rows as landmarks has the rows its definition
// gives from Compute's exact joined all-pairs geodesics (Eq. 4) — for the
// training rows (their own geodesics; single linkage: their exact rows of
// the tree of all rows) and for new points (through their 5 nearest
// training rows) — and Z = K(·, L)·W; with every row a landmark Z·Zᵀ is
// HCK.Gram's exact kernel.
func TestNystromGraphHCK(t *testing.T) {
	// the tree on the landmarks alone (above GraphCellsAllRowsMaxN rows)
	graphCellsLimit = 0
	t.Cleanup(func() { graphCellsLimit = GraphCellsAllRowsMaxN })
	ctx := context.Background()
	const n, k = 120, 5
	X := splitPoints(n, 1)
	spec := graph.Spec{Kind: graph.KindKNN, K: k}
	ref, err := graph.Geodesics{Spec: spec, Exact: true}.Compute(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Components < 3 {
		t.Fatalf("test data: %d components", ref.Components)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	Xt := mat.NewDense(30, 2, nil)
	for i := 0; i < 30; i++ {
		Xt.Set(i, 0, X.At(4*i, 0)+0.3*rng.NormFloat64())
		Xt.Set(i, 1, X.At(4*i, 1)+0.3*rng.NormFloat64())
	}
	var lm []int
	for i := 0; i < n; i += 5 {
		lm = append(lm, i)
	}
	for _, method := range []hclust.Method{hclust.Average, hclust.Complete, hclust.Single} {
		h := kernel.HCK{Method: method, Graph: &spec}
		ny, Z, err := newNystromGraph(ctx, X, h, lm, 0)
		if err != nil {
			t.Fatal(err)
		}
		if ny.Joins() != ref.Joins {
			t.Errorf("%v: %d joins, Compute %d", method, ny.Joins(), ref.Joins)
		}
		// Training rows: their geodesics to the landmarks.
		train := make([][]float64, n)
		for p := range train {
			train[p] = make([]float64, len(lm))
			for a, l := range lm {
				train[p][a] = ref.G.At(p, l)
			}
		}
		want := graphHCKReference(t, method, ref.G, lm, train, true)
		scale := mat.Norm(want, math.Inf(1))
		var ZW mat.Dense
		ZW.Mul(want, ny.Projection())
		if d := maxAbsDiff(Z, &ZW); d > 1e-9*scale {
			t.Errorf("%v: training features: max |Z − K(·,L)·W| = %g (scale %g)", method, d, scale)
		}
		R, err := ny.Rows(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		// As new points they take the new-point rule (single linkage: the
		// min-max over the landmarks, not their exact row of the full tree).
		wantNew := graphHCKReference(t, method, ref.G, lm, train, false)
		if d := maxAbsDiff(R, wantNew); d > 1e-9*scale {
			t.Errorf("%v: training rows as new points: max diff %g", method, d)
		}
		// New points: geodesics through their k nearest training rows.
		nw := make([][]float64, 30)
		for i := range nw {
			x := Xt.RawRowView(i)
			idx := make([]int, n)
			for p := range idx {
				idx[p] = p
			}
			d2 := func(p int) float64 { return distance.SqDist(x, X.RawRowView(p)) }
			sort.SliceStable(idx, func(a, b int) bool { return d2(idx[a]) < d2(idx[b]) })
			nw[i] = make([]float64, len(lm))
			for a, l := range lm {
				g := math.Inf(1)
				for _, p := range idx[:k] {
					g = min(g, math.Sqrt(d2(p))+ref.G.At(p, l))
				}
				nw[i][a] = g
			}
		}
		wantT := graphHCKReference(t, method, ref.G, lm, nw, false)
		Rt, err := ny.Rows(ctx, Xt)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(Rt, wantT); d > 1e-9*scale {
			t.Errorf("%v: new points' rows: max diff %g (scale %g)", method, d, scale)
		}
		Ft, err := ny.Features(ctx, Xt)
		if err != nil {
			t.Fatal(err)
		}
		var ZWt mat.Dense
		ZWt.Mul(wantT, ny.Projection())
		if d := maxAbsDiff(Ft, &ZWt); d > 1e-9*scale {
			t.Errorf("%v: new points' features: max diff %g", method, d)
		}
		// Every row a landmark: the exact kernel.
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		_, Za, err := newNystromGraph(ctx, X, h, all, 0)
		if err != nil {
			t.Fatal(err)
		}
		K, _, err := h.Gram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		var ZZ mat.Dense
		ZZ.Mul(Za, Za.T())
		ks := mat.Norm(K, math.Inf(1))
		if d := maxAbsDiff(&ZZ, K); d > 1e-8*ks {
			t.Errorf("%v: every row a landmark: max |ZZᵀ − K| = %g (scale %g)", method, d, ks)
		}
	}
}
