package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestClusterKernelsFewRows: the landmark cluster kernels on inputs of
// 2 to 41 rows (fewer rows than ExactCellsNeighbors among them) give every
// row x and landmark l the value −½·(M(x, l) − ū_x − m̄_l + m̿) of the
// exact tree's ultrametric (hclust.FromPoints); with every row a landmark
// that is the exact kernel −½·J·M·J.
func TestClusterKernelsFewRows(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(40, 3))
	for _, n := range []int{2, 3, 5, 12, 40, 41} {
		X := mat.NewDense(n, 3, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < 3; j++ {
				X.Set(i, j, float64(i%2)*3+rng.NormFloat64())
			}
		}
		for _, m := range []hclust.Method{hclust.Single, hclust.Complete, hclust.Average, hclust.Weighted, hclust.Ward} {
			full, err := hclust.FromPoints(ctx, X, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int{2, min(10, n), n} {
				landmarks := rng.Perm(n)[:size]
				s := Settings{Kernel: kernel.Spec{Kind: kernel.KindHCK, Method: m}}
				_, Z, err := s.Fit(ctx, X, landmarks)
				if err != nil {
					t.Fatalf("n=%d hck:%v, %d landmarks: %v", n, m, size, err)
				}
				// the eigenvalue cut M·ε and the rounding of the tree's
				// heights: 1e-9 of the largest value
				if worst, scale := fullTreeRowsDiff(Z, full, landmarks); worst > 1e-9*math.Max(scale, 1) {
					t.Errorf("n=%d hck:%v, %d landmarks: z(x)·z(l) differs from the exact tree's kernel by %g (max |K| %g)", n, m, size, worst, scale)
				}
			}
		}
	}
}
