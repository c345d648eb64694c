package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/hclust"

	"gonum.org/v1/gonum/mat"
)

// TestNystromSingleExactRows: the landmark single-linkage map on the tree
// of all rows gives every row x and landmark l the exact kernel value
// z(x)·z(l) = −½·(M(x, l) − ū_x − m̄_l + m̿) of the full single-linkage
// ultrametric M (hclust.FromPoints, SciPy's tree; means over the
// landmarks), and its out-of-sample rule reproduces the training features
// at the landmarks.
func TestNystromSingleExactRows(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	n, d, m := 300, 3, 40
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		c := float64(i % 4)
		for j := 0; j < d; j++ {
			X.Set(i, j, c*2+rng.NormFloat64())
		}
	}
	perm := rng.Perm(n)[:m]
	ny, Z, err := newNystromSingle(ctx, X, perm, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !ny.AllRows || ny.Rank != m-1 {
		t.Fatalf("AllRows %v, rank %d, want %d", ny.AllRows, ny.Rank, m-1)
	}
	full, err := hclust.FromPoints(ctx, X, hclust.Single)
	if err != nil {
		t.Fatal(err)
	}
	U := full.Ultrametric(nil)
	mbar := make([]float64, m)
	var grand float64
	for a, l := range perm {
		for _, l2 := range perm {
			mbar[a] += U.At(l, l2) / float64(m)
		}
		grand += mbar[a] / float64(m)
	}
	var worst, scale float64
	for x := 0; x < n; x++ {
		var ubar float64
		for _, l := range perm {
			ubar += U.At(x, l) / float64(m)
		}
		for a, l := range perm {
			want := -0.5 * (U.At(x, l) - ubar - mbar[a] + grand)
			got := mat.Dot(Z.RowView(x), Z.RowView(l))
			worst = math.Max(worst, math.Abs(got-want))
			scale = math.Max(scale, math.Abs(want))
		}
	}
	if worst > 1e-10*scale {
		t.Fatalf("z(x)·z(l) differs from the exact kernel by %g (max |K| %g)", worst, scale)
	}
	// The saved rule at the landmarks: the same features.
	lm := mat.NewDense(m, d, nil)
	for a, l := range perm {
		lm.SetRow(a, X.RawRowView(l))
	}
	F, err := ny.Features(ctx, lm)
	if err != nil {
		t.Fatal(err)
	}
	for a, l := range perm {
		for c := 0; c < ny.Rank; c++ {
			if math.Abs(F.At(a, c)-Z.At(l, c)) > 1e-9 {
				t.Fatalf("landmark %d feature %d: rule %v, training %v", l, c, F.At(a, c), Z.At(l, c))
			}
		}
	}
}
