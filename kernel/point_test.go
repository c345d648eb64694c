package kernel_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

type pointFixture struct {
	X, Y  [][]float64
	Cases []struct {
		Kernel string
		Params struct {
			A, B, Gamma float64
			Degree      int
		}
		Gram, Cross [][]float64
	}
}

func fixtureKernel(t *testing.T, name string, p struct {
	A, B, Gamma float64
	Degree      int
}) kernel.Kernel {
	switch name {
	case "linear":
		return kernel.Linear{}
	case "poly":
		return kernel.Poly{A: p.A, B: p.B, Degree: p.Degree}
	case "rbf":
		return kernel.RBF{Gamma: p.Gamma}
	case "laplacian":
		return kernel.Laplacian{Gamma: p.Gamma}
	case "exponential":
		return kernel.Exponential{Gamma: p.Gamma}
	}
	t.Fatalf("unknown fixture kernel %q", name)
	return nil
}

// TestPointKernelsSklearn compares Gram, Cross and Eval with
// sklearn.metrics.pairwise (testdata/point_kernels.json.gz). Tolerance
// 1e-12 relative: sklearn's rbf/linear go through BLAS dot products
// (rounding ~1e-16·‖x‖²), Arbor sums exact squared differences.
func TestPointKernelsSklearn(t *testing.T) {
	var fx pointFixture
	loadFixture(t, "point_kernels.json.gz", &fx)
	X, Y := dense(fx.X), dense(fx.Y)
	ctx := context.Background()
	for _, c := range fx.Cases {
		k := fixtureKernel(t, c.Kernel, c.Params)
		K, err := kernel.Gram(ctx, nil, k, X)
		if err != nil {
			t.Fatalf("%s: %v", c.Kernel, err)
		}
		if d := maxRelDiff(t, K, c.Gram); d > 1e-12 {
			t.Errorf("%#v Gram: max rel diff %.3g vs sklearn", k, d)
		}
		rawFull(t, K)
		C, err := kernel.Cross(ctx, nil, k, Y, X)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(t, C, c.Cross); d > 1e-12 {
			t.Errorf("%#v Cross: max rel diff %.3g vs sklearn", k, d)
		}
		// Gram equals pairwise Eval up to summation order.
		for i := 0; i < len(fx.X); i++ {
			for j := 0; j < len(fx.X); j++ {
				if e := k.Eval(fx.X[i], fx.X[j]); math.Abs(e-K.At(i, j)) > 1e-14*math.Max(1, math.Abs(e)) {
					t.Fatalf("%#v: Eval(x%d,x%d)=%v, Gram %v", k, i, j, e, K.At(i, j))
				}
			}
		}
	}
}

func TestRBFSigma(t *testing.T) {
	if g := kernel.RBFSigma(2).Gamma; g != 0.125 {
		t.Fatalf("RBFSigma(2).Gamma = %v, want 1/8", g)
	}
}

func TestPolyLargeDegree(t *testing.T) {
	k := kernel.Poly{A: 0.5, B: 1, Degree: 7}
	x, y := []float64{1, 2}, []float64{0.5, -1}
	want := math.Pow(0.5*(0.5-2)+1, 7)
	if got := k.Eval(x, y); math.Abs(got-want) > 1e-15*math.Abs(want) {
		t.Fatalf("poly degree 7: got %v want %v", got, want)
	}
}

func randDense(n, d int, seed uint64) *mat.Dense {
	// Small LCG: deterministic data without math/rand state.
	s := seed*6364136223846793005 + 1442695040888963407
	m := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			s = s*6364136223846793005 + 1442695040888963407
			m.Set(i, j, float64(s>>11)/(1<<53)*2-1)
		}
	}
	return m
}

