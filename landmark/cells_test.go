package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestNystromCellsExactRows: the landmark map of newNystromCells gives
// every row x and landmark l the kernel value −½·(M(x, l) − ū_x − m̄_l + m̿)
// of the exact tree's ultrametric M (FromPoints), restricted to the
// landmarks, or, when ExactCells's K cells are too many (K² > N·M: with
// 2 landmarks), that of hclust.FromPointsCells on the nearest-landmark
// cells (found here by brute force). Both cases occur.
func TestNystromCellsExactRows(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	n, d := 160, 3
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		c := float64(i % 4)
		for j := 0; j < d; j++ {
			X.Set(i, j, c*2+rng.NormFloat64())
		}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var branches [2]int // exact tree, landmarks' cells
	for _, meth := range []hclust.Method{hclust.Complete, hclust.Average, hclust.Weighted, hclust.Ward} {
		for _, landmarks := range [][]int{rng.Perm(n)[:30], rng.Perm(n)[:2], all} {
			m := len(landmarks)
			_, Z, err := newNystromCells(ctx, X, kernel.HCK{Method: meth}, landmarks, 0)
			if err != nil {
				t.Fatal(err)
			}
			var full *hclust.Tree
			exact := meth == hclust.Ward
			if !exact {
				_, K, err := hclust.ExactCells(ctx, X, meth, ExactCellsNeighbors)
				if err != nil {
					t.Fatal(err)
				}
				exact = K*K <= n*m
			}
			if exact {
				// the exact tree of all rows
				branches[0]++
				full, err = hclust.FromPoints(ctx, X, meth)
			} else {
				branches[1]++
				cells := make([]int, n)
				for i := range cells {
					best := math.Inf(1)
					for c, l := range landmarks {
						var s float64
						for j := 0; j < d; j++ {
							s += (X.At(i, j) - X.At(l, j)) * (X.At(i, j) - X.At(l, j))
						}
						if s < best {
							best, cells[i] = s, c
						}
					}
				}
				full, err = hclust.FromPointsCells(ctx, X, cells, m, meth)
			}
			if err != nil {
				t.Fatal(err)
			}
			if worst, scale := fullTreeRowsDiff(Z, full, landmarks); worst > 1e-9*scale {
				t.Fatalf("%v, %d landmarks: z(x)·z(l) differs from the kernel of the tree by %g (max |K| %g)", meth, m, worst, scale)
			}
		}
	}
	if branches[0] == 0 || branches[1] == 0 {
		t.Fatalf("cases: %d on the exact tree, %d on the landmarks' cells; want both", branches[0], branches[1])
	}
}

// fullTreeRowsDiff returns the largest |z(x)·z(l) − K(x, l)| over rows x
// and landmarks l, K(x, l) = −½·(M(x, l) − ū_x − m̄_l + m̿) from the
// ultrametric M of full (means over the landmarks), and max |K|.
func fullTreeRowsDiff(Z *mat.Dense, full *hclust.Tree, landmarks []int) (worst, scale float64) {
	U := full.Ultrametric(nil)
	n, m := full.N, len(landmarks)
	mbar := make([]float64, m)
	var grand float64
	for a, l := range landmarks {
		for _, l2 := range landmarks {
			mbar[a] += U.At(l, l2) / float64(m)
		}
		grand += mbar[a] / float64(m)
	}
	for x := 0; x < n; x++ {
		var ubar float64
		for _, l := range landmarks {
			ubar += U.At(x, l) / float64(m)
		}
		for a, l := range landmarks {
			want := -0.5 * (U.At(x, l) - ubar - mbar[a] + grand)
			got := mat.Dot(Z.RowView(x), Z.RowView(l))
			worst = math.Max(worst, math.Abs(got-want))
			scale = math.Max(scale, math.Abs(want))
		}
	}
	return worst, scale
}

