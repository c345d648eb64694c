package propagate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
)

// Sentinel errors, usable with errors.Is; returned errors wrap them with what
// and where.
var (
	ErrBadParam    = errors.New("propagate: bad parameter")
	ErrAffinity    = errors.New("propagate: bad affinity")
	ErrShape       = errors.New("propagate: shape mismatch")
	ErrNonFinite   = errors.New("propagate: non-finite value")
	ErrNegative    = errors.New("propagate: negative affinity")
	ErrBadLabel    = errors.New("propagate: bad label")
	ErrNoLabels    = errors.New("propagate: no labelled point")
	ErrNoUnlabeled = errors.New("propagate: every point is labelled")
	ErrOneClass    = errors.New("propagate: labelled points carry a single class")
	ErrEmptyClass  = errors.New("propagate: a class has no labelled point")
	ErrUnreachable = errors.New("propagate: unlabelled points no label can reach")
	// ErrSingular: a linear system (the anchor graph's M×M one) is
	// singular beyond what the solver handles.
	ErrSingular = errors.New("propagate: singular system")
	// ErrNotConverged is wrapped by the warning of a run that stopped at
	// MaxIter (a warning in Model.Warnings, never a returned error).
	ErrNotConverged = errors.New("propagate: not converged")
)

// Affinity kinds.
const (
	RBF         = "rbf"         // W_ij = exp(−Gamma·d²(i,j)), scikit-learn kernel="rbf"
	KNN         = "knn"         // W_ij = 1 if j is among the K nearest of i (i itself included), scikit-learn kernel="knn"
	Kernel      = "kernel"      // W_ij = Kernel(x_i, x_j) (Fit only)
	Precomputed = "precomputed" // W = the matrix given to FitGram
)

// Affinity says how the weight matrix W is built. The zero value is
// scikit-learn's default for Fit (RBF, Gamma 20) and Precomputed for FitGram.
// With FitGram, RBF and KNN use the kernel-induced distance
// d²(i,j) = K_ii + K_jj − 2K_ij of the given matrix, so any kernel (a
// data-dependent one included) defines the graph.
type Affinity struct {
	Kind   string        // RBF, KNN, Kernel, Precomputed; "" = RBF for Fit, Precomputed for FitGram
	Gamma  float64       // RBF width; 0 means 20 (scikit-learn's default)
	K      int           // KNN neighbours, the point itself included; 0 means 7 (scikit-learn)
	Kernel kernel.Kernel // for Kind Kernel
}

// ParseAffinity parses "rbf", "rbf:GAMMA", "knn", "knn:K" or "precomputed".
func ParseAffinity(s string) (Affinity, error) {
	kind, arg, has := strings.Cut(strings.TrimSpace(s), ":")
	switch kind {
	case RBF:
		a := Affinity{Kind: RBF}
		if has {
			g, err := strconv.ParseFloat(arg, 64)
			if err != nil {
				return Affinity{}, fmt.Errorf("%w: %q: gamma %q is not a number", ErrAffinity, s, arg)
			}
			if !(g > 0) || math.IsInf(g, 0) {
				return Affinity{}, fmt.Errorf("%w: %q: gamma = %v, want > 0", ErrBadParam, s, g)
			}
			a.Gamma = g
		}
		return a, a.validate()
	case KNN:
		a := Affinity{Kind: KNN}
		if has {
			k, err := strconv.Atoi(arg)
			if err != nil {
				return Affinity{}, fmt.Errorf("%w: %q: k %q is not an integer", ErrAffinity, s, arg)
			}
			a.K = k
			if k < 1 {
				return Affinity{}, fmt.Errorf("%w: %q: k = %d, want ≥ 1", ErrAffinity, s, k)
			}
		}
		return a, a.validate()
	case Precomputed:
		if !has {
			return Affinity{Kind: Precomputed}, nil
		}
	}
	return Affinity{}, fmt.Errorf("%w: %q (want rbf[:gamma], knn[:k] or precomputed)", ErrAffinity, s)
}

// String returns the form ParseAffinity reads.
func (a Affinity) String() string {
	switch a.Kind {
	case KNN:
		return fmt.Sprintf("knn:%d", a.k())
	case Kernel:
		return fmt.Sprintf("kernel:%T", a.Kernel)
	case Precomputed:
		return Precomputed
	}
	return "rbf:" + strconv.FormatFloat(a.gamma(), 'g', -1, 64)
}

func (a Affinity) gamma() float64 {
	if a.Gamma == 0 {
		return 20
	}
	return a.Gamma
}

func (a Affinity) k() int {
	if a.K == 0 {
		return 7
	}
	return a.K
}

func (a Affinity) validate() error {
	switch a.Kind {
	case "", RBF:
		if a.Gamma < 0 || math.IsNaN(a.Gamma) || math.IsInf(a.Gamma, 0) {
			return fmt.Errorf("%w: rbf gamma = %v, want > 0", ErrBadParam, a.Gamma)
		}
	case KNN:
		if a.K < 0 {
			return fmt.Errorf("%w: knn k = %d, want ≥ 1", ErrBadParam, a.K)
		}
	case Kernel:
		if err := kernel.Check(a.Kernel); err != nil {
			return fmt.Errorf("%w: %v", ErrBadParam, err)
		}
	case Precomputed:
	default:
		return fmt.Errorf("%w: kind %q", ErrAffinity, a.Kind)
	}
	return nil
}

