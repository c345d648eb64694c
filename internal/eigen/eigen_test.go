package eigen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

func randSym(n int, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 1))
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, rng.NormFloat64())
		}
	}
	return a
}

// symFromEig returns Q·diag(lam)·Qᵀ for a random orthogonal Q.
func symFromEig(lam []float64, seed uint64) *mat.SymDense {
	n := len(lam)
	rng := rand.New(rand.NewPCG(seed, 2))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	b := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b.Set(i, j, q.At(i, j)*lam[j])
		}
	}
	var c mat.Dense
	c.Mul(b, q.T())
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (c.At(i, j)+c.At(j, i))/2)
		}
	}
	return s
}

func normSym(a mat.Symmetric) float64 {
	n := a.SymmetricDim()
	s := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := a.At(i, j)
			s += v * v
		}
	}
	return math.Sqrt(s)
}

// check asserts the residual ‖AV − VΛ‖_F ≤ 1e-12·n·‖A‖_F, orthogonality
// ‖VᵀV − I‖_F ≤ 1e-12·n and ascending values. (The bounds are the brief's:
// backward-stable algorithms give O(ε·n) with a small constant; ε·n ≈ 2e-16·n.)
func check(t *testing.T, name string, a mat.Symmetric, vals []float64, v *mat.Dense) (res, orth float64) {
	t.Helper()
	n := a.SymmetricDim()
	if len(vals) != n {
		t.Fatalf("%s: %d values, want %d", name, len(vals), n)
	}
	if !sort.Float64sAreSorted(vals) {
		t.Errorf("%s: values not ascending", name)
	}
	an := normSym(a)
	var av mat.Dense
	av.Mul(a, v)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			av.Set(i, j, av.At(i, j)-v.At(i, j)*vals[j])
		}
	}
	res = mat.Norm(&av, 2)
	if an > 0 {
		res /= an
	}
	var vtv mat.Dense
	vtv.Mul(v.T(), v)
	for i := 0; i < n; i++ {
		vtv.Set(i, i, vtv.At(i, i)-1)
	}
	orth = mat.Norm(&vtv, 2)
	if !(res <= 1e-12*float64(n)) {
		t.Errorf("%s: residual ‖AV−VΛ‖/‖A‖ = %.3g > %.3g", name, res, 1e-12*float64(n))
	}
	if !(orth <= 1e-12*float64(n)) {
		t.Errorf("%s: orthogonality ‖VᵀV−I‖ = %.3g > %.3g", name, orth, 1e-12*float64(n))
	}
	return res, orth
}

func gonumValues(a mat.Symmetric) []float64 {
	var es mat.EigenSym
	if !es.Factorize(a, true) { // values-only (Dsterf) panics in gonum v0.17 for |a| ~ 1e-150
		panic("gonum EigenSym failed")
	}
	return es.Values(nil)
}

func compareValues(t *testing.T, name string, got, want []float64, scale float64) {
	t.Helper()
	for i := range want {
		if d := math.Abs(got[i] - want[i]); !(d <= 1e-10*scale) {
			t.Errorf("%s: λ[%d] = %.17g, want %.17g (|Δ|/‖A‖ = %.3g)", name, i, got[i], want[i], d/scale)
			return
		}
	}
}

func TestRandomAgainstGonum(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{3, 10, 31, 32, 33, 64, 65, 100, 257, 600} {
		a := randSym(n, uint64(n))
		vals, v, err := Sym(ctx, a, true)
		if err != nil {
			t.Fatal(err)
		}
		res, orth := check(t, "random", a, vals, v)
		compareValues(t, "random", vals, gonumValues(a), normSym(a))
		vo, _, err := Sym(ctx, a, false)
		if err != nil {
			t.Fatal(err)
		}
		compareValues(t, "random values-only", vo, vals, normSym(a))
		t.Logf("n=%d residual %.2g orthogonality %.2g", n, res, orth)
	}
}

