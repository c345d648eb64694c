package s4vm

import (
	"math"
	"slices"
)

// safeCombine is step 4 of S4VM (RSSL's linearProgramming): over the u
// unlabelled rows, with the kept separators sep[t] (±1 each) and the
// inductive SVM's labels ysvm, it solves
//
//	max θ  s.t.  θ ≤ a_t·y + C_t  (every t),  y ∈ [−1, 1]^u,
//	a_tj = ((1+λ)ŷ_tj − (1−λ)ysvm_j)/4,  C_t = (1−λ)u/4 − (1+λ)ŷ_t·ysvm/4,
//
// exactly, by a bounded-variable simplex on the rows grouped by their
// pattern (ŷ_1j, ..., ŷ_mj, ysvm_j): rows with one pattern are
// interchangeable, so the program has one variable per distinct pattern.
// Among optimal y it returns the one of least norm (the reference adds a
// 1e-8 ridge to a QP solver for the same effect): the rows whose reduced
// cost is zero get the smallest values that keep θ optimal. The labels are
// sign(y) with sign(0) = +1 when θ ≥ −1e-5, else ysvm (fallback). It
// returns the labels, θ and whether it fell back.
func safeCombine(dst []int8, sep [][]int8, ysvm []int8, lambda float64) (theta float64, fallback bool) {
	u, m := len(ysvm), len(sep)
	// Group the rows by pattern.
	key := make([]uint64, u)
	for j := range u {
		var k uint64
		for t := range m {
			if sep[t][j] > 0 {
				k |= 1 << t
			}
		}
		if ysvm[j] > 0 {
			k |= 1 << m
		}
		key[j] = k
	}
	uniq := slices.Clone(key)
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	P := len(uniq)
	pat := make([]int, u)
	cnt := make([]float64, P)
	for j, k := range key {
		p, _ := slices.BinarySearch(uniq, k)
		pat[j] = p
		cnt[p]++
	}
	sgn := func(k uint64, bit int) float64 {
		if k&(1<<bit) != 0 {
			return 1
		}
		return -1
	}
	// A[t][p] = n_p·a_tp; C_t.
	A := make([][]float64, m)
	C := make([]float64, m)
	for t := range m {
		A[t] = make([]float64, P)
		for p, k := range uniq {
			A[t][p] = cnt[p] * ((1+lambda)*sgn(k, t) - (1-lambda)*sgn(k, m)) / 4
		}
		dot := 0.0
		for j := range u {
			dot += float64(sep[t][j]) * float64(ysvm[j])
		}
		C[t] = (1-lambda)*float64(u)/4 - (1+lambda)*dot/4
	}
	z, th, red := maxMin(A, C)
	minNorm(z, red, A, C, cnt, th)
	if th < -1e-5 {
		copy(dst, ysvm)
		return th, true
	}
	for j := range u {
		if z[pat[j]] < 0 {
			dst[j] = -1
		} else {
			dst[j] = 1
		}
	}
	return th, false
}

// lpTol is the simplex's feasibility and optimality tolerance (the data
// are multiples of 1/4 times counts ≤ u, so values are far from it).
const lpTol = 1e-9

