package svm

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/internal/smo"
	"math"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// SVDD holds the settings of support vector domain description, the
// minimal enclosing sphere in feature space of paper 001 §2 (Ben-Hur, Horn,
// Siegelmann & Vapnik; Tax & Duin 1999):
//
//	min_β  βᵀKβ − Σ_i β_i K_ii   s.t.  Σβ_i = 1,  0 ≤ β_i ≤ C
//
// (the Wolfe dual W of eq. 5/8, negated). Zero Tol, CacheMB and MaxIter
// select the defaults of Classifier.
type SVDD struct {
	// C bounds each β_i; 1/C is the outlier budget: fewer than 1/C points
	// are outside the sphere (Proposition 2.1). C must be ≥ 1/N; C ≥ 1
	// allows no outliers.
	C float64
	// Kernel is used by Fit and Dist2; FitGram ignores it.
	Kernel      kernel.Kernel
	Tol         float64
	CacheMB     float64
	MaxIter     int
	NoShrinking bool
}

// SVDDModel is a fitted sphere.
type SVDDModel struct {
	// Beta holds β_i for every training row (paper 001 eq. 3-4: the centre
	// is a = Σβ_iΦ(x_i)).
	Beta []float64
	// R2 is the squared radius R² (eq. 11): the mean of R²(x_i) over the
	// support vectors 0 < β_i < C; with none, the midpoint of the interval
	// allowed by the KKT conditions (as LIBSVM's ρ).
	R2 float64
	// SV lists rows with 0 < β_i < C (on the sphere), BSV rows with β_i = C
	// (bounded support vectors: the outliers, ξ_i > 0).
	SV, BSV []int
	// BetaKBeta is βᵀKβ = ‖a‖², the last term of eq. 10.
	BetaKBeta float64
	// Objective is βᵀKβ − Σβ_iK_ii = −W at the solution.
	Objective float64
	C         float64
	// Tol is the solver tolerance used (Inside's slack is 2·C·Tol).
	Tol       float64
	Kernel    kernel.Kernel
	Iter      int
	Converged bool
	Warnings  []error

	// Points with β_i > 0 (Fit only) and their β and K(x_i, x_i).
	sx    *mat.Dense
	sRows []int
}

func (s SVDD) settings() Classifier {
	return Classifier{C: 1, Tol: s.Tol, CacheMB: s.CacheMB, MaxIter: s.MaxIter, NoShrinking: s.NoShrinking}
}

func (s SVDD) validate(n int, needKernel bool) error {
	if err := s.settings().validate(false); err != nil {
		return err
	}
	if !(s.C > 0) || math.IsInf(s.C, 0) {
		return fmt.Errorf("%w: SVDD C = %v, want finite C > 0", ErrBadParam, s.C)
	}
	if n > 0 && s.C*float64(n) < 1-1e-12 {
		return fmt.Errorf("%w: SVDD C = %v < 1/N = %v: Σβ = 1 with β ≤ C is infeasible", ErrBadParam, s.C, 1/float64(n))
	}
	if needKernel {
		if err := kernel.Check(s.Kernel); err != nil {
			return fmt.Errorf("%w: %w", ErrBadParam, err)
		}
	}
	return nil
}

// Fit finds the sphere of the rows of X under s.Kernel. Errors:
// ErrBadParam, ErrEmpty, ErrNonFinite, or ctx.Err().
func (s SVDD) Fit(ctx context.Context, X *mat.Dense) (*SVDDModel, error) {
	if err := s.validate(0, true); err != nil {
		return nil, err
	}
	src, n, err := pointSource(X, s.Kernel)
	if err != nil {
		return nil, err
	}
	m, err := s.fit(ctx, src, n)
	if err != nil {
		return nil, err
	}
	m.Kernel = s.Kernel
	_, d := X.Dims()
	for i, b := range m.Beta {
		if b > 0 {
			m.sRows = append(m.sRows, i)
		}
	}
	m.sx = mat.NewDense(len(m.sRows), d, nil)
	for t, r := range m.sRows {
		m.sx.SetRow(t, X.RawRowView(r))
	}
	return m, nil
}

// FitGram finds the sphere from a precomputed N×N kernel matrix. Errors:
// ErrBadParam, ErrEmpty, ErrNonFinite, ErrNotSymmetric, or ctx.Err().
func (s SVDD) FitGram(ctx context.Context, K mat.Symmetric) (*SVDDModel, error) {
	if err := s.validate(0, false); err != nil {
		return nil, err
	}
	return withGram(ctx, K, s.fit)
}

