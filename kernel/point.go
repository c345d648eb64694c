package kernel

import (
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/vec"
)

// Point kernels. Each is a small value type whose fields are the parameters
// users know from scikit-learn and LIBSVM; Eval does not validate (it is
// called in hot loops), Gram, Cross and Check do.

// Linear is the dot product k(x, y) = x·y (sklearn linear_kernel).
type Linear struct{}

// Poly is the polynomial kernel k(x, y) = (A·x·y + B)^Degree of paper 000
// §2 (a, b, k there; sklearn polynomial_kernel with gamma = A, coef0 = B).
// It is positive semi-definite for A > 0, B ≥ 0 and integer Degree ≥ 1,
// which validate enforces.
type Poly struct {
	A, B   float64
	Degree int
}

// RBF is the Gaussian kernel k(x, y) = exp(-Gamma·‖x-y‖²) (sklearn
// rbf_kernel; paper 000 §2 with Gamma = 1/(2σ²)). Gamma > 0.
type RBF struct{ Gamma float64 }

// RBFSigma returns the RBF kernel of width sigma: Gamma = 1/(2σ²).
func RBFSigma(sigma float64) RBF { return RBF{Gamma: 1 / (2 * sigma * sigma)} }

// Laplacian is k(x, y) = exp(-Gamma·‖x-y‖₁), scikit-learn's
// laplacian_kernel (Manhattan distance). Gamma > 0.
type Laplacian struct{ Gamma float64 }

// Exponential is k(x, y) = exp(-Gamma·‖x-y‖₂) with the Euclidean norm, the
// kernel paper 001 (Ben-Hur et al.) calls "Laplacian" in Eq. 7 (its q is
// Gamma). Gamma > 0.
type Exponential struct{ Gamma float64 }

var (
	_ Kernel = Linear{}
	_ Kernel = Poly{}
	_ Kernel = RBF{}
	_ Kernel = Laplacian{}
	_ Kernel = Exponential{}
)

// Eval returns x·y.
func (Linear) Eval(x, y []float64) float64 { return vec.Dot(x, y) }

// Eval returns (A·x·y + B)^Degree.
func (k Poly) Eval(x, y []float64) float64 { return powi(k.A*vec.Dot(x, y)+k.B, k.Degree) }

// Eval returns exp(-Gamma·‖x-y‖²).
func (k RBF) Eval(x, y []float64) float64 { return expNeg(-k.Gamma * sqDist(x, y)) }

// Eval returns exp(-Gamma·‖x-y‖₁).
func (k Laplacian) Eval(x, y []float64) float64 { return expNeg(-k.Gamma * l1Dist(x, y)) }

// Eval returns exp(-Gamma·‖x-y‖₂).
func (k Exponential) Eval(x, y []float64) float64 {
	return expNeg(-k.Gamma * math.Sqrt(sqDist(x, y)))
}

func (Linear) validate() error { return nil }

func (k Poly) validate() error {
	switch {
	case !(k.A > 0) || math.IsInf(k.A, 0):
		return fmt.Errorf("%w: poly A = %v, want finite A > 0", ErrBadParam, k.A)
	case !(k.B >= 0) || math.IsInf(k.B, 0):
		return fmt.Errorf("%w: poly B = %v, want finite B ≥ 0", ErrBadParam, k.B)
	case k.Degree < 1:
		return fmt.Errorf("%w: poly Degree = %d, want ≥ 1", ErrBadParam, k.Degree)
	}
	return nil
}

func checkGamma(name string, g float64) error {
	if !(g > 0) || math.IsInf(g, 0) {
		return fmt.Errorf("%w: %s Gamma = %v, want finite Gamma > 0", ErrBadParam, name, g)
	}
	return nil
}

func (k RBF) validate() error         { return checkGamma("rbf", k.Gamma) }
func (k Laplacian) validate() error   { return checkGamma("laplacian", k.Gamma) }
func (k Exponential) validate() error { return checkGamma("exponential", k.Gamma) }

// validator is implemented by this package's kernels.
type validator interface{ validate() error }

// Check validates the parameters of k: a nil kernel, gamma ≤ 0, a poly
// degree < 1, ... return an error wrapping ErrBadParam. Kernels from other
// packages are accepted as they are (only nil is rejected).
func Check(k Kernel) error {
	if k == nil {
		return fmt.Errorf("%w: nil kernel", ErrBadParam)
	}
	if v, ok := k.(validator); ok {
		return v.validate()
	}
	return nil
}

// sqDist returns ‖x-y‖² as the exact sum of squared differences (no
// cancellation, unlike ‖x‖²+‖y‖²-2x·y).
// It keeps four accumulators, like vec.Dot, so its last bits can differ
// from distance.SqDist, which sums in index order to match SciPy's pdist;
// the two are kept apart on purpose so that neither's values change.
func sqDist(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0 := x[i] - y[i]
		d1 := x[i+1] - y[i+1]
		d2 := x[i+2] - y[i+2]
		d3 := x[i+3] - y[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		d := x[i] - y[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

func l1Dist(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(x); i += 2 {
		s0 += math.Abs(x[i] - y[i])
		s1 += math.Abs(x[i+1] - y[i+1])
	}
	for ; i < len(x); i++ {
		s0 += math.Abs(x[i] - y[i])
	}
	return s0 + s1
}

// powi returns b^n for n ≥ 1 by binary powering (exact for n ≤ 2, within a
// few ulps otherwise, like C's pow).
func powi(b float64, n int) float64 {
	switch n {
	case 1:
		return b
	case 2:
		return b * b
	case 3:
		return b * b * b
	}
	if n < 1 {
		return math.Pow(b, float64(n))
	}
	r := 1.0
	for n > 0 {
		if n&1 == 1 {
			r *= b
		}
		b *= b
		n >>= 1
	}
	return r
}
