package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

func treeExtPoints(n int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		a := math.Pi * rng.Float64()
		if i%2 == 0 { // two moons
			X.Set(i, 0, math.Cos(a)+0.1*rng.NormFloat64())
			X.Set(i, 1, math.Sin(a)+0.1*rng.NormFloat64())
		} else {
			X.Set(i, 0, 1-math.Cos(a)+0.1*rng.NormFloat64())
			X.Set(i, 1, 0.5-math.Sin(a)+0.1*rng.NormFloat64())
		}
	}
	return X
}

var treeExtCases = []HCK{
	{Method: hclust.Single}, {Method: hclust.Complete}, {Method: hclust.Average},
	{Method: hclust.Weighted}, {Method: hclust.Ward},
	{Method: hclust.Single, Graph: &graph.Spec{Kind: graph.KindKNN, K: 5}},
	{Method: hclust.Average, Graph: &graph.Spec{Kind: graph.KindKNN, K: 5}},
	{Method: hclust.Single, Graph: &graph.Spec{Kind: graph.KindEps, Eps: 0.4}},
}

// TestTreeExtensionTrainingRows: a training point given as a new point gets
// its own row and diagonal of K back (the invariant that §3.5's linear rule
// misses), for every linkage and graph variant.
func TestTreeExtensionTrainingRows(t *testing.T) {
	ctx := context.Background()
	X := treeExtPoints(70, 1)
	for _, h := range treeExtCases {
		K, info, err := h.Gram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewTreeExtension(X, h, info.Tree, nil)
		if err != nil {
			t.Fatal(err)
		}
		Kt, err := e.Rows(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		diag, err := e.Diag(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		n := X.RawMatrix().Rows
		// Tolerance: the centring sums in a different order than Center.
		tol := 1e-12 * float64(n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if math.Abs(Kt.At(i, j)-K.At(i, j)) > tol {
					t.Fatalf("%+v: row %d col %d: %v, K %v", h, i, j, Kt.At(i, j), K.At(i, j))
				}
			}
			if math.Abs(diag[i]-K.At(i, i)) > tol {
				t.Fatalf("%+v: diag %d: %v, K %v", h, i, diag[i], K.At(i, i))
			}
		}
	}
}

// rawU returns u(x, ·) for a new point through the unexported core.
func rawU(e *TreeExtension, x []float64) []float64 {
	n := e.x.n
	u := make([]float64, n)
	e.ultrametric(x, u, make([]float64, 2*n-1), make([]float64, 2*n-1), nil)
	return u
}

// TestTreeExtensionSingleExact: for single linkage the row equals the
// single-linkage ultrametric of the new point in the dendrogram of the N+1
// points (hclust, which reproduces SciPy).
func TestTreeExtensionSingleExact(t *testing.T) {
	ctx := context.Background()
	X := treeExtPoints(50, 2)
	h := HCK{Method: hclust.Single}
	_, info, err := h.Gram(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewTreeExtension(X, h, info.Tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 10; trial++ {
		x := []float64{3*rng.Float64() - 1, 2*rng.Float64() - 0.8}
		aug := mat.NewDense(51, 2, nil)
		aug.Copy(X)
		aug.SetRow(50, x)
		tree, err := hclust.FromPoints(ctx, aug, hclust.Single)
		if err != nil {
			t.Fatal(err)
		}
		M := tree.Ultrametric(nil)
		u := rawU(e, x)
		for j := 0; j < 50; j++ {
			if u[j] != M.At(50, j) {
				t.Fatalf("trial %d col %d: %v, single linkage of N+1 points %v", trial, j, u[j], M.At(50, j))
			}
		}
	}
}

// TestTreeExtensionGraft: other linkages graft x onto its nearest training
// point: u = max(d(x, i*), M(i*, ·)); single-linkage graph kernels take the
// minimum of that over x's k nearest points. Brute force over the full M.
func TestTreeExtensionGraft(t *testing.T) {
	ctx := context.Background()
	X := treeExtPoints(60, 3)
	rng := rand.New(rand.NewPCG(5, 5))
	for _, h := range treeExtCases {
		_, info, err := h.Gram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewTreeExtension(X, h, info.Tree, nil)
		if err != nil {
			t.Fatal(err)
		}
		if h.Graph != nil && h.Graph.Kind == graph.KindEps {
			continue // covered by the training-row invariant
		}
		M := info.Tree.Ultrametric(nil)
		// Column means from the full M equal the tree's.
		for j := 0; j < 60; j++ {
			s := 0.0
			for i := 0; i < 60; i++ {
				s += M.At(i, j)
			}
			if math.Abs(s/60-e.colMean[j]) > 1e-12*max(1, s) {
				t.Fatalf("%+v: column mean %d: %v, M %v", h, j, e.colMean[j], s/60)
			}
		}
		for trial := 0; trial < 5; trial++ {
			x := []float64{3*rng.Float64() - 1, 2*rng.Float64() - 0.8}
			type cand struct {
				d float64
				i int
			}
			var cs []cand
			for i := 0; i < 60; i++ {
				cs = append(cs, cand{distance.Dist(x, X.RawRowView(i)), i})
			}
			sort.Slice(cs, func(a, b int) bool { return cs[a].d < cs[b].d || (cs[a].d == cs[b].d && cs[a].i < cs[b].i) })
			s := 1
			switch {
			case h.Method != hclust.Single:
			case h.Graph == nil:
				s = 60
			default:
				s = h.Graph.K
			}
			u := rawU(e, x)
			for j := 0; j < 60; j++ {
				want := math.Inf(1)
				for _, c := range cs[:s] {
					want = min(want, max(c.d, M.At(c.i, j)))
				}
				if u[j] != want {
					t.Fatalf("%+v trial %d col %d: %v, want %v", h, trial, j, u[j], want)
				}
			}
		}
	}
}