// TestNystromGraphCellsExactRows: the landmark hckg map of complete,
// average and weighted linkage gives every row and landmark the kernel
// value of the exact tree on the joined geodesics (Geodesics.Compute's G,
// three components here; hclust.Linkage on G), restricted to the
// landmarks — or, with too many exact cells for their matrix (K² > N·M:
// here with 2 neighbours instead of 40), of the tree hclust.FromRowsCells builds with every row in the
// cell of its nearest landmark by geodesic. Both cases occur.
func TestNystromGraphCellsExactRows(t *testing.T) {
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
	var branches [2]int
	t.Cleanup(func() { exactCellsK = ExactCellsNeighbors })
	for _, nbrs := range []int{ExactCellsNeighbors, 2} {
		exactCellsK = nbrs
		var lm []int
		for i := 3; i < n; i += 7 {
			lm = append(lm, i)
		}
		cells := make([]int, n)
		for i := range cells {
			best := math.Inf(1)
			for c, l := range lm {
				if g := ref.G.At(l, i); g < best {
					best, cells[i] = g, c
				}
			}
		}
		for _, meth := range []hclust.Method{hclust.Complete, hclust.Average, hclust.Weighted} {
			_, Z, err := newNystromGraph(ctx, X, kernel.HCK{Method: meth, Graph: &spec}, lm, 0)
			if err != nil {
				t.Fatal(err)
			}
			// the rule of graphCellsTree: the exact cells if K² ≤ N·M
			g, err := graph.Build(ctx, X, spec)
			if err != nil {
				t.Fatal(err)
			}
			joined, err := graph.JoinedDistancesFrom(ctx, g, X.RawMatrix().Data, 2, lm)
			if err != nil {
				t.Fatal(err)
			}
			_, K, err := exactGraphCells(ctx, joined.Graph, meth, make([]graph.Searcher, 1))
			if err != nil {
				t.Fatal(err)
			}
			var full *hclust.Tree
			if K > 0 && K*K <= n*len(lm) {
				branches[0]++
				full, err = hclust.Linkage(ctx, distance.FromSymmetric(ref.G), meth)
			} else {
				branches[1]++
				full, err = hclust.FromRowsCells(ctx, n, cells, len(lm), meth, 1, func(_, i int, out []float64) {
					for j := range out {
						out[j] = ref.G.At(i, j)
					}
				})
			}
			if err != nil {
				t.Fatal(err)
			}
			if worst, scale := fullTreeRowsDiff(Z, full, lm); worst > 1e-9*scale {
				t.Fatalf("%v, %d landmarks: z(x)·z(l) differs from the kernel of the tree by %g (max |K| %g)", meth, len(lm), worst, scale)
			}
		}
	}
	if branches[0] == 0 || branches[1] == 0 {
		t.Fatalf("cases: %d on the exact tree, %d on the landmarks' cells; want both", branches[0], branches[1])
	}
}

// A landmark cell too large for its own linkage (more than
// hclust.CellsMaxSize rows, not all identical) sends newNystromCells to
// the tree on the landmarks alone (newNystromHCK's map).
func TestNystromCellsLargeCell(t *testing.T) {
	ctx := context.Background()
	n := 2*hclust.CellsMaxSize + 100
	X := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, float64(i)+0.25*float64(i%7))
	}
	landmarks := []int{0, n / 3, n - 1} // cells of about n/6 + n/3 > CellsMaxSize rows in the middle
	lm, _ := landmarkRows(X, landmarks)
	cells, err := nearestLandmark(ctx, X, lm, landmarks)
	if err != nil {
		t.Fatal(err)
	}
	if _, K, _ := hclust.ExactCells(ctx, X, hclust.Average, ExactCellsNeighbors); K*K <= n*len(landmarks) || !cellsTooLarge(X, cells, len(landmarks)) {
		t.Fatalf("test data: %d exact cells, or no cell over %d rows", K, hclust.CellsMaxSize)
	}
	_, Z, err := newNystromCells(ctx, X, kernel.HCK{Method: hclust.Average}, landmarks, 0)
	if err != nil {
		t.Fatal(err)
	}
	ny, err := newNystromHCK(ctx, X, kernel.HCK{Method: hclust.Average}, landmarks, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ny.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(Z, want, 1e-12) {
		t.Fatal("features differ from the landmark tree's")
	}
}
