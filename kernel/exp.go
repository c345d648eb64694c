package kernel

import "math"

// Constants of the FreeBSD / Go exp algorithm (Remez polynomial on
// [-ln2/2, ln2/2], error < 1 ulp).
const (
	expLn2Hi = 6.93147180369123816490e-01
	expLn2Lo = 1.90821492927058770002e-10
	expLog2e = 1.44269504088896338700e+00
	expP1    = 1.66666666666666657415e-01
	expP2    = -2.77777777770155933842e-03
	expP3    = 6.61375632143793436117e-05
	expP4    = -1.65339022054652515390e-06
	expP5    = 4.13813679705723846039e-08
)

// expNeg returns e^x for x ≤ 0: math.Exp's pure-Go algorithm, inlinable and
// without the assembly call overhead, about 3× faster in the Gram loops.
// Agrees with math.Exp within 1 ulp (tested); x < -708 (a result near or
// below the smallest normal) and x > 0 defer to math.Exp.
func expNeg(x float64) float64 {
	if !(x >= -708 && x <= 0) {
		return math.Exp(x)
	}
	k := int(x*expLog2e - 0.5)
	hi := x - float64(k)*expLn2Hi
	lo := float64(k) * expLn2Lo
	r := hi - lo
	t := r * r
	c := r - t*(expP1+t*(expP2+t*(expP3+t*(expP4+t*expP5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return math.Float64frombits(math.Float64bits(y) + uint64(int64(k))<<52)
}
