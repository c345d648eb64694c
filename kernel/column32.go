package kernel

import "math"

// Column32 is the optional fast path of a point kernel for one kernel
// column rounded to float32, the form in which the SVM's column cache
// stores it (LIBSVM's Qfloat):
//
//	dst[t] = float32(K(x, X[rows[t]·stride : rows[t]·stride+len(x)]))
//
// X is row-major with the given stride. The values equal float32(Eval)
// except where Eval's value lies within about 10⁻¹⁶ (relative) of a float32
// rounding boundary (the implementations may use a different, equally
// accurate exp). Callers discover it by type assertion.
type Column32 interface {
	Column32(dst []float32, x, X []float64, stride int, rows []int)
}

var (
	_ Column32 = RBF{}
	_ Column32 = Laplacian{}
	_ Column32 = Exponential{}
)

// Column32 computes exp(−Gamma·‖x − X_r‖²) for the rows r in rows. The
// loop is sqDist and expNegFast written out (neither is inlined by the
// compiler): the same operations in the same order, so the same values.
func (k RBF) Column32(dst []float32, x, X []float64, stride int, rows []int) {
	tab := expTab()
	dst = dst[:len(rows)]
	d := len(x)
	g := -k.Gamma
	for t, r := range rows {
		y := X[r*stride : r*stride+d]
		var s0, s1, s2, s3 float64
		i := 0
		for ; i+4 <= d; i += 4 {
			d0 := x[i] - y[i]
			d1 := x[i+1] - y[i+1]
			d2 := x[i+2] - y[i+2]
			d3 := x[i+3] - y[i+3]
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
			s3 += d3 * d3
		}
		for ; i < d; i++ {
			d := x[i] - y[i]
			s0 += d * d
		}
		z := g * ((s0 + s1) + (s2 + s3))
		if !(z >= -708 && z <= 0) {
			dst[t] = float32(math.Exp(z))
			continue
		}
		kd := z*expInvN + expShift
		ki := math.Float64bits(kd)
		kd -= expShift
		rr := (z - kd*expHiN) - kd*expLoN
		j := 2 * (ki % expN)
		tau := math.Float64frombits(tab[j])
		sc := math.Float64frombits(tab[j+1] + ki<<(52-expBits))
		r2 := rr * rr
		p := tau + rr + r2*(0.5+rr*(1.0/6)) + r2*r2*(1.0/24+rr*(1.0/120))
		dst[t] = float32(sc + sc*p)
	}
}

// Column32 computes exp(−Gamma·‖x − X_r‖₁) for the rows r in rows.
func (k Laplacian) Column32(dst []float32, x, X []float64, stride int, rows []int) {
	tab := expTab()
	dst = dst[:len(rows)]
	d := len(x)
	for t, r := range rows {
		dst[t] = float32(expNegFast(-k.Gamma*l1Dist(x, X[r*stride:r*stride+d]), tab))
	}
}

// Column32 computes exp(−Gamma·‖x − X_r‖₂) for the rows r in rows.
func (k Exponential) Column32(dst []float32, x, X []float64, stride int, rows []int) {
	tab := expTab()
	dst = dst[:len(rows)]
	d := len(x)
	for t, r := range rows {
		dst[t] = float32(expNegFast(-k.Gamma*math.Sqrt(sqDist(x, X[r*stride:r*stride+d])), tab))
	}
}
