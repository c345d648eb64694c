package kernel

import (
	"math"
	"sync"
)

// A table-driven e^x for the float32 kernel columns of the SVM (Column32).
//
// x = k·ln2/N + r with N = 2^7, k = round(x·N/ln2), |r| ≤ ln2/(2N), so
//
//	e^x = 2^(k/N) · e^r = 2^⌊k/N⌋ · T[k mod N] · (1 + τ[k mod N]) · e^r,
//
// with T[i] = 2^(i/N) rounded to double and τ[i] its relative rounding
// error, and e^r − 1 by its Taylor polynomial of degree 5 (remainder
// |r|⁶/720 < 6·10⁻¹⁹). There is no division, unlike expNeg's rational
// approximation, and every step is a multiply-add. The result is
// s + s·(τ + r + r²/2 + … + r⁵/120) with s = 2^⌊k/N⌋·T[i]: one rounding of
// the sum (½ ulp) plus about 0.003 ulp from the small terms, so it is within
// 0.51 ulp of e^x, as good as expNeg or better; the two can differ in the
// last bit of a double. Rounded to float32 they agree unless e^x lies
// within 10⁻¹⁶ (relative) of a float32 rounding boundary, which the tests
// check does not happen on millions of arguments.
//
// x·N/ln2 is rounded by adding 1.5·2^52 (the low mantissa bits then hold k
// in two's complement), and r = (x − k·h) − k·l with h = ln2/N to 32
// significant bits (k·h exact for |k| < 2^21; |k| ≤ 130,741 here) and
// l = ln2/N − h.

const (
	expBits  = 7
	expN     = 1 << expBits
	expShift = 0x1.8p52
	expInvN  = expN * expLog2e
	expHiN   = expLn2Hi / expN // exact: a power-of-two division
	expLoN   = expLn2Lo / expN
)

// expTab holds, for i < N, the bits of T[i] minus i·2^45 (adding k·2^45
// for k = ⌊k/N⌋·N + i then both puts ⌊k/N⌋ into the exponent field and
// leaves T[i]'s mantissa) and τ[i].
var expTab = sync.OnceValue(func() *[2 * expN]uint64 {
	var t [2 * expN]uint64
	for i := range expN {
		v, tau := exp2Frac(i)
		t[2*i] = math.Float64bits(tau)
		t[2*i+1] = math.Float64bits(v) - uint64(i)<<(52-expBits)
	}
	return &t
})

// exp2Frac returns T = 2^(i/N) rounded to nearest and τ with
// 2^(i/N) = T·(1 + τ) to about 2⁻¹⁰⁰ relative. It starts from math.Exp2
// (within an ulp), forms T^N in double-double arithmetic (exact products
// by fused multiply-add): T^N = 2^i·(1 + Nτ') gives τ' = −τ to first order
// (the second-order term, below 2⁻¹⁰⁵, is dropped); when T + T·τ rounds to
// another double, that neighbour is the nearest and it starts again
// (at most three times; once is all it takes).
func exp2Frac(i int) (float64, float64) {
	v := math.Exp2(float64(i) / expN)
	for try := 0; ; try++ {
		h, l := v, 0.0
		for range expBits {
			p := h * h
			e := math.FMA(h, h, -p) + 2*h*l
			h = p + e
			l = e - (h - p)
		}
		// T^N / 2^i − 1 = (h − 2^i + l) / 2^i; h − 2^i is exact (Sterbenz).
		p2 := math.Ldexp(1, i)
		tau := -((h - p2) + l) / p2 / expN
		if w := v + v*tau; w != v && try < 3 {
			v = w
			continue
		}
		return v, tau
	}
}

// expNegFast returns e^x for x ≤ 0 within 0.51 ulp; x < -708, x > 0 and
// NaN defer to math.Exp. tab is expTab().
func expNegFast(x float64, tab *[2 * expN]uint64) float64 {
	if !(x >= -708 && x <= 0) {
		return math.Exp(x)
	}
	kd := x*expInvN + expShift
	ki := math.Float64bits(kd)
	kd -= expShift
	r := (x - kd*expHiN) - kd*expLoN
	i := 2 * (ki % expN)
	tau := math.Float64frombits(tab[i])
	s := math.Float64frombits(tab[i+1] + ki<<(52-expBits))
	r2 := r * r
	p := tau + r + r2*(0.5+r*(1.0/6)) + r2*r2*(1.0/24+r*(1.0/120))
	return s + s*p
}
