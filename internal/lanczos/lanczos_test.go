package lanczos

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lcg reproduces testdata/gen_fixtures.py and peer_time.py.
func lcg(n int, seed uint64) []float64 {
	s := seed
	out := make([]float64, n)
	for i := range out {
		s = s*6364136223846793005 + 1442695040888963407
		out[i] = float64(s>>11) / (1 << 53)
	}
	return out
}

func rbfMatrix(n, d int, seed uint64, gamma float64) *mat.SymDense {
	x := lcg(n*d, seed)
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s := 0.0
			for c := 0; c < d; c++ {
				t := x[i*d+c] - x[j*d+c]
				s += t * t
			}
			a.SetSym(i, j, math.Exp(-gamma*s))
		}
	}
	return a
}

func fixtureMatrices() map[string]*mat.SymDense {
	b := lcg(200*200, 11)
	sym := mat.NewSymDense(200, nil)
	for i := 0; i < 200; i++ {
		for j := i; j < 200; j++ {
			sym.SetSym(i, j, ((b[i*200+j]-0.5)+(b[j*200+i]-0.5))/2)
		}
	}
	y := mat.NewDense(150, 5, lcg(150*5, 13))
	low := mat.NewSymDense(150, nil)
	low.SymOuterK(1, y)
	return map[string]*mat.SymDense{"rbf300": rbfMatrix(300, 8, 7, 2), "sym200": sym, "low150": low}
}

func loadEigs(t *testing.T) map[string][]float64 {
	t.Helper()
	raw, err := os.ReadFile("testdata/eigs.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	for k, v := range m {
		if arr, ok := v.([]any); ok {
			for _, x := range arr {
				out[k] = append(out[k], x.(float64))
			}
		}
	}
	return out
}

// checkPairs asserts eigenvalues against want (relative 1e-8 of max(|λ|, 1e-6·λ_max):
// the fixture is numpy eigh, accurate to ~1e-15·‖A‖), residuals ‖Av−λv‖ ≤ 1e-8·‖A‖
// and orthonormal vectors.
func checkPairs(t *testing.T, a *mat.SymDense, res *Result, want []float64) {
	t.Helper()
	if !res.Converged {
		t.Fatalf("not converged after %d restarts", res.Iter)
	}
	if len(res.Values) != len(want) {
		t.Fatalf("got %d values, want %d", len(res.Values), len(want))
	}
	scale := math.Abs(want[0])
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i, w := range want {
		if d := math.Abs(res.Values[i] - w); d > 1e-8*math.Max(math.Abs(w), 1e-6*scale) {
			t.Errorf("λ[%d] = %.15g, want %.15g (diff %.2g)", i, res.Values[i], w, d)
		}
	}
	n, k := res.Vectors.Dims()
	var av mat.Dense
	av.Mul(a, res.Vectors)
	for c := 0; c < k; c++ {
		r := 0.0
		for i := 0; i < n; i++ {
			d := av.At(i, c) - res.Values[c]*res.Vectors.At(i, c)
			r += d * d
		}
		if math.Sqrt(r) > 1e-8*scale {
			t.Errorf("residual of pair %d = %.3g", c, math.Sqrt(r))
		}
	}
	var g mat.Dense
	g.Mul(res.Vectors.T(), res.Vectors)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(g.At(i, j)-want) > 1e-10 {
				t.Fatalf("VᵀV[%d,%d] = %g", i, j, g.At(i, j))
			}
		}
	}
}

func TestTopFixtures(t *testing.T) {
	eigs := loadEigs(t)
	mats := fixtureMatrices()
	cases := []struct {
		name string
		k    int
	}{
		{"rbf300", 1}, {"rbf300", 10}, {"rbf300", 40}, {"sym200", 20}, {"sym200", 200},
		{"low150", 8}, {"low150", 3},
	}
	for _, c := range cases {
		a := mats[c.name]
		res, err := Solver{K: c.k, Seed: 3}.Top(context.Background(), NewSym(a))
		if err != nil {
			t.Fatalf("%s k=%d: %v", c.name, c.k, err)
		}
		t.Logf("%s k=%d: %d matvecs, %d restarts", c.name, c.k, res.MatVecs, res.Iter)
		checkPairs(t, a, res, eigs[c.name][:c.k])
	}
}

// The cycle graph C_n has eigenvalues 2cos(2πj/n), each of multiplicity 2 except
// j = 0 (and n/2): Lanczos must return both copies.
func TestCycleMultiplicity(t *testing.T) {
	const n = 100
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, (i+1)%n, 1)
	}
	want := []float64{2}
	for j := 1; len(want) < 9; j++ {
		v := 2 * math.Cos(2*math.Pi*float64(j)/n)
		want = append(want, v, v)
	}
	res, err := Solver{K: 9, Seed: 1}.Top(context.Background(), NewSym(a))
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, a, res, want)
}

