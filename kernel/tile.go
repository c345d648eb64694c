package kernel

// Register-blocked accumulation of pairwise sums for the built-in kernels:
// out_i[j] = Σ_l term(a_il, b_jl) with term x·y, (x-y)² or |x-y|, summed
// in order l = 0..d-1 with one accumulator per pair. Two rows of A are
// paired with four rows of B at a time (eight independent sums, six loads
// per step), and B is walked in tiles that stay in cache. Every entry gets
// the same operations in the same order whichever path computes it, so
// results do not depend on the blocking or on GOMAXPROCS.

import "math"

type accKind int

const (
	accDot accKind = iota
	accSq
	accL1
)

// jTile is the number of B rows per cache tile.
const jTile = 96

// accOne returns the sum for one pair.
func accOne(kind accKind, x, y []float64) float64 {
	y = y[:len(x)]
	s := 0.0
	switch kind {
	case accDot:
		for l, v := range x {
			s += v * y[l]
		}
	case accSq:
		for l, v := range x {
			t := v - y[l]
			s += t * t
		}
	default:
		for l, v := range x {
			t := v - y[l]
			s += math.Abs(t)
		}
	}
	return s
}

// accRows fills out(i)[j] for rows i in [i0, i1) of a and columns j in
// [lo(i), b.n) of b, where lo is non-decreasing in i.
func accRows(kind accKind, a, b rows, i0, i1 int, lo func(int) int, out func(int) []float64) {
	if i0 >= i1 {
		return
	}
	d := a.d
	jmin := lo(i0)
	for jt := jmin; jt < b.n; jt += jTile {
		je := min(jt+jTile, b.n)
		i := i0
		for ; i+1 < i1; i += 2 {
			o0, o1 := out(i), out(i+1)
			x0, x1 := a.row(i), a.row(i+1)
			l0, l1 := lo(i), lo(i+1)
			// Row i alone on [l0, l1).
			for j := max(jt, l0); j < min(je, l1); j++ {
				o0[j] = accOne(kind, x0, b.row(j))
			}
			j := max(jt, l1)
			for ; j+4 <= je; j += 4 {
				acc2x4(kind, d, x0, x1, b.row(j), b.row(j+1), b.row(j+2), b.row(j+3), o0[j:j+4], o1[j:j+4])
			}
			for ; j < je; j++ {
				y := b.row(j)
				o0[j] = accOne(kind, x0, y)
				o1[j] = accOne(kind, x1, y)
			}
		}
		if i < i1 {
			o, x := out(i), a.row(i)
			j := max(jt, lo(i))
			for ; j+4 <= je; j += 4 {
				acc1x4(kind, d, x, b.row(j), b.row(j+1), b.row(j+2), b.row(j+3), o[j:j+4])
			}
			for ; j < je; j++ {
				o[j] = accOne(kind, x, b.row(j))
			}
		}
	}
}

// acc2x4 computes the eight sums of rows x0, x1 against y0..y3.
func acc2x4(kind accKind, d int, x0, x1, y0, y1, y2, y3, o0, o1 []float64) {
	x0, x1 = x0[:d], x1[:d]
	y0, y1, y2, y3 = y0[:d], y1[:d], y2[:d], y3[:d]
	o0, o1 = o0[:4], o1[:4]
	var s00, s01, s02, s03, s10, s11, s12, s13 float64
	switch kind {
	case accDot:
		for l := 0; l < d; l++ {
			a0, a1 := x0[l], x1[l]
			b0, b1, b2, b3 := y0[l], y1[l], y2[l], y3[l]
			s00 += a0 * b0
			s01 += a0 * b1
			s02 += a0 * b2
			s03 += a0 * b3
			s10 += a1 * b0
			s11 += a1 * b1
			s12 += a1 * b2
			s13 += a1 * b3
		}
	case accSq:
		for l := 0; l < d; l++ {
			a0, a1 := x0[l], x1[l]
			b0, b1, b2, b3 := y0[l], y1[l], y2[l], y3[l]
			t00, t01, t02, t03 := a0-b0, a0-b1, a0-b2, a0-b3
			t10, t11, t12, t13 := a1-b0, a1-b1, a1-b2, a1-b3
			s00 += t00 * t00
			s01 += t01 * t01
			s02 += t02 * t02
			s03 += t03 * t03
			s10 += t10 * t10
			s11 += t11 * t11
			s12 += t12 * t12
			s13 += t13 * t13
		}
	default:
		for l := 0; l < d; l++ {
			a0, a1 := x0[l], x1[l]
			b0, b1, b2, b3 := y0[l], y1[l], y2[l], y3[l]
			s00 += math.Abs(a0 - b0)
			s01 += math.Abs(a0 - b1)
			s02 += math.Abs(a0 - b2)
			s03 += math.Abs(a0 - b3)
			s10 += math.Abs(a1 - b0)
			s11 += math.Abs(a1 - b1)
			s12 += math.Abs(a1 - b2)
			s13 += math.Abs(a1 - b3)
		}
	}
	o0[0], o0[1], o0[2], o0[3] = s00, s01, s02, s03
	o1[0], o1[1], o1[2], o1[3] = s10, s11, s12, s13
}

// acc1x4 computes the four sums of row x against y0..y3.
func acc1x4(kind accKind, d int, x, y0, y1, y2, y3, o []float64) {
	x = x[:d]
	y0, y1, y2, y3 = y0[:d], y1[:d], y2[:d], y3[:d]
	o = o[:4]
	var s0, s1, s2, s3 float64
	switch kind {
	case accDot:
		for l, a := range x {
			s0 += a * y0[l]
			s1 += a * y1[l]
			s2 += a * y2[l]
			s3 += a * y3[l]
		}
	case accSq:
		for l, a := range x {
			t0, t1, t2, t3 := a-y0[l], a-y1[l], a-y2[l], a-y3[l]
			s0 += t0 * t0
			s1 += t1 * t1
			s2 += t2 * t2
			s3 += t3 * t3
		}
	default:
		for l, a := range x {
			s0 += math.Abs(a - y0[l])
			s1 += math.Abs(a - y1[l])
			s2 += math.Abs(a - y2[l])
			s3 += math.Abs(a - y3[l])
		}
	}
	o[0], o[1], o[2], o[3] = s0, s1, s2, s3
}