// TestGramDeterministic: GOMAXPROCS 1 and 2 give bit-identical results.
func TestGramDeterministic(t *testing.T) {
	X := randDense(157, 7, 1)
	A := randDense(33, 7, 2)
	for _, k := range []kernel.Kernel{kernel.Linear{}, kernel.RBF{Gamma: 0.3}, kernel.Poly{A: 1, B: 1, Degree: 3}, kernel.Laplacian{Gamma: 1}, kernel.Exponential{Gamma: 1}} {
		var grams [2]*mat.SymDense
		var cross [2]*mat.Dense
		for p := 1; p <= 2; p++ {
			old := runtime.GOMAXPROCS(p)
			g, err := kernel.Gram(context.Background(), nil, k, X)
			if err != nil {
				t.Fatal(err)
			}
			c, err := kernel.Cross(context.Background(), nil, k, A, X)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GOMAXPROCS(old)
			grams[p-1], cross[p-1] = g, c
		}
		if !mat.Equal(grams[0], grams[1]) || !mat.Equal(cross[0], cross[1]) {
			t.Errorf("%#v: results differ between GOMAXPROCS 1 and 2", k)
		}
	}
}

func TestGramErrors(t *testing.T) {
	ctx := context.Background()
	X := randDense(5, 3, 1)
	nan := mat.DenseCopyOf(X)
	nan.Set(2, 1, math.NaN())
	inf := mat.DenseCopyOf(X)
	inf.Set(4, 0, math.Inf(-1))
	cases := []struct {
		name string
		k    kernel.Kernel
		X    mat.Matrix
		dst  *mat.SymDense
		want error
	}{
		{"gamma 0", kernel.RBF{}, X, nil, kernel.ErrBadParam},
		{"gamma <0", kernel.Laplacian{Gamma: -1}, X, nil, kernel.ErrBadParam},
		{"gamma NaN", kernel.Exponential{Gamma: math.NaN()}, X, nil, kernel.ErrBadParam},
		{"gamma Inf", kernel.RBF{Gamma: math.Inf(1)}, X, nil, kernel.ErrBadParam},
		{"degree 0", kernel.Poly{A: 1, B: 1}, X, nil, kernel.ErrBadParam},
		{"poly A 0", kernel.Poly{A: 0, B: 1, Degree: 2}, X, nil, kernel.ErrBadParam},
		{"poly B<0", kernel.Poly{A: 1, B: -1, Degree: 2}, X, nil, kernel.ErrBadParam},
		{"nil kernel", nil, X, nil, kernel.ErrBadParam},
		{"NaN", kernel.Linear{}, nan, nil, kernel.ErrNonFinite},
		{"Inf", kernel.RBF{Gamma: 1}, inf, nil, kernel.ErrNonFinite},
		{"nil X", kernel.Linear{}, nil, nil, kernel.ErrEmpty},
		{"dst size", kernel.Linear{}, X, mat.NewSymDense(4, nil), kernel.ErrShape},
	}
	for _, c := range cases {
		_, err := kernel.Gram(ctx, c.dst, c.k, c.X)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := kernel.Cross(ctx, nil, kernel.Linear{}, X, randDense(3, 4, 1)); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("Cross feature mismatch: err = %v", err)
	}
	if _, err := kernel.Cross(ctx, mat.NewDense(2, 2, nil), kernel.Linear{}, X, X); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("Cross dst size: err = %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := kernel.Gram(cctx, nil, kernel.Linear{}, X); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: err = %v", err)
	}
}

// TestGramPSD: Gram matrices of the PSD kernels on random data have
// smallest eigenvalue ≥ -1e-9·largest.
func TestGramPSD(t *testing.T) {
	X := randDense(60, 4, 9)
	for _, k := range []kernel.Kernel{kernel.Linear{}, kernel.RBF{Gamma: 2}, kernel.Poly{A: 1, B: 1, Degree: 3}, kernel.Laplacian{Gamma: 1}, kernel.Exponential{Gamma: 1}} {
		K, err := kernel.Gram(context.Background(), nil, k, X)
		if err != nil {
			t.Fatal(err)
		}
		var es mat.EigenSym
		if !es.Factorize(K, false) {
			t.Fatal("eigen failed")
		}
		v := es.Values(nil)
		if v[0] < -1e-9*v[len(v)-1] {
			t.Errorf("%#v: smallest eigenvalue %v, largest %v", k, v[0], v[len(v)-1])
		}
	}
}