func TestAbove(t *testing.T) {
	eigs := loadEigs(t)["rbf300"]
	a := fixtureMatrices()["rbf300"]
	for _, cut := range []float64{5, 2, 1, 100} {
		var want []float64
		for _, w := range eigs {
			if w >= cut {
				want = append(want, w)
			}
		}
		if len(want) == len(eigs) {
			t.Fatalf("cut %g: fixture too short", cut)
		}
		res, err := Solver{K: 4}.Above(context.Background(), NewSym(a), cut)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("cut %g: %d pairs, %d matvecs", cut, len(res.Values), res.MatVecs)
		if len(want) == 0 {
			if len(res.Values) != 0 {
				t.Fatalf("cut %g: got %v, want none", cut, res.Values)
			}
			continue
		}
		checkPairs(t, a, res, want)
	}
	// A cut below the spectrum returns every pair.
	low := fixtureMatrices()["low150"]
	res, err := Solver{}.Above(context.Background(), NewSym(low), -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Values) != 150 {
		t.Fatalf("cut -1: %d pairs, want 150", len(res.Values))
	}
}

func TestSymMulVec(t *testing.T) {
	for _, n := range []int{1, 7, 300, 1000} {
		a := rbfMatrix(n, 3, 5, 1)
		x := lcg(n, 9)
		got := make([]float64, n)
		NewSym(a).MulVec(got, x)
		want := mat.NewVecDense(n, nil)
		want.MulVec(a, mat.NewVecDense(n, x))
		for i := range got {
			if math.Abs(got[i]-want.AtVec(i)) > 1e-12*float64(n) {
				t.Fatalf("n=%d: y[%d] = %g, want %g", n, i, got[i], want.AtVec(i))
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	a := rbfMatrix(700, 4, 21, 3)
	run := func(p int) *Result {
		old := runtime.GOMAXPROCS(p)
		defer runtime.GOMAXPROCS(old)
		res, err := Solver{K: 12, Seed: 5}.Top(context.Background(), NewSym(a))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r1 := run(1)
	for _, p := range []int{2, 3, 8} {
		rp := run(p)
		if !mat.Equal(r1.Vectors, rp.Vectors) || r1.MatVecs != rp.MatVecs {
			t.Fatalf("GOMAXPROCS=%d differs from GOMAXPROCS=1", p)
		}
		for i := range r1.Values {
			if r1.Values[i] != rp.Values[i] {
				t.Fatalf("GOMAXPROCS=%d: λ[%d] %v != %v", p, i, rp.Values[i], r1.Values[i])
			}
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	a := NewSym(rbfMatrix(20, 2, 1, 1))
	for _, c := range []struct {
		s    Solver
		want error
	}{
		{Solver{K: 0}, ErrK},
		{Solver{K: 21}, ErrK},
		{Solver{K: -1}, ErrK},
		{Solver{K: 3, NCV: 3}, ErrBadParam},
		{Solver{K: 3, Tol: -1}, ErrBadParam},
		{Solver{K: 3, Tol: math.NaN()}, ErrBadParam},
		{Solver{K: 3, MaxIter: -2}, ErrBadParam},
	} {
		if _, err := c.s.Top(ctx, a); !errors.Is(err, c.want) {
			t.Errorf("%+v: err = %v, want %v", c.s, err, c.want)
		}
	}
	if _, err := (Solver{}).Above(ctx, a, math.NaN()); !errors.Is(err, ErrBadParam) {
		t.Errorf("NaN cut: %v", err)
	}
	if _, err := (Solver{K: 1}).Top(ctx, NewSym(mat.NewSymDense(1, nil))); err != nil {
		t.Errorf("1x1 zero matrix: %v", err)
	}
	bad := rbfMatrix(20, 2, 1, 1)
	bad.SetSym(3, 4, math.NaN())
	if _, err := (Solver{K: 2}).Top(ctx, NewSym(bad)); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN matrix: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (Solver{K: 2}).Top(cctx, a); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// MaxIter exhausted is a result, not an error.
	res, err := Solver{K: 20, NCV: 22, MaxIter: 1, Tol: 1e-15}.Top(ctx, NewSym(fixtureMatrices()["sym200"]))
	if err != nil || res.Converged {
		t.Errorf("MaxIter 1: err %v, converged %v", err, res != nil && res.Converged)
	}
}
