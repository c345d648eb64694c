package svcluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/metrics"
	"gonum.org/v1/gonum/mat"
)

// twoGaussians is the data of paper 001 Fig. 4a-b: a 200-point mixture of
// two Gaussians (here σ = 0.7 per coordinate, centres 6σ apart, 100 points
// each; the paper does not give its parameters).
func twoGaussians(seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	X := mat.NewDense(200, 2, nil)
	y := make([]int, 200)
	for i := 0; i < 200; i++ {
		c := i % 2
		X.Set(i, 0, 0.7*(rng.NormFloat64()+6*float64(c)))
		X.Set(i, 1, 0.7*rng.NormFloat64())
		y[i] = c
	}
	return X, y
}

// coreRings is the data of Fig. 4c-d: a Gaussian core of 50 points inside
// two concentric rings of 150 and 300 points with uniform angle and Gaussian
// radial spread.
func coreRings(seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 12))
	var x []float64
	var y []int
	for i := 0; i < 50; i++ {
		x = append(x, 0.3*rng.NormFloat64(), 0.3*rng.NormFloat64())
		y = append(y, 0)
	}
	for c, ring := range []struct {
		n int
		r float64
	}{{150, 2}, {300, 4}} {
		for i := 0; i < ring.n; i++ {
			a := 2 * math.Pi * rng.Float64()
			r := ring.r + 0.2*rng.NormFloat64()
			x = append(x, r*math.Cos(a), r*math.Sin(a))
			y = append(y, c+1)
		}
	}
	return mat.NewDense(len(y), 2, x), y
}

