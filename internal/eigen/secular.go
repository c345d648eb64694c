package eigen

import "math"

const eps = 0x1p-53 // unit roundoff, LAPACK's dlamch('E')

// secular computes root i (0-based) of the secular equation
//
//	f(λ) = 1/ρ + Σ_j z_j²/(dl_j − λ) = 0,
//
// for strictly increasing poles dl (k = len(dl) ≥ 2), ρ > 0 and z_j ≠ 0
// (Golub 1973; Bunch, Nielsen & Sorensen 1978). Root i lies in
// (dl_i, dl_i+1), the last one in (dl_k−1, dl_k−1 + ρ·zᵀz). As LAPACK's
// Dlaed4 it works relative to the nearer pole dl_o, λ = dl_o + τ, so that
// every difference dl_j − λ = (dl_j − dl_o) − τ is computed to high
// relative accuracy, which Gu & Eisenstat's eigenvector formula needs. The
// iteration is the "middle way" of Li (1993, LAPACK Working Note 89): the
// sums over poles left and right of the root are each replaced by one pole
// term matching value and slope, whose zero gives the step; a bracket on τ
// and bisection guard it. It writes delta[j] = dl_j − λ and returns λ.
func secular(i int, dl, z []float64, rho float64, delta []float64) float64 {
	k := len(dl)
	last := i == k-1
	var o int
	var lo, hi, tau float64
	rhoinv := 1 / rho
	if !last {
		gap := dl[i+1] - dl[i]
		mid := gap / 2
		f := rhoinv
		for j := range k {
			f += z[j] * z[j] / ((dl[j] - dl[i]) - mid)
		}
		if f >= 0 {
			o, lo, hi, tau = i, 0, mid, mid
		} else {
			o = i + 1
			lo, hi = (dl[i]+mid)-dl[i+1], 0
			tau = lo
		}
	} else {
		o = k - 1
		zz := 0.0
		for j := range k {
			zz += z[j] * z[j]
		}
		lo, hi = 0, rho*zz
		tau = hi / 2
	}
	// Poles a < b framing the root and the split of the sum between them.
	pa, pb := i, i+1
	if last {
		pa, pb = k-2, k-1
	}
	dlo := dl[o]
	for iter := 0; iter < 200; iter++ {
		var sa, dsa, sb, dsb, abs float64
		for j := range k {
			dj := (dl[j] - dlo) - tau
			delta[j] = dj
			q := z[j] / dj
			t := z[j] * q
			if j <= pa {
				sa += t
				dsa += q * q
			} else {
				sb += t
				dsb += q * q
			}
			abs += math.Abs(t)
		}
		f := rhoinv + sa + sb
		df := dsa + dsb
		if math.Abs(f) <= eps*(8*(abs+rhoinv)+math.Abs(tau)*df) || f == 0 {
			break
		}
		if f < 0 {
			lo = max(lo, tau)
		} else {
			hi = min(hi, tau)
		}
		da, db := delta[pa], delta[pb]
		c := f - da*dsa - db*dsb
		a := (da+db)*f - da*db*df
		b := da * db * f
		var eta float64
		switch {
		case c == 0:
			if a == 0 {
				eta = -f / df
			} else {
				eta = b / a
			}
		case a <= 0:
			eta = (a - math.Sqrt(math.Abs(a*a-4*b*c))) / (2 * c)
		default:
			eta = 2 * b / (a + math.Sqrt(math.Abs(a*a-4*b*c)))
		}
		if f*eta >= 0 || math.IsNaN(eta) {
			eta = -f / df
		}
		next := tau + eta
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == tau || hi-lo <= 2*eps*max(math.Abs(lo), math.Abs(hi)) {
			tau = next
			break
		}
		tau = next
	}
	for j := range k {
		delta[j] = (dl[j] - dlo) - tau
	}
	return dlo + tau
}
