package smo

import "math"

// The per-iteration passes over the active set, as functions of slices.
//
// updatePass, selectPass and axpy32 are defined in passes_amd64.go (AVX2
// kernels with these loops finishing the tail) and passes_noasm.go (these
// loops alone: other architectures and the purego build tag). The loops
// below are the definition: the kernels return the same bits.

// thrFactor loosens selectPass's division-free exclusion test (see
// selectTail).
const thrFactor = 1 - 1e-9

// updateTail adds float64(ki[k])·di + float64(kj[k])·dj to g[k] for every
// k, and continues the running maximum (gmax, gidx) of −g_k over the k
// with inUp in fl (the last k on ties, ≥ as LIBSVM). Positions are
// reported as k+off. ki, kj and fl have at least len(g) entries.
func updateTail(g []float64, fl []uint8, ki, kj []float32, di, dj float64, off int, gmax float64, gidx int) (float64, int) {
	fl, ki, kj = fl[:len(g)], ki[:len(g)], kj[:len(g)]
	for k := range g {
		// Two products rounded, then two sums (no fused multiply-add: the
		// explicit conversions forbid fusing on any GOAMD64 level).
		v := g[k] + (float64(float64(ki[k])*di) + float64(float64(kj[k])*dj))
		g[k] = v
		if -v >= gmax && fl[k]&inUp != 0 { // rarely true first: see selectTail
			gmax, gidx = -v, k+off
		}
	}
	return gmax, gidx
}

// selectTail is the second pass of WSS3 over g (positions k+off), continuing
// from the running values of the positions before: gmax2, the largest g_j
// over I_low (≥: the last one's bits on ties), and (objMin, idx), the last
// j minimising od_j = −gd_j²/quad_j over the j in I_low with
// gd_j = gmax + g_j > 0, quad_j = qdi + qd_j − 2·float64(ki_j) (τ when not
// > 0) and od_j ≤ objMin (idx −1 and objMin +Inf when none).
func selectTail(g []float64, fl []uint8, qd []float64, ki []float32, qdi, gmax float64, off int, gmax2, objMin float64, idx int) (float64, float64, int) {
	fl, qd, ki = fl[:len(g)], qd[:len(g)], ki[:len(g)]
	// thr = −objMin: a candidate can win only if gd²/quad ≥ thr. The
	// division (LIBSVM's exact expression, which decides ties) is done only
	// when the product test, loosened by 1e-9 to absorb its rounding,
	// cannot exclude the candidate.
	thrm := math.Inf(-1) // thr·(1 − 1e-9)
	if idx >= 0 {
		thrm = -objMin * thrFactor
	}
	// The membership test j ∈ I_low, a coin toss for the branch predictor,
	// comes after the tests that rarely pass (a new maximum, a candidate
	// not excluded by the bound): the same candidates, fewer mispredictions.
	for j, gj := range g {
		if gj >= gmax2 && fl[j]&inLow != 0 {
			gmax2 = gj
		}
		gd := gmax + gj
		if gd <= 0 {
			continue
		}
		quad := (qdi + qd[j]) - float64(2.0*float64(ki[j]))
		if !(quad > 0) {
			quad = tau
		}
		gd2 := gd * gd
		if gd2 < float64(thrm*quad) || fl[j]&inLow == 0 {
			continue
		}
		if od := -gd2 / quad; od <= objMin {
			idx, objMin = j+off, od
			thrm = -od * thrFactor
		}
	}
	return gmax2, objMin, idx
}

// axpyTail adds a·float64(x[j]) to dst[j] (x has at least len(dst) entries).
func axpyTail(dst []float64, a float64, x []float32) {
	x = x[:len(dst)]
	for j, v := range x {
		dst[j] += float64(a * float64(v))
	}
}
