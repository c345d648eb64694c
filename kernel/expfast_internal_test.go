package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExpNegFast: the table-driven exp is within 0.51 ulp of e^x computed
// to 160 bits (math/big) on 20,000 arguments in [-708, 0]; within two ulps
// of math.Exp (itself within one ulp) on a grid of [-750, 0] and random
// arguments; exact at 0; defers outside [-708, 0]; and rounded to float32
// it equals float32(math.Exp(x)) on every argument tried (a mismatch needs
// e^x within about 10⁻¹⁶ of a float32 rounding boundary; on 4·10⁶ arguments
// the expected count is below 10⁻²).
func TestExpNegFast(t *testing.T) {
	tab := expTab()
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for k := range 20_000 {
		x := -r.Float64() * 708
		if k%2 == 0 {
			x = -r.ExpFloat64()
		}
		b := expNegFast(x, tab)
		e, _ := new(big.Float).Sub(new(big.Float).SetFloat64(b), expRef(x)).Float64()
		worst = max(worst, math.Abs(e)/ulp(b))
	}
	t.Logf("worst error %.4f ulp", worst)
	if worst > 0.51 {
		t.Errorf("worst error %.4f ulp, want ≤ 0.51", worst)
	}
	check := func(x float64) {
		a, b := math.Exp(x), expNegFast(x, tab)
		if math.Abs(a-b) > 2*ulp(a) {
			t.Fatalf("expNegFast(%v) = %v, math.Exp %v: more than two ulps apart", x, b, a)
		}
		if x >= -103 && float32(a) != float32(b) {
			t.Fatalf("expNegFast(%v) = %v and math.Exp %v round to different float32", x, b, a)
		}
	}
	for i := 0; i <= 3_000_000; i++ {
		check(-float64(i) * 0.00025)
	}
	for range 1_000_000 {
		check(-r.ExpFloat64() * 3)
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -708, -709, -745, -746, math.Inf(-1), 1, math.NaN()} {
		a, b := math.Exp(x), expNegFast(x, tab)
		if !(a == b || (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= ulp(a)) {
			t.Errorf("expNegFast(%v) = %v, math.Exp %v", x, b, a)
		}
	}
	if got := expNegFast(0, tab); got != 1 {
		t.Errorf("expNegFast(0) = %v, want 1", got)
	}
	// The table's corrections are rounding errors of doubles near 1..2.
	for i := range expN {
		if tau := math.Float64frombits(tab[2*i]); math.Abs(tau) > 0x1p-53 {
			t.Errorf("τ[%d] = %v, want |τ| ≤ 2⁻⁵³", i, tau)
		}
	}
}

func ulp(a float64) float64 { return math.Nextafter(a, math.Inf(1)) - a }

// expRef is e^x to about 150 bits: the Taylor series of e^(x/2¹⁰) squared
// ten times.
func expRef(x float64) *big.Float {
	const prec = 192
	y := new(big.Float).SetPrec(prec).SetFloat64(x)
	y.SetMantExp(y, -10)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -180)
	for n := int64(1); ; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	return sum
}

// TestColumn32: the float32 column fast paths equal float32(Eval) entry by
// entry on random points (see Column32 for the one exception, which the
// arguments here do not hit).
func TestColumn32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, d = 2000, 7
	X := make([]float64, n*(d+2))
	for i := range X {
		X[i] = r.NormFloat64()
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = r.IntN(n)
	}
	dst := make([]float32, n)
	for _, k := range []interface {
		Kernel
		Column32
	}{RBF{Gamma: 0.3}, RBF{Gamma: 40}, Laplacian{Gamma: 0.2}, Exponential{Gamma: 0.7}} {
		for _, x0 := range []int{0, 17, 1999} {
			x := X[x0*(d+2) : x0*(d+2)+d]
			k.Column32(dst, x, X, d+2, rows)
			for t0, rr := range rows {
				if want := float32(k.Eval(x, X[rr*(d+2):rr*(d+2)+d])); dst[t0] != want {
					t.Fatalf("%T: K(%d, %d) = %v, float32(Eval) %v", k, x0, rr, dst[t0], want)
				}
			}
		}
	}
}
