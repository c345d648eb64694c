package gemm

import "math"

// DotAxpy4 makes one pass over four rows a_r = a[r·lda : r·lda+n]
// (r = 0..3) for a symmetric matrix–vector product from the upper
// triangle, where each stored row serves as a row and as a column: it
// returns d_r = Σ_j a_r[j]·x[j] and adds Σ_r a_r[j]·s[r] to y[j] for every
// j < n. It panics if a, x or y is too short.
//
// Arithmetic (the same bits on every kernel and GOMAXPROCS):
// y_j ← fma(a_3j, s_3, fma(a_2j, s_2, fma(a_1j, s_1, fma(a_0j, s_0, y_j))));
// d_r is formed over the first n₈ = 8⌊n/8⌋ columns in eight partial sums
// p_l = fma(a_rj, x_j, p_l), j ≡ l (mod 8), in increasing j from p_l = 0,
// combined as ((p_0+p_4)+(p_2+p_6)) + ((p_1+p_5)+(p_3+p_7)), then the
// remaining columns are added in order, d_r = fma(a_rj, x_j, d_r).
func DotAxpy4(n int, a []float64, lda int, x, y []float64, s [4]float64) [4]float64 {
	if n <= 0 {
		return [4]float64{}
	}
	_, _, _ = a[3*lda+n-1], x[n-1], y[n-1]
	n8 := n &^ 7
	var d [4]float64
	if n8 > 0 {
		if haveDotAxpy4 {
			dotAxpy4Asm(n8, &a[0], lda, &x[0], &y[0], &s, &d)
		} else {
			d = dotAxpy4Go(n8, a, lda, x, y, s)
		}
	}
	for j := n8; j < n; j++ {
		a0, a1, a2, a3 := a[j], a[lda+j], a[2*lda+j], a[3*lda+j]
		d[0] = math.FMA(a0, x[j], d[0])
		d[1] = math.FMA(a1, x[j], d[1])
		d[2] = math.FMA(a2, x[j], d[2])
		d[3] = math.FMA(a3, x[j], d[3])
		y[j] = math.FMA(a3, s[3], math.FMA(a2, s[2], math.FMA(a1, s[1], math.FMA(a0, s[0], y[j]))))
	}
	return d
}

// dotAxpy4Go is DotAxpy4's vector part (n a multiple of 8) in Go.
func dotAxpy4Go(n int, a []float64, lda int, x, y []float64, s [4]float64) [4]float64 {
	var p [4][8]float64
	for j0 := 0; j0 < n; j0 += 8 {
		for l := range 8 {
			j := j0 + l
			yj := y[j]
			for r := range 4 {
				arj := a[r*lda+j]
				p[r][l] = math.FMA(arj, x[j], p[r][l])
				yj = math.FMA(arj, s[r], yj)
			}
			y[j] = yj
		}
	}
	var d [4]float64
	for r := range 4 {
		q := &p[r]
		d[r] = ((q[0] + q[4]) + (q[2] + q[6])) + ((q[1] + q[5]) + (q[3] + q[7]))
	}
	return d
}
