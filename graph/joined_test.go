package graph

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// clusters returns n points in d dimensions around c well separated
// centres (several components of a small kNN graph), each cluster a
// stretched Gaussian so that the components' diameters differ.
func clusters(n, d, c int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		k := i % c
		for j := 0; j < d; j++ {
			s := 1.0
			if j == k%d {
				s = float64(1 + k) // stretched along one axis
			}
			X.Set(i, j, 60*float64(k)*float64((j+k)%2)+s*rng.NormFloat64())
		}
	}
	return X
}

// TestJoinedDistancesFromEqualsCompute: the paths from a few sources (and
// from every node) in the joined graph equal the rows of Compute's joined
// all-pairs G (paper 000 Eq. 4) to rounding, with the same join edges and
// lengths: g_max is exact although only a few sources' paths are known.
func TestJoinedDistancesFromEqualsCompute(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, d, c, k int
		seed       uint64
	}{{240, 3, 4, 4, 1}, {300, 2, 6, 3, 2}, {150, 5, 3, 5, 3}} {
		X := clusters(tc.n, tc.d, tc.c, tc.seed)
		spec := Spec{Kind: KindKNN, K: tc.k}
		ref, err := Geodesics{Spec: spec, Exact: true}.Compute(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		if ref.Components < 3 {
			t.Fatalf("test data %+v: %d components, want several", tc, ref.Components)
		}
		g, err := Build(ctx, X, spec)
		if err != nil {
			t.Fatal(err)
		}
		all := make([]int, tc.n)
		for i := range all {
			all[i] = i
		}
		for _, src := range [][]int{{0, 5}, {tc.n - 1}, {3, 17, 40, 41, 99}, all} {
			j, err := JoinedDistancesFrom(ctx, g, X.RawMatrix().Data, tc.d, src)
			if err != nil {
				t.Fatal(err)
			}
			if j.Components != ref.Components || len(j.JoinEdges) != len(ref.JoinEdges) {
				t.Fatalf("%+v sources %d: %d components %d joins, Compute %d %d", tc, len(src), j.Components, len(j.JoinEdges), ref.Components, len(ref.JoinEdges))
			}
			for k, e := range j.JoinEdges {
				r := ref.JoinEdges[k]
				if e.I != r.I || e.J != r.J || math.Abs(e.W-r.W) > 1e-12*r.W {
					t.Fatalf("%+v sources %d: join %d %+v, Compute %+v", tc, len(src), k, e, r)
				}
			}
			for r, s := range src {
				for v := 0; v < tc.n; v++ {
					a, b := j.From.At(r, v), ref.G.At(s, v)
					if math.Abs(a-b) > 1e-12*max(b, 1) {
						t.Fatalf("%+v sources %d: G(%d, %d) = %v, Compute %v", tc, len(src), s, v, a, b)
					}
				}
			}
			if len(src) == tc.n && j.Searches != 0 {
				t.Errorf("every node a source: %d extra searches", j.Searches)
			}
		}
	}
}

// TestLargestGeodesic: the bounded search's g_max equals the largest finite
// entry of the all-pairs matrix, from any set of sources (none included).
func TestLargestGeodesic(t *testing.T) {
	ctx := context.Background()
	X := clusters(200, 2, 5, 9)
	g, err := KNN(ctx, X, 3)
	if err != nil {
		t.Fatal(err)
	}
	G, err := ShortestPathsExact(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	want := maxFinite(G.RawSymmetric().Data)
	_, comp := g.Components()
	for _, src := range [][]int{{}, {0}, {7, 8, 9, 150}} {
		from := mat.NewDense(max(len(src), 1), 200, nil)
		if len(src) > 0 {
			if from, err = DistancesFrom(ctx, g, src); err != nil {
				t.Fatal(err)
			}
		}
		got, searches, err := largestGeodesic(ctx, g, comp, src, from)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("sources %v: g_max %v, all pairs %v (%d searches)", src, got, want, searches)
		}
		t.Logf("sources %v: %d searches for 200 nodes", src, searches)
	}
}