// Methods.
const (
	Closed    = "closed"    // solve the linear system (conjugate gradients)
	Iterative = "iterative" // scikit-learn's iteration
)

// Unreachable policies.
const (
	UnreachableError     = "error"     // return ErrUnreachable listing the points (default)
	UnreachableUnlabeled = "unlabeled" // leave them learner.Unlabeled, add a warning
	UnreachableFirst     = "first"     // give them class 0, as scikit-learn's argmax of a zero row; add a warning
)

// Propagation holds label-propagation settings (Zhu & Ghahramani 2002; paper
// 002 §3; scikit-learn's LabelPropagation). It is never mutated.
type Propagation struct {
	Affinity Affinity
	// Method is Closed (default) or Iterative.
	Method string
	// Tol: Iterative stops when Σ|F_t − F_{t−1}| < Tol (default 1e-3, as
	// scikit-learn); Closed stops when every column's relative residual
	// ‖b − A·f‖/‖b‖ ≤ Tol (default 1e-10) and then requires every point's
	// harmonic defect |f_i − Σ_j W_ij f_j / d_i| ≤ max(1e-6, Tol): the
	// closed form is the iterative method's fixed point, or an error
	// wrapping ErrNotConverged (never a partial solve with a warning).
	Tol float64
	// MaxIter bounds the iterations (default 1000 for Iterative, as
	// scikit-learn; for Closed, the number of unlabelled points + 100;
	// reaching it is an error for Closed, a warning for Iterative).
	MaxIter int
	// Classes is the number of classes C (labels 0..C-1); 0 means 1 + the
	// largest label. Every class must have a labelled point.
	Classes int
	// Threshold is the multi-label cut of Model.Sets (0 means 0.5).
	Threshold float64
	// Unreachable is UnreachableError (default, "") or UnreachableUnlabeled.
	Unreachable string
	// Progress, if not nil, is called as ("affinity"|"solve"|"iterate", done, total).
	Progress func(stage string, done, total int)

	noDirect bool // tests: skip the envelope LU of sparse graphs
}

func (p Propagation) validate() error {
	if err := p.Affinity.validate(); err != nil {
		return err
	}
	switch p.Method {
	case "", Closed, Iterative:
	default:
		return fmt.Errorf("%w: method %q (want closed or iterative)", ErrBadParam, p.Method)
	}
	return checkCommon(p.Tol, p.MaxIter, p.Classes, p.Threshold, p.Unreachable)
}

func checkCommon(tol float64, maxIter, classes int, thr float64, unr string) error {
	if tol < 0 || math.IsNaN(tol) {
		return fmt.Errorf("%w: Tol = %v, want ≥ 0", ErrBadParam, tol)
	}
	if maxIter < 0 {
		return fmt.Errorf("%w: MaxIter = %d, want ≥ 0", ErrBadParam, maxIter)
	}
	if classes < 0 {
		return fmt.Errorf("%w: Classes = %d, want ≥ 0", ErrBadParam, classes)
	}
	if thr < 0 || thr > 1 || math.IsNaN(thr) {
		return fmt.Errorf("%w: Threshold = %v, want in (0, 1]", ErrBadParam, thr)
	}
	switch unr {
	case "", UnreachableError, UnreachableUnlabeled, UnreachableFirst:
	default:
		return fmt.Errorf("%w: Unreachable = %q (want error, unlabeled or first)", ErrBadParam, unr)
	}
	return nil
}

// Spreading holds label-spreading settings (Zhou, Bousquet, Lal, Weston &
// Schölkopf 2004; scikit-learn's LabelSpreading). It is never mutated.
type Spreading struct {
	Affinity Affinity
	// Alpha in (0, 1) is the fraction of a point's scores taken from its
	// neighbours each step; 0 means 0.2 (scikit-learn).
	Alpha float64
	// Method is Iterative (default, as scikit-learn) or Closed (the fixed
	// point (1−α)(I − αS)⁻¹Y by conjugate gradients).
	Method string
	// Tol: as Propagation; default 1e-3 (Iterative), 1e-13 (Closed).
	Tol float64
	// MaxIter: default 30 (Iterative, scikit-learn), n + 100 (Closed).
	MaxIter int
	// Classes, Unreachable, Progress: as Propagation.
	Classes     int
	Unreachable string
	Progress    func(stage string, done, total int)

	inductive bool // FitKNN: every point labelled is allowed (the model is kept for new points)
}

func (s Spreading) validate() error {
	if err := s.Affinity.validate(); err != nil {
		return err
	}
	if s.Alpha < 0 || s.Alpha >= 1 || math.IsNaN(s.Alpha) {
		return fmt.Errorf("%w: Alpha = %v, want in (0, 1)", ErrBadParam, s.Alpha)
	}
	switch s.Method {
	case "", Closed, Iterative:
	default:
		return fmt.Errorf("%w: method %q (want closed or iterative)", ErrBadParam, s.Method)
	}
	return checkCommon(s.Tol, s.MaxIter, s.Classes, 0, s.Unreachable)
}

func (s Spreading) alpha() float64 {
	if s.Alpha == 0 {
		return 0.2
	}
	return s.Alpha
}