// fit solves the SVDD dual with the SMO core in LIBSVM's one-class scaling:
// α = β/C ∈ [0, 1], Σα = 1/C, Q = K, y = +1 and p_i = −(K_ii − k̄)/(2C),
// where k̄ = max K_ii (this is the SVDD objective divided by 2C² plus a
// constant, since Σα is fixed). For kernels with constant diagonal
// (Gaussian, Laplacian) p = 0 and the problem is exactly LIBSVM's one-class
// SVM with ν = 1/(N·C), started from the same point (α_i = 1 for
// i < ⌊1/C⌋, then the remainder). Then, with G = Kα + p the gradient,
//
//	R²(x_i) = K_ii − 2(Kβ)_i + βᵀKβ = k̄ − 2C·G_i + βᵀKβ,
//
// so averaging R²(x_i) over free variables is LIBSVM's ρ rule:
// R² = k̄ − 2Cρ + βᵀKβ. (The values reported are recomputed in float64
// from the support vectors, see below.)
func (s SVDD) fit(ctx context.Context, src smo.Source, n int) (*SVDDModel, error) {
	if err := s.validate(n, false); err != nil {
		return nil, err
	}
	set := s.settings()
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	q := smo.NewCache(src, rows, set.cacheMB())
	qd := q.Diag()
	kbar := qd[0]
	for _, v := range qd {
		kbar = max(kbar, v)
	}
	pr := &smo.Problem{
		Q:       q,
		P:       make([]float64, n),
		Y:       make([]int8, n),
		C:       make([]float64, n),
		Alpha:   make([]float64, n),
		Tol:     set.tol(),
		MaxIter: s.MaxIter,
		Shrink:  !s.NoShrinking,
	}
	for i := range n {
		pr.P[i] = -(qd[i] - kbar) / (2 * s.C)
		pr.Y[i] = 1
		pr.C[i] = 1
	}
	total := min(1/s.C, float64(n))
	whole := int(total)
	for i := range whole {
		pr.Alpha[i] = 1
	}
	if whole < n {
		pr.Alpha[whole] = total - float64(whole)
	}
	res, err := smo.Solve(ctx, pr)
	q.Free()
	if err != nil {
		return nil, err
	}
	m := &SVDDModel{Beta: make([]float64, n), C: s.C, Tol: set.tol(), Iter: res.Iter, Converged: res.Converged}
	var svRows []int
	var svBeta []float64
	sumBK := 0.0
	for i, a := range pr.Alpha {
		m.Beta[i] = s.C * a
		sumBK += m.Beta[i] * qd[i]
		switch {
		case a >= 1:
			m.BSV = append(m.BSV, i)
		case a > 0:
			m.SV = append(m.SV, i)
		}
		if a > 0 {
			svRows = append(svRows, i)
			svBeta = append(svBeta, m.Beta[i])
		}
	}
	// The solver's gradient carries the float32 rounding of the column
	// cache; βᵀKβ and R² are recomputed in float64 from the support
	// vectors so that they agree with Dist2 to rounding: (Kβ)_i for every
	// i with β_i > 0 (O(n_sv²) kernel values), and R² as the mean of
	// R²(x_i) over free SVs — or, with none free, LIBSVM's midpoint between
	// the largest R²(x_i) inside (β_i = 0) and the smallest outside
	// (β_i = C), which needs (Kβ)_i for every row.
	kb := func(i int, buf []float64) float64 {
		src.Fill64(buf, i, svRows)
		v := 0.0
		for t, k := range buf {
			v += svBeta[t] * k
		}
		return v
	}
	buf := make([]float64, len(svRows))
	kbSV := make([]float64, len(svRows))
	bkb := 0.0
	for t, i := range svRows {
		kbSV[t] = kb(i, buf)
		bkb += svBeta[t] * kbSV[t]
	}
	m.BetaKBeta = bkb
	m.Objective = bkb - sumBK
	if len(m.SV) > 0 {
		sum := 0.0
		for t, i := range svRows {
			if pr.Alpha[i] < 1 {
				sum += qd[i] - 2*kbSV[t] + bkb
			}
		}
		m.R2 = sum / float64(len(m.SV))
	} else {
		lo, hi := math.Inf(-1), math.Inf(1)
		for i := range n {
			r2 := qd[i] - 2*kb(i, buf) + bkb
			if pr.Alpha[i] >= 1 {
				hi = min(hi, r2)
			} else {
				lo = max(lo, r2)
			}
		}
		switch {
		case math.IsInf(lo, -1):
			m.R2 = hi
		case math.IsInf(hi, 1):
			m.R2 = lo
		default:
			m.R2 = (lo + hi) / 2
		}
	}
	if !res.Converged {
		m.Warnings = append(m.Warnings, fmt.Errorf("%w: SVDD stopped at MaxIter after %d iterations", ErrNotConverged, res.Iter))
	}
	return m, nil
}

// Dist2 returns R²(x) = K(x,x) − 2Σβ_iK(x_i,x) + βᵀKβ, the squared feature
// space distance of x from the centre (paper 001 eq. 10), summing over the
// points with β_i > 0 only: O(n_sv·d). It returns NaN for a model from
// FitGram (use Dist2Gram) or when len(x) differs from the training
// dimension.
func (m *SVDDModel) Dist2(x []float64) float64 {
	if m.Kernel == nil || m.sx == nil {
		return math.NaN()
	}
	if _, d := m.sx.Dims(); d != len(x) {
		return math.NaN()
	}
	s := 0.0
	for t, r := range m.sRows {
		s += m.Beta[r] * m.Kernel.Eval(m.sx.RawRowView(t), x)
	}
	return m.Kernel.Eval(x, x) - 2*s + m.BetaKBeta
}

// Dist2Gram returns R²(x) from kernel values: kx[i] = K(x, x_i) for every
// training row i (len N; only rows with β_i > 0 are read) and kxx = K(x, x).
// It returns NaN when len(kx) ≠ N.
func (m *SVDDModel) Dist2Gram(kx []float64, kxx float64) float64 {
	if len(kx) != len(m.Beta) {
		return math.NaN()
	}
	s := 0.0
	for i, b := range m.Beta {
		if b > 0 {
			s += b * kx[i]
		}
	}
	return kxx - 2*s + m.BetaKBeta
}

// Inside reports whether R²(x) ≤ R² for the squared distance d2 (from
// Dist2 or Dist2Gram), with the slack 2·C·Tol that the solver's stopping
// rule leaves: at the returned solution every training point with β_i < C
// satisfies R²(x_i) ≤ R² + 2·C·Tol (G_i ≥ ρ − Tol in the scaled problem).
func (m *SVDDModel) Inside(d2 float64) bool {
	return d2 <= m.R2+2*m.C*m.Tol
}
