// Package vec holds small dense-vector kernels shared by several packages,
// with a fixed, documented summation order so that results are
// reproducible bit for bit.
//
// Squared Euclidean distances in SciPy's order are distance.SqDist and
// distance.Dist; kernel keeps its own four-accumulator squared and L1
// distances, which sum in a different order on purpose (see kernel/point.go).
package vec

// Dot returns Σ x_i·y_i with four independent accumulators: s_r sums the
// products at indices i ≡ r (mod 4) of the first 4·⌊n/4⌋ entries, in
// increasing i, the tail is added to s_0, and the result is
// (s_0 + s_1) + (s_2 + s_3). The order is fixed, so results do not depend on
// the caller or the machine (no fused multiply-add on amd64). y must be at
// least as long as x; O(len(x)).
func Dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}
