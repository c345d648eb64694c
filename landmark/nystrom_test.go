package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

func randPoints(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	return X
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	m := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// TestNystromClosedForms: with every row a landmark Z·Zᵀ = K; for the
// linear kernel in d = 3 any 10 landmarks in general position span the
// feature space, so Z·Zᵀ = X·Xᵀ for all points (closed form).
func TestNystromClosedForms(t *testing.T) {
	ctx := context.Background()
	X := randPoints(40, 3, 1)
	all := make([]int, 40)
	for i := range all {
		all[i] = i
	}
	k := kernel.RBF{Gamma: 0.3}
	ny, err := newNystrom(ctx, X, k, all, 0)
	if err != nil {
		t.Fatal(err)
	}
	Z, err := ny.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	K, err := kernel.Gram(ctx, nil, k, X)
	if err != nil {
		t.Fatal(err)
	}
	var ZZ mat.Dense
	ZZ.Mul(Z, Z.T())
	// Tolerance: K_LL⁺ through eigenvalues down to M·ε·λmax (condition ~1e13).
	if d := maxAbsDiff(&ZZ, K); d > 1e-6 {
		t.Errorf("RBF, all landmarks: max |ZZᵀ − K| = %g", d)
	}
	lin, err := newNystrom(ctx, X, kernel.Linear{}, []int{0, 3, 5, 7, 11, 13, 17, 19, 23, 29}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if lin.Rank != 3 || lin.Clipped != 7 {
		t.Errorf("linear kernel in d = 3: rank %d clipped %d, want 3 and 7", lin.Rank, lin.Clipped)
	}
	Z, err = lin.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	var XX mat.Dense
	XX.Mul(X, X.T())
	ZZ.Reset()
	ZZ.Mul(Z, Z.T())
	if d := maxAbsDiff(&ZZ, &XX); d > 1e-10 {
		t.Errorf("linear, 10 landmarks: max |ZZᵀ − XXᵀ| = %g", d)
	}
}

// TestNystromHCK: the landmark cluster kernel reproduces K_LL on the
// landmarks, and every other point's features come from the tree rule.
func TestNystromHCK(t *testing.T) {
	ctx := context.Background()
	X := treeExtPoints(120, 4)
	lm, err := Choose(ctx, X, 30, KMeans, 1)
	if err != nil {
		t.Fatal(err)
	}
	h := kernel.HCK{Method: hclust.Average}
	ny, err := newNystromHCK(ctx, X, h, lm, 0)
	if err != nil {
		t.Fatal(err)
	}
	L := ny.LandmarkPoints()
	KL, _, err := h.Gram(ctx, L)
	if err != nil {
		t.Fatal(err)
	}
	ZL, err := ny.Features(ctx, L)
	if err != nil {
		t.Fatal(err)
	}
	var ZZ mat.Dense
	ZZ.Mul(ZL, ZL.T())
	if d := maxAbsDiff(&ZZ, KL); d > 1e-8 {
		t.Errorf("landmark HCK: max |Z_L Z_Lᵀ − K_LL| = %g", d)
	}
	// A non-landmark point: z(x)·z(l) = k(x, l) from the tree rule.
	R, err := ny.Rows(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	Z, err := ny.Features(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	var ZX mat.Dense
	ZX.Mul(Z, ZL.T())
	if d := maxAbsDiff(&ZX, R); d > 1e-8 {
		t.Errorf("landmark HCK: max |Z Z_Lᵀ − K_XL| = %g", d)
	}
}

func TestChoose(t *testing.T) {
	ctx := context.Background()
	// Five tight blobs far apart: k-means with 5 landmarks takes one from each.
	X := mat.NewDense(100, 2, nil)
	rng := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 100; i++ {
		X.Set(i, 0, float64(i%5)*100+rng.NormFloat64())
		X.Set(i, 1, rng.NormFloat64())
	}
	for _, method := range []string{Random, KMeans} {
		a, err := Choose(ctx, X, 5, method, 9)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Choose(ctx, X, 5, method, 9)
		if !slices.Equal(a, b) || !slices.IsSorted(a) || len(a) != 5 {
			t.Fatalf("%s: %v then %v: want the same 5 sorted rows", method, a, b)
		}
		if method == KMeans {
			seen := map[int]bool{}
			for _, i := range a {
				seen[i%5] = true
			}
			if len(seen) != 5 {
				t.Errorf("kmeans landmarks %v miss a blob", a)
			}
		}
	}
	if _, err := Choose(ctx, X, 101, Random, 1); err == nil {
		t.Error("101 landmarks of 100 rows: no error")
	}
	if _, err := Choose(ctx, X, 5, "grid", 1); err == nil {
		t.Error("method grid: no error")
	}
}

// treeExtPoints returns n points of two noisy moons from seed.
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