// maxMin solves max θ s.t. θ ≤ Σ_p A[t][p]·z_p + C[t], z ∈ [−1, 1]^P, by
// the bounded-variable primal simplex with Bland's rule. Variables: 0 = θ
// (free), 1..P = z, P+1..P+m = slacks (≥ 0) of θ − A_t·z + s_t = C_t. It
// returns z, θ and the reduced costs of z (d_p = Σ_t μ_t A[t][p] with μ
// the optimal dual; z_p is at +1 where d_p > 0 and at −1 where d_p < 0).
func maxMin(A [][]float64, C []float64) (z []float64, theta float64, red []float64) {
	m, P := len(A), len(A[0])
	N := 1 + P + m
	lo := make([]float64, N)
	hi := make([]float64, N)
	x := make([]float64, N)
	lo[0], hi[0] = math.Inf(-1), math.Inf(1)
	for p := 1; p <= P; p++ {
		lo[p], hi[p], x[p] = -1, 1, -1
	}
	for t := range m {
		lo[1+P+t], hi[1+P+t] = 0, math.Inf(1)
	}
	// Tableau rows: B⁻¹[A | I] with the constraint matrix [1, −A_t, e_t].
	tab := make([][]float64, m)
	rhs := make([]float64, m) // C_t − Σ_p (−A_tp)·x_p for the nonbasic z at −1
	tr := 0
	for t := range m {
		row := make([]float64, N)
		row[0] = 1
		s := C[t]
		for p := range P {
			row[1+p] = -A[t][p]
			s += A[t][p] * x[1+p]
		}
		row[1+P+t] = 1
		tab[t] = row
		rhs[t] = s
		if s < rhs[tr] {
			tr = t
		}
	}
	// θ basic in row tr (θ = min_t rhs), slacks basic elsewhere.
	basis := make([]int, m)
	isBasic := make([]bool, N)
	pivot := func(r, j int) {
		pr := tab[r]
		pv := pr[j]
		for k := range pr {
			pr[k] /= pv
		}
		for t := range m {
			if t == r {
				continue
			}
			if f := tab[t][j]; f != 0 {
				row := tab[t]
				for k := range row {
					row[k] -= f * pr[k]
				}
			}
		}
		isBasic[basis[r]] = false
		basis[r] = j
		isBasic[j] = true
	}
	for t := range m {
		basis[t] = 1 + P + t
		isBasic[1+P+t] = true
	}
	pivot(tr, 0)
	// Basic values from the nonbasic ones.
	values := func() {
		for t := range m {
			s := C[t]
			for j := range N {
				if !isBasic[j] && x[j] != 0 {
					// original row t: θ − A_t·z + s_t = C_t
					var a float64
					switch {
					case j == 0:
						a = 1
					case j <= P:
						a = -A[t][j-1]
					case j == 1+P+t:
						a = 1
					}
					s -= a * x[j]
				}
			}
			rhs[t] = s
		}
		// Solve B·x_B = rhs via the tableau: x_B = B⁻¹rhs = tab's slack columns · rhs.
		for r := range m {
			v := 0.0
			for t := range m {
				v += tab[r][1+P+t] * rhs[t]
			}
			x[basis[r]] = v
		}
	}
	values()
	for iter := 0; iter < 50*(N+m); iter++ {
		// Reduced costs d_j = c_j − c_B·(B⁻¹A)_j with c = e_θ.
		enter, dir := -1, 0.0
		for j := 1; j < N; j++ {
			if isBasic[j] {
				continue
			}
			d := -cB(tab, basis, j)
			if d > lpTol && x[j] < hi[j] {
				enter, dir = j, 1
				break
			}
			if d < -lpTol && x[j] > lo[j] {
				enter, dir = j, -1
				break
			}
		}
		if enter < 0 {
			break
		}
		// Ratio test: x_B(δ) = x_B − dir·δ·col.
		step := hi[enter] - lo[enter]
		leave := -1
		for r := range m {
			a := dir * tab[r][enter]
			b := basis[r]
			var s float64
			switch {
			case a > lpTol && !math.IsInf(lo[b], -1):
				s = (x[b] - lo[b]) / a
			case a < -lpTol && !math.IsInf(hi[b], 1):
				s = (hi[b] - x[b]) / -a
			default:
				continue
			}
			s = max(s, 0)
			if s < step || (s == step && leave >= 0 && b < basis[leave]) {
				step, leave = s, r
			}
		}
		x[enter] += dir * step
		if leave < 0 {
			// bound flip
			values()
			continue
		}
		b := basis[leave]
		if dir*tab[leave][enter] > 0 {
			x[b] = lo[b]
		} else {
			x[b] = hi[b]
		}
		pivot(leave, enter)
		values()
	}
	z = slices.Clone(x[1 : 1+P])
	red = make([]float64, P)
	for p := range P {
		red[p] = -cB(tab, basis, 1+p)
	}
	return z, x[0], red
}

// cB is c_B·(B⁻¹A)_j for c = e_θ: the entry of column j in θ's row.
func cB(tab [][]float64, basis []int, j int) float64 {
	for r, b := range basis {
		if b == 0 {
			return tab[r][j]
		}
	}
	return 0
}

// minNorm replaces the optimal z by the optimal one of least weighted
// norm Σ_p n_p z_p². Variables with a nonzero reduced cost are at their
// bound in every optimum; the others (free) are set to the least-norm
// values that keep every constraint at θ: z_F = 0 when that is feasible,
// else the solution of min Σ n_p z_p² s.t. A_F z_F ≥ r, |z| ≤ 1, by
// projected gradient ascent on its dual (m multipliers).
func minNorm(z, red []float64, A [][]float64, C, cnt []float64, theta float64) {
	m, P := len(A), len(z)
	scale := 1.0
	for _, v := range cnt {
		scale = max(scale, v)
	}
	free := make([]bool, P)
	for p := range P {
		if math.Abs(red[p]) <= 1e-9*scale {
			free[p] = true
		} else if red[p] > 0 {
			z[p] = 1
		} else {
			z[p] = -1
		}
	}
	r := make([]float64, m)
	need := false
	for t := range m {
		s := theta - C[t]
		for p := range P {
			if !free[p] {
				s -= A[t][p] * z[p]
			}
		}
		r[t] = s
		if s > 1e-9*scale {
			need = true
		}
	}
	if !need {
		for p := range P {
			if free[p] {
				z[p] = 0
			}
		}
		return
	}
	// a_tp = A_tp/n_p; z_p(ν) = clip(Σ_t ν_t a_tp, −1, 1).
	L := 0.0
	for p := range P {
		if !free[p] {
			continue
		}
		s := 0.0
		for t := range m {
			a := A[t][p] / cnt[p]
			s += a * a
		}
		L += cnt[p] * s
	}
	nu := make([]float64, m)
	zf := make([]float64, P)
	for range 20000 {
		for p := range P {
			if !free[p] {
				continue
			}
			s := 0.0
			for t := range m {
				s += nu[t] * A[t][p] / cnt[p]
			}
			zf[p] = min(max(s, -1), 1)
		}
		moved := 0.0
		for t := range m {
			g := r[t]
			for p := range P {
				if free[p] {
					g -= A[t][p] * zf[p]
				}
			}
			v := max(nu[t]+g/L, 0)
			moved = max(moved, math.Abs(v-nu[t]))
			nu[t] = v
		}
		if moved < 1e-12 {
			break
		}
	}
	for p := range P {
		if free[p] {
			z[p] = zf[p]
		}
	}
}
