package svcluster

import (
	"fmt"
	"math"
	"strings"

	"github.com/arbor-ml/arbor/distance"
)

// KernelKind selects the kernel of the enclosing sphere.
type KernelKind int

const (
	// Gaussian is K(x, y) = exp(-q‖x−y‖²), paper 001 eq. (6)
	// (kernel.RBF{Gamma: q}).
	Gaussian KernelKind = iota
	// Exponential is K(x, y) = exp(-q‖x−y‖), paper 001 eq. (7) with q' = q,
	// which the paper calls "Laplacian" (kernel.Exponential{Gamma: q}; Arbor's
	// and scikit-learn's laplacian is the L1 kernel exp(-q‖x−y‖₁)).
	Exponential
)

// String returns "gaussian" or "exponential", the names of package kernel.
func (k KernelKind) String() string {
	switch k {
	case Gaussian:
		return "gaussian"
	case Exponential:
		return "exponential"
	}
	return fmt.Sprintf("KernelKind(%d)", int(k))
}

// ParseKernel accepts "gaussian" (or "rbf") and "exponential"; the paper's
// word "laplacian" is accepted for Exponential and reported by PaperAlias.
func ParseKernel(s string) (KernelKind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "gaussian", "rbf":
		return Gaussian, nil
	case "exponential", "laplacian":
		return Exponential, nil
	}
	return 0, fmt.Errorf("%w %q (want gaussian or exponential; the paper's laplacian is exponential)", ErrBadKernel, s)
}

// PaperAlias returns, for a kernel name that is paper 001's word rather
// than package kernel's, a note saying what it maps to; "" otherwise.
func PaperAlias(s string) string {
	if strings.EqualFold(strings.TrimSpace(s), "laplacian") {
		return `the paper's "laplacian" kernel exp(-q‖x−y‖) is Arbor's exponential (Arbor's laplacian is the L1 kernel exp(-γ‖x−y‖₁))`
	}
	return ""
}

func (k KernelKind) valid() bool { return k == Gaussian || k == Exponential }

// eval returns K as a function of the squared distance d2.
func (k KernelKind) eval(q, d2 float64) float64 {
	if k == Gaussian {
		return math.Exp(-q * d2)
	}
	if d2 < 0 {
		d2 = 0
	}
	return math.Exp(-q * math.Sqrt(d2))
}

// sphere is what cluster labelling needs from a fitted support vector domain
// description: R²(x) of eq. (10) at any point and the squared radius R² of
// eq. (11). A point is inside the contour (12) when Dist2(x) ≤ Radius2().
type sphere interface {
	Dist2(x []float64) float64
	Radius2() float64
}

// ball is the sphere of a fitted SVDD written as its kernel expansion
// a = Σ_k β_k Φ(c_k) over the centres c_k with β_k > 0 (support vectors and
// bounded support vectors). Both kernels have K(x, x) = 1, so
//
//	R²(x) = 1 − 2 f(x) + βᵀKβ,   f(x) = Σ_k β_k K(c_k, x),
//
// and R²(x) ≤ R² ⟺ f(x) ≥ θ with θ = (1 + βᵀKβ − R²)/2.
type ball struct {
	kind KernelKind
	q    float64
	d    int
	cx   []float64 // nc×d centres, row-major
	beta []float64 // nc weights, all > 0
	bKb  float64   // βᵀKβ = ‖a‖²
	r2   float64   // R²
}

var _ sphere = (*ball)(nil)

// newBall builds a ball from centres and weights; bKb is computed here.
func newBall(kind KernelKind, q float64, d int, cx, beta []float64, r2 float64) *ball {
	b := &ball{kind: kind, q: q, d: d, cx: cx, beta: beta, r2: r2}
	b.bKb = b.quadForm()
	return b
}

// quadForm returns βᵀKβ over the centres. O(n_c²·d).
func (b *ball) quadForm() float64 {
	cx, beta, d, q, kind := b.cx, b.beta, b.d, b.q, b.kind
	nc := len(beta)
	s := 0.0
	for i := 0; i < nc; i++ {
		ci := cx[i*d : i*d+d]
		row := 0.0
		for j := 0; j < nc; j++ {
			row += beta[j] * kind.eval(q, distance.SqDist(ci, cx[j*d:j*d+d]))
		}
		s += beta[i] * row
	}
	return s
}

func (b *ball) nc() int { return len(b.beta) }

// f returns Σ_k β_k K(c_k, x).
func (b *ball) f(x []float64) float64 {
	s := 0.0
	d := b.d
	for k, bk := range b.beta {
		s += bk * b.kind.eval(b.q, distance.SqDist(x, b.cx[k*d:k*d+d]))
	}
	return s
}

// slack is the tolerance for points on the sphere: inside ⟺
// R²(x) ≤ R² + slack, slack = 1e-9·max(1, R²) (as svm.SVDDModel.Inside).
func (b *ball) slack() float64 { return 1e-9 * max(1, b.r2) }

// theta is the threshold on f: inside ⟺ f(x) ≥ θ = (1 + βᵀKβ − R² − slack)/2.
func (b *ball) theta() float64 { return (1 + b.bKb - b.r2 - b.slack()) / 2 }

// Dist2 is R²(x) of eq. (10).
func (b *ball) Dist2(x []float64) float64 { return 1 - 2*b.f(x) + b.bKb }

// Radius2 is R² of eq. (11) plus the slack for points on the sphere.
func (b *ball) Radius2() float64 { return b.r2 + b.slack() }