func ari(t *testing.T, y, l []int) float64 {
	t.Helper()
	a, err := metrics.ARI(y, l)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestPaperFig4ab: with the Laplacian kernel at q = 0.7 and no outliers
// (1/C = 1) single-point clusters break off besides the two main ones; at
// 1/(NC) = 0.2 the two Gaussians are separated.
func TestPaperFig4ab(t *testing.T) {
	ctx := context.Background()
	for seed := uint64(1); seed <= 3; seed++ {
		X, y := twoGaussians(seed)
		hard, err := Clusterer{Q: 0.7, C: 1, Kernel: Exponential}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		soft, err := Clusterer{Q: 0.7, C: 1 / (200 * 0.2), Kernel: Exponential}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		a := ari(t, y, soft.Labels)
		t.Logf("seed %d: Fig 4a (1/C = 1): %d clusters, %d singletons, n_sv %d; Fig 4b (1/(NC) = 0.2): %d clusters %v, n_sv %d, n_bsv %d, ARI %.3f",
			seed, hard.NClusters, hard.Singletons, hard.NSV, soft.NClusters, soft.Sizes, soft.NSV, soft.NBSV, a)
		if hard.Singletons < 5 {
			t.Errorf("seed %d, 1/C = 1: want single-point clusters breaking off, got %d clusters %v", seed, hard.NClusters, hard.Sizes)
		}
		// The two largest clusters are the two Gaussians (a few small
		// fragments may remain: the Laplacian contour is rough).
		big := append([]int(nil), soft.Sizes...)
		slices.Sort(big)
		top := big[len(big)-1]
		if len(big) > 1 {
			top += big[len(big)-2]
		}
		if top < 190 || a < 0.95 {
			t.Errorf("seed %d, 1/(NC) = 0.2: clusters %v, ARI %.3f; want the two Gaussians", seed, soft.Sizes, a)
		}
	}
}

// TestPaperFig4cd: Gaussian kernel; at 1/(NC) = 0.3 the core and both rings
// separate at q ≈ 1, while without outliers only the smallest cluster (the
// core) comes apart, with many support vectors.
func TestPaperFig4cd(t *testing.T) {
	ctx := context.Background()
	for seed := uint64(2); seed <= 4; seed++ {
		X, y := coreRings(seed)
		r, err := Clusterer{Q: 1, C: 1 / (500 * 0.3)}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		if a := ari(t, y, r.Labels); r.NClusters != 3 || a < 0.95 {
			t.Errorf("seed %d, q = 1, 1/(NC) = 0.3: %d clusters, ARI %.3f", seed, r.NClusters, a)
		}
	}
	X, y := coreRings(1)
	n := float64(len(y))
	soft, err := Clusterer{Q: 1, C: 1 / (n * 0.3)}.Fit(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	a := ari(t, y, soft.Labels)
	t.Logf("Fig 4d (q = 1, 1/(NC) = 0.3): %d clusters %v, n_sv %d, n_bsv %d, ARI %.3f", soft.NClusters, soft.Sizes, soft.NSV, soft.NBSV, a)
	if soft.NClusters != 3 || a < 0.95 {
		t.Errorf("q = 1, 1/(NC) = 0.3: %d clusters, ARI %.3f; want the core and two rings", soft.NClusters, a)
	}
	hard, err := Clusterer{Q: 3.5, C: 1}.Fit(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Fig 4c (q = 3.5, 1/C = 1): %d clusters, sizes %v, n_sv %d (%.0f%%)", hard.NClusters, hard.Sizes, hard.NSV, 100*float64(hard.NSV)/n)
	// Without outliers the fit needs many support vectors (the paper's
	// "overfitting, as in Figure 4(c)").
	if float64(hard.NSV) < 0.25*n {
		t.Errorf("q = 3.5, 1/C = 1: only %d support vectors", hard.NSV)
	}
	// The core is one cluster of its own.
	core := hard.Labels[0]
	for i := range y {
		if (y[i] == 0) != (hard.Labels[i] == core) {
			t.Fatalf("q = 3.5, 1/C = 1: point %d (class %d) in cluster %d, core cluster %d", i, y[i], hard.Labels[i], core)
		}
	}
}

// TestProposition21 checks n_out + n_sv ≥ 1/C and n_out < 1/C (eq. 13) over
// random data, both kernels and a range of q and C (1/C not an integer: at
// integer 1/C the bound n_out ≤ 1/C can be attained by a degenerate
// solution with every β at 0 or C).
func TestProposition21(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	ctx := context.Background()
	for trial := 0; trial < 24; trial++ {
		n := 40 + rng.IntN(80)
		X := mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			X.Set(i, 0, rng.NormFloat64())
			X.Set(i, 1, rng.NormFloat64())
		}
		kind := KernelKind(trial % 2)
		q := math.Exp(-2 + 5*rng.Float64())
		invC := 1.5 + float64(n-2)*rng.Float64()*0.8
		r, err := Clusterer{Q: q, C: 1 / invC, Kernel: kind, Labelling: Cone}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		if float64(r.NBSV+r.NSV) < invC-1e-9 || float64(r.NBSV) >= invC {
			t.Errorf("n=%d %v q=%.3g 1/C=%.3f: n_sv=%d n_out=%d violates eq. (13)", n, kind, q, invC, r.NSV, r.NBSV)
		}
		// Outliers are outside the sphere, support vectors on it.
		for _, i := range r.BSV {
			if d := r.Dist2(X.RawRowView(i)); d < r.R2-1e-4 {
				t.Errorf("outlier %d has R²(x) = %g < R² = %g", i, d, r.R2)
			}
		}
		for _, i := range r.SV {
			if d := r.Dist2(X.RawRowView(i)); math.Abs(d-r.R2) > 1e-3 {
				t.Errorf("support vector %d has R²(x) = %g, R² = %g", i, d, r.R2)
			}
		}
	}
}

// TestPaperEq15 reproduces Fig. 1: on 500 points uniform in the unit square
// (averaged over 20 data sets, as the paper) the number of outliers follows
// n_out = max(0, 1/C − n₀) (eq. 15), slope 1 in 1/C, and n₀ grows linearly
// with q.
func TestPaperEq15(t *testing.T) {
	ctx := context.Background()
	qs := []float64{2, 4, 6, 8, 10}
	invCs := []float64{25.5, 50.5, 100.5, 150.5, 200.5}
	const sets = 20
	mean := make([][]float64, len(qs))
	for k := range mean {
		mean[k] = make([]float64, len(invCs))
	}
	for s := 0; s < sets; s++ {
		rng := rand.New(rand.NewPCG(15, uint64(s)))
		X := mat.NewDense(500, 2, nil)
		for i := 0; i < 500; i++ {
			X.Set(i, 0, rng.Float64())
			X.Set(i, 1, rng.Float64())
		}
		for k, q := range qs {
			for j, invC := range invCs {
				r, err := Clusterer{Q: q, C: 1 / invC, Labelling: Cone}.Fit(ctx, X)
				if err != nil {
					t.Fatal(err)
				}
				mean[k][j] += float64(r.NBSV) / sets
			}
		}
	}
	var n0s []float64
	for k, q := range qs {
		slope, icpt := linfit(invCs, mean[k])
		n0 := -icpt / slope
		n0s = append(n0s, n0)
		t.Logf("q = %g: mean n_out %.1f at 1/C %v: slope %.3f, n0 = %.2f", q, mean[k], invCs, slope, n0)
		if math.Abs(slope-1) > 0.03 {
			t.Errorf("q = %g: n_out against 1/C has slope %.3f, eq. (15) says 1", q, slope)
		}
		for j, x := range invCs {
			if want := math.Max(0, x-n0); math.Abs(mean[k][j]-want) > 0.03*x+1 {
				t.Errorf("q = %g, 1/C = %g: n_out = %.1f, eq. (15) with n0 = %.1f gives %.1f", q, x, mean[k][j], n0, want)
			}
		}
	}
	a, b := linfit(qs, n0s)
	t.Logf("n0 ≈ %.3f·q + %.3f", a, b)
	for k, q := range qs {
		if math.Abs(n0s[k]-(a*q+b)) > 1 {
			t.Errorf("n0(q = %g) = %.2f is off the line %.3f·q + %.3f", q, n0s[k], a, b)
		}
	}
	if a <= 0 {
		t.Errorf("n0 should grow with q: slope %.3f", a)
	}
}

func linfit(x, y []float64) (slope, icpt float64) {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	slope = sxy / sxx
	return slope, my - slope*mx
}
