package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// TestNystromCellsExactRows: the landmark map of NewNystromCells gives
// every row x and landmark l the kernel value −½·(M(x, l) − ū_x − m̄_l + m̿)
// of the ultrametric M of hclust.FromPointsCells on the nearest-landmark
// cells (found here by brute force); with every row a landmark, M is the
// exact tree's (FromPoints) and the map is the exact kernel's.
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
	for _, meth := range []hclust.Method{hclust.Complete, hclust.Average, hclust.Weighted, hclust.Ward} {
		for _, landmarks := range [][]int{rng.Perm(n)[:30], all} {
			m := len(landmarks)
			_, Z, err := NewNystromCells(ctx, X, HCK{Method: meth}, landmarks, 0)
			if err != nil {
				t.Fatal(err)
			}
			var full *hclust.Tree
			if m == n {
				full, err = hclust.FromPoints(ctx, X, meth)
			} else {
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
			U := full.Ultrametric(nil)
			mbar := make([]float64, m)
			var grand float64
			for a, l := range landmarks {
				for _, l2 := range landmarks {
					mbar[a] += U.At(l, l2) / float64(m)
				}
				grand += mbar[a] / float64(m)
			}
			var worst, scale float64
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
			if worst > 1e-9*scale {
				t.Fatalf("%v, %d landmarks: z(x)·z(l) differs from the kernel of the tree by %g (max |K| %g)", meth, m, worst, scale)
			}
		}
	}
}