func TestHardCases(t *testing.T) {
	ctx := context.Background()
	diag := func(v ...float64) *mat.SymDense {
		a := mat.NewSymDense(len(v), nil)
		for i, x := range v {
			a.SetSym(i, i, x)
		}
		return a
	}
	ident := func(n int) *mat.SymDense {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1
		}
		return diag(v...)
	}
	rank1 := func(n int) *mat.SymDense {
		a := ident(n)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, a.At(i, j)+float64((i+1)*(j+1))/float64(n*n))
			}
		}
		return a
	}
	scaled := func(a *mat.SymDense, s float64) *mat.SymDense {
		var b mat.SymDense
		b.ScaleSym(s, a)
		return &b
	}
	wilkinson := func(m int) *mat.SymDense { // W_{2m+1}^+
		n := 2*m + 1
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			a.SetSym(i, i, math.Abs(float64(i-m)))
			if i+1 < n {
				a.SetSym(i, i+1, 1)
			}
		}
		return a
	}
	graded := func(n int) *mat.SymDense {
		a := randSym(n, 7)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, a.At(i, j)*math.Pow(10, -float64(i+j)/float64(n)*12))
			}
		}
		return a
	}
	clustered := func(n int) *mat.SymDense {
		lam := make([]float64, n)
		for i := range lam {
			lam[i] = float64(i % 3)
			if i%7 == 0 {
				lam[i] += 1e-13 * float64(i)
			}
		}
		return symFromEig(lam, 3)
	}
	cases := []struct {
		name string
		a    *mat.SymDense
	}{
		{"1x1", diag(-3.5)},
		{"2x2", mat.NewSymDense(2, []float64{2, 1, 1, 2})},
		{"2x2 equal", mat.NewSymDense(2, []float64{1, 0, 0, 1})},
		{"diagonal", diag(5, -1, 3, 3, 0, 2, -7, 1e-3)},
		{"diagonal 100", func() *mat.SymDense {
			v := make([]float64, 100)
			for i := range v {
				v[i] = float64((i * 37) % 11)
			}
			return diag(v...)
		}()},
		{"zero", mat.NewSymDense(50, nil)},
		{"identity 80", ident(80)},
		{"rank-1 + identity 120", rank1(120)},
		{"tiny 1e-150", scaled(randSym(70, 5), 1e-150)},
		{"huge 1e150", scaled(randSym(70, 5), 1e150)},
		{"huge 1e300", scaled(randSym(40, 5), 1e300)},
		{"graded 90", graded(90)},
		{"Wilkinson 21", wilkinson(10)},
		{"Wilkinson 101", wilkinson(50)},
		{"clustered 200", clustered(200)},
	}
	for _, c := range cases {
		vals, v, err := Sym(ctx, c.a, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check(t, c.name, c.a, vals, v)
		an := normSym(c.a)
		compareValues(t, c.name, vals, gonumValues(c.a), an)
		vo, _, err := Sym(ctx, c.a, false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		compareValues(t, c.name+" values-only", vo, vals, an)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		a := randSym(5, 1)
		a.SetSym(1, 3, bad)
		if _, _, err := Sym(ctx, a, true); !errors.Is(err, ErrNonFinite) {
			t.Errorf("entry %v: err = %v, want ErrNonFinite", bad, err)
		}
		if _, err := SymFunc(ctx, nil, a, func(x float64) float64 { return x }); !errors.Is(err, ErrNonFinite) {
			t.Errorf("SymFunc entry %v: err = %v, want ErrNonFinite", bad, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Sym(cctx, randSym(300, 1), true); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := SymFunc(ctx, mat.NewSymDense(4, nil), randSym(5, 1), math.Abs); !errors.Is(err, ErrShape) {
		t.Errorf("dst 4×4 for 5×5: err = %v, want ErrShape", err)
	}
}

func TestGOMAXPROCSBitIdentical(t *testing.T) {
	ctx := context.Background()
	a := randSym(700, 11)
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	v1, z1, err := Sym(ctx, a, true)
	if err != nil {
		t.Fatal(err)
	}
	r1 := z1.RawMatrix().Data
	for _, p := range []int{2, 4} {
		runtime.GOMAXPROCS(p)
		vp, zp, err := Sym(ctx, a, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := range v1 {
			if math.Float64bits(v1[i]) != math.Float64bits(vp[i]) {
				t.Fatalf("λ[%d]: %v (GOMAXPROCS 1) != %v (GOMAXPROCS %d)", i, v1[i], vp[i], p)
			}
		}
		for i, x := range zp.RawMatrix().Data {
			if math.Float64bits(r1[i]) != math.Float64bits(x) {
				t.Fatalf("V entry %d differs between GOMAXPROCS 1 and %d", i, p)
			}
		}
	}
}

func TestSymFunc(t *testing.T) {
	ctx := context.Background()
	n := 150
	// A random matrix (half the spectrum negative: clipping takes the direct
	// path) and a nearly PSD one (3 negative eigenvalues: the complement path
	// A + Σ (f(λ) − λ)·v·vᵀ).
	lam := make([]float64, n)
	for i := range lam {
		lam[i] = float64(i - 2)
	}
	for _, a := range []*mat.SymDense{randSym(n, 4), symFromEig(lam, 6)} {
		testSymFunc(ctx, t, a)
	}
}

func testSymFunc(ctx context.Context, t *testing.T, a *mat.SymDense) {
	n := a.SymmetricDim()
	vals, v, err := Sym(ctx, a, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    func(float64) float64
	}{
		{"clip", func(x float64) float64 { return max(x, 0) }},
		{"identity", func(x float64) float64 { return x }},
		{"square", func(x float64) float64 { return x * x }},
	} {
		got, err := SymFunc(ctx, nil, a, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		// Reference: V·f(Λ)·Vᵀ with gonum.
		b := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				b.Set(i, j, v.At(i, j)*tc.f(vals[j]))
			}
		}
		var want mat.Dense
		want.Mul(b, v.T())
		scale := 0.0
		for _, l := range vals {
			scale = max(scale, math.Abs(tc.f(l)))
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if d := math.Abs(got.At(i, j) - want.At(i, j)); d > 1e-12*float64(n)*scale {
					t.Fatalf("%s: [%d,%d] = %v, want %v", tc.name, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
		if tc.name == "identity" {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if d := math.Abs(got.At(i, j) - a.At(i, j)); d > 1e-12*float64(n)*scale {
						t.Fatalf("f(λ)=λ does not give A back: [%d,%d] %v vs %v", i, j, got.At(i, j), a.At(i, j))
					}
				}
			}
		}
	}
}

func TestSymSelect(t *testing.T) {
	ctx := context.Background()
	n := 200
	a := randSym(n, 21)
	vals, v, err := Sym(ctx, a, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		keep func(i int, l float64) bool
	}{
		{"top 5", func(i int, l float64) bool { return i >= n-5 }},
		{"positive", func(i int, l float64) bool { return l > 0 }},
		{"none", func(i int, l float64) bool { return false }},
	} {
		sv, sV, err := SymSelect(ctx, a, tc.keep)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for i, l := range vals {
			if tc.keep(i, l) {
				want = append(want, i)
			}
		}
		if len(sv) != len(want) {
			t.Fatalf("%s: %d values, want %d", tc.name, len(sv), len(want))
		}
		if len(want) == 0 {
			if sV != nil {
				t.Errorf("%s: V = %v, want nil", tc.name, sV)
			}
			continue
		}
		if r, c := sV.Dims(); r != n || c != len(want) {
			t.Fatalf("%s: V is %d×%d, want %d×%d", tc.name, r, c, n, len(want))
		}
		for c, k := range want {
			if sv[c] != vals[k] {
				t.Errorf("%s: value %d = %v, want %v", tc.name, c, sv[c], vals[k])
			}
			for i := 0; i < n; i++ {
				if d := math.Abs(sV.At(i, c) - v.At(i, k)); d > 1e-13 {
					t.Fatalf("%s: V[%d,%d] = %v, want %v", tc.name, i, c, sV.At(i, c), v.At(i, k))
				}
			}
		}
	}
}

// TestTridiagonalClosedForms checks matrices that are tridiagonal already,
// so that the divide and conquer sees them unchanged: the second-difference
// matrix tridiag(−1, 2, −1) with λ_k = 2 − 2·cos(kπ/(n+1)) (closed form),
// and glued Wilkinson matrices (10 copies of W21⁺ coupled by 1e-10: pairs
// of eigenvalues agreeing to many digits, the classic hard case for
// tridiagonal eigensolvers), against gonum.
func TestTridiagonalClosedForms(t *testing.T) {
	ctx := context.Background()
	n := 500
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, 2)
		if i+1 < n {
			a.SetSym(i, i+1, -1)
		}
	}
	vals, v, err := Sym(ctx, a, true)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "second difference", a, vals, v)
	for k := 1; k <= n; k++ {
		want := 2 - 2*math.Cos(float64(k)*math.Pi/float64(n+1))
		if d := math.Abs(vals[k-1] - want); d > 1e-13 {
			t.Fatalf("second difference: λ_%d = %.17g, want %.17g", k, vals[k-1], want)
		}
	}

	const copies, m = 10, 10
	w := 2*m + 1
	n = copies * w
	g := mat.NewSymDense(n, nil)
	for c := 0; c < copies; c++ {
		for i := 0; i < w; i++ {
			r := c*w + i
			g.SetSym(r, r, math.Abs(float64(i-m)))
			if i+1 < w {
				g.SetSym(r, r+1, 1)
			} else if r+1 < n {
				g.SetSym(r, r+1, 1e-10)
			}
		}
	}
	vals, v, err = Sym(ctx, g, true)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "glued Wilkinson", g, vals, v)
	compareValues(t, "glued Wilkinson", vals, gonumValues(g), normSym(g))
}

// plainSym hides the RawSymmetricer of a SymDense, so Sym reads it by At.
type plainSym struct{ s *mat.SymDense }

func (p plainSym) Dims() (int, int)    { return p.s.Dims() }
func (p plainSym) At(i, j int) float64 { return p.s.At(i, j) }
func (p plainSym) T() mat.Matrix       { return p }
func (p plainSym) SymmetricDim() int   { return p.s.SymmetricDim() }

func TestInputKinds(t *testing.T) {
	ctx := context.Background()
	a := randSym(90, 8)
	v1, z1, err := Sym(ctx, a, true)
	if err != nil {
		t.Fatal(err)
	}
	v2, z2, err := Sym(ctx, plainSym{a}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(z1, z2) || !floatsEqual(v1, v2) {
		t.Error("Sym differs between a *mat.SymDense and the same matrix read through At")
	}
	// Lower-triangle storage.
	raw := a.RawSymmetric()
	n := a.SymmetricDim()
	lo := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			lo[i*n+j] = raw.Data[j*raw.Stride+i]
		}
	}
	v3, z3, err := Sym(ctx, lowerSym{blas64.Symmetric{N: n, Stride: n, Data: lo, Uplo: blas.Lower}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(z1, z3) || !floatsEqual(v1, v3) {
		t.Error("Sym differs between upper and lower storage")
	}
}

// lowerSym is a RawSymmetricer with lower-triangle storage.
type lowerSym struct{ r blas64.Symmetric }

func (l lowerSym) Dims() (int, int) { return l.r.N, l.r.N }
func (l lowerSym) At(i, j int) float64 {
	if i < j {
		i, j = j, i
	}
	return l.r.Data[i*l.r.Stride+j]
}
func (l lowerSym) T() mat.Matrix                  { return l }
func (l lowerSym) SymmetricDim() int              { return l.r.N }
func (l lowerSym) RawSymmetric() blas64.Symmetric { return l.r }

func floatsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestSymFuncInPlace passes a as its own destination, on both paths.
func TestSymFuncInPlace(t *testing.T) {
	ctx := context.Background()
	lam := make([]float64, 60)
	for i := range lam {
		lam[i] = float64(i - 1)
	}
	for _, a := range []*mat.SymDense{randSym(60, 2), symFromEig(lam, 9)} {
		want, err := SymFunc(ctx, nil, a, func(x float64) float64 { return max(x, 0) })
		if err != nil {
			t.Fatal(err)
		}
		got := mat.NewSymDense(60, nil)
		got.CopySym(a)
		if _, err := SymFunc(ctx, got, got, func(x float64) float64 { return max(x, 0) }); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got, want) {
			t.Error("SymFunc(dst = a) differs from SymFunc(dst = nil)")
		}
	}
}

// TestTridiagonalStress feeds tridiagonal matrices of hard structure to
// the divide and conquer (through Sym; Householder leaves them tridiagonal
// up to signs): tiny couplings (heavy deflation), repeated diagonals (pole
// pairs deflated by rotation), couplings graded over 30 orders and
// integer diagonals with unit couplings (clusters), each against gonum.
func TestTridiagonalStress(t *testing.T) {
	ctx := context.Background()
	n := 300
	rng := rand.New(rand.NewPCG(77, 1))
	gens := []struct {
		name string
		g    func(i int) (d, e float64)
	}{
		{"tiny couplings", func(i int) (float64, float64) { return rng.NormFloat64(), 1e-12 * rng.NormFloat64() }},
		{"repeated diag", func(i int) (float64, float64) { return float64(i % 4), rng.NormFloat64() }},
		{"graded", func(i int) (float64, float64) { return 1, math.Pow(10, -30*float64(i)/float64(n)) }},
		{"integer", func(i int) (float64, float64) { return float64(i % 7), 1 }},
		{"mixed zeros", func(i int) (float64, float64) { return rng.NormFloat64(), float64(i%3) * rng.NormFloat64() }},
	}
	for _, gc := range gens {
		name, g := gc.name, gc.g
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			d, e := g(i)
			a.SetSym(i, i, d)
			if i+1 < n {
				a.SetSym(i, i+1, e)
			}
		}
		vals, v, err := Sym(ctx, a, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		check(t, name, a, vals, v)
		compareValues(t, name, vals, gonumValues(a), normSym(a))
	}
}
