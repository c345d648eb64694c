package landmark

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestChooseIncluding: the included rows are landmarks, m distinct
// sorted rows in all, the same for the same seed; with no rows to include,
// or m or more, it is Choose.
func TestChooseIncluding(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(100, 2, nil)
	rng := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 100; i++ {
		X.Set(i, 0, float64(i%5)*100+rng.NormFloat64())
		X.Set(i, 1, rng.NormFloat64())
	}
	include := []int{97, 3, 50, 0, 41}
	for _, method := range []string{Random, KMeans} {
		for _, m := range []int{6, 20, 100} {
			a, all, err := ChooseIncluding(ctx, X, m, method, 9, include)
			if err != nil {
				t.Fatal(err)
			}
			b, _, _ := ChooseIncluding(ctx, X, m, method, 9, include)
			if !all || len(a) != m || !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != m || !slices.Equal(a, b) {
				t.Fatalf("%s m=%d: %v (all %v) then %v: want the same %d sorted distinct rows", method, m, a, all, b, m)
			}
			for _, i := range include {
				if !slices.Contains(a, i) {
					t.Errorf("%s m=%d: row %d to include is not a landmark", method, m, i)
				}
			}
		}
		for _, inc := range [][]int{nil, include} {
			m := 5
			if inc == nil {
				m = 7
			}
			a, all, err := ChooseIncluding(ctx, X, m, method, 9, inc)
			want, _ := Choose(ctx, X, m, method, 9)
			if err != nil || !slices.Equal(a, want) || all != (inc == nil) {
				t.Errorf("%s include %v m=%d: %v %v %v, want Choose' %v", method, inc, m, a, all, err, want)
			}
		}
	}
	for _, bad := range [][]int{{3, 3}, {-1}, {100}} {
		if _, _, err := ChooseIncluding(ctx, X, 10, Random, 1, bad); !errors.Is(err, kernel.ErrBadParam) {
			t.Errorf("include %v: %v, want ErrBadParam", bad, err)
		}
	}
}

// TestNystromLandmarkColumnsExact: the closed form behind including the
// labelled rows among the landmarks: z(x)·z(l) = k(x, l) for every point x
// and landmark l (here rbf, K_LL well conditioned: no eigenvalue clipped).
func TestNystromLandmarkColumnsExact(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 1))
	X := mat.NewDense(80, 3, nil)
	for i := 0; i < 80; i++ {
		for j := 0; j < 3; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	k := kernel.RBF{Gamma: 0.5}
	lm, _, err := ChooseIncluding(ctx, X, 12, KMeans, 1, []int{4, 9, 77})
	if err != nil {
		t.Fatal(err)
	}
	ny, err := newNystrom(ctx, X, k, lm, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ny.Clipped != 0 {
		t.Fatalf("%d eigenvalues clipped", ny.Clipped)
	}
	Z, err := ny.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := 0; i < 80; i++ {
		for _, l := range lm {
			got := mat.Dot(Z.RowView(i), Z.RowView(l))
			worst = max(worst, math.Abs(got-k.Eval(X.RawRowView(i), X.RawRowView(l))))
		}
	}
	// Tolerance: K_LL's condition number times rounding (12 landmarks).
	if worst > 1e-8 {
		t.Errorf("max |z(x)·z(l) − k(x, l)| = %g", worst)
	}
}
