package smo

// Feasible makes alpha a feasible start for labels y and bounds c in place:
// it clips α_i to [0, c_i], then removes the excess of the heavier side of
// yᵀα = 0 (Σ_{y=+1}α ≠ Σ_{y=−1}α) from that side's variables, taken in
// the given order (nil: index order), so that yᵀα = 0 holds up to
// rounding. The variables it does not need to touch keep their values,
// which is what a warm start wants.
func Feasible(y []int8, c, alpha []float64, order []int) {
	var pos, neg float64
	for i, a := range alpha {
		a = min(max(a, 0), c[i])
		alpha[i] = a
		if y[i] > 0 {
			pos += a
		} else {
			neg += a
		}
	}
	excess, side := pos-neg, int8(1)
	if excess < 0 {
		excess, side = -excess, -1
	}
	for k := range alpha {
		if excess <= 0 {
			break
		}
		i := k
		if order != nil {
			i = order[k]
		}
		a := alpha[i]
		if y[i] != side || a == 0 {
			continue
		}
		d := min(a, excess)
		alpha[i] = a - d
		excess -= d
	}
}
