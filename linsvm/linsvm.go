// Package linsvm is a linear support vector classifier trained in the
// primal weight space by dual coordinate descent, as LIBLINEAR does it
// (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML 2008; LIBLINEAR's
// solve_l2r_l1l2_svc): for labels y_i ∈ {−1, +1} and features x_i
// (augmented with a constant Bias feature, regularised with w as LIBLINEAR
// and scikit-learn's LinearSVC do),
//
//	min_w ½‖w‖² + C Σ_i ξ(w; x_i, y_i),
//	ξ = max(0, 1 − y_i wᵀx_i)² (LossL2, "squared hinge") or max(0, 1 − y_i wᵀx_i) (LossL1),
//
// through its dual min_α ½αᵀQ̄α − eᵀα, 0 ≤ α_i ≤ U, Q̄ = Q + D, Q_ij = y_i y_j x_iᵀx_j,
// with D_ii = 1/(2C), U = ∞ for L2 and D_ii = 0, U = C for L1. One pass
// updates each α_i in a random order (from Seed) by the projected Newton
// step on its coordinate, keeping w = Σ y_i α_i x_i, with LIBLINEAR's
// shrinking; it stops when the projected gradient's spread is below Tol.
// Several classes: one-versus-rest (LIBLINEAR's default), predicting the
// class of largest decision value (ties to the lower class).
//
// It is the learner for landmark (Nyström) features: time O(passes · N·r),
// memory O(N·r) for the N×r features, no N×N matrix.
//
// Errors: ErrBadParam for bad settings, ErrInput for bad data.
package linsvm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// Loss names.
const (
	LossL2 = "l2" // squared hinge (LinearSVC's default)
	LossL1 = "l1" // hinge
)

// Unlabeled marks rows without a label (learner.Unlabeled).
const Unlabeled = -1

var (
	// ErrBadParam reports invalid settings.
	ErrBadParam = errors.New("linsvm: invalid parameter")
	// ErrInput reports invalid data.
	ErrInput = errors.New("linsvm: invalid input")
)

// Classifier holds the settings; the zero value means C = 1, LossL2,
// Tol = 1e-4, MaxIter = 1000, Bias = 1 (scikit-learn LinearSVC's defaults).
type Classifier struct {
	C       float64
	Loss    string
	Tol     float64
	MaxIter int
	// Bias is the value of the constant feature appended to every row
	// (LIBLINEAR -B, LinearSVC intercept_scaling); 0 means 1; negative
	// means no bias feature.
	Bias float64
	Seed uint64
}

// Validate reports whether the settings are usable.
func (c Classifier) Validate() error {
	switch {
	case !(c.C >= 0) || math.IsInf(c.C, 0):
		return fmt.Errorf("%w: C = %v, want > 0", ErrBadParam, c.C)
	case c.Loss != "" && c.Loss != LossL1 && c.Loss != LossL2:
		return fmt.Errorf("%w: loss %q, want l1 or l2", ErrBadParam, c.Loss)
	case !(c.Tol >= 0):
		return fmt.Errorf("%w: Tol = %v, want > 0", ErrBadParam, c.Tol)
	case c.MaxIter < 0:
		return fmt.Errorf("%w: MaxIter = %d, want > 0", ErrBadParam, c.MaxIter)
	}
	return nil
}

func (c Classifier) cost() float64 { return orDefault(c.C, 1) }
func (c Classifier) tol() float64  { return orDefault(c.Tol, 1e-4) }
func (c Classifier) bias() float64 { return orDefault(c.Bias, 1) }
func (c Classifier) maxIter() int {
	if c.MaxIter == 0 {
		return 1000
	}
	return c.MaxIter
}

func orDefault(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

// Model is a fitted linear classifier: decision value of class k (or of
// class 1 against class 0 when there are two classes) is W_k·x + B_k.
type Model struct {
	classes int
	d       int
	w       [][]float64 // per binary problem: d weights
	b       []float64   // per binary problem: bias weight × Bias
	// Iter is the number of passes of each binary problem.
	Iter []int
	// Converged reports whether every binary problem met Tol.
	Converged bool
}

// Classes returns the class labels the model can output, 0..C−1 (sorted;
// C is one more than the largest label it was fitted on).
func (m *Model) Classes() []int {
	c := make([]int, m.classes)
	for i := range c {
		c[i] = i
	}
	return c
}

// Dim returns the number of features the model expects.
func (m *Model) Dim() int { return m.d }

// Weights returns the weight vector and intercept of binary problem k
// (k = 0 only, class 1 against class 0, when there are two classes).
func (m *Model) Weights(k int) ([]float64, float64) {
	return append([]float64(nil), m.w[k]...), m.b[k]
}

// Fit trains on the rows of X whose y is a class 0..C−1 (rows with y =
// Unlabeled are skipped). Errors: ErrBadParam, ErrInput (shape, non-finite
// entries, fewer than two classes among the labels), ctx.Err().
func (c Classifier) Fit(ctx context.Context, X mat.Matrix, y []int) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n, d := X.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrInput, len(y), n)
	}
	var rows []int
	classes := 0
	for i, v := range y {
		if v == Unlabeled {
			continue
		}
		if v < 0 {
			return nil, fmt.Errorf("%w: label %d of row %d", ErrInput, v, i)
		}
		rows = append(rows, i)
		classes = max(classes, v+1)
	}
	if classes < 2 {
		return nil, fmt.Errorf("%w: the labelled rows have %d class(es), want at least 2", ErrInput, classes)
	}
	// Copy the labelled rows, with the bias feature, into one block.
	B := c.bias()
	dd := d
	if B > 0 {
		dd++
	}
	l := len(rows)
	xs := make([]float64, l*dd)
	for r, i := range rows {
		for j := 0; j < d; j++ {
			v := X.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: X[%d,%d] = %v", ErrInput, i, j, v)
			}
			xs[r*dd+j] = v
		}
		if B > 0 {
			xs[r*dd+d] = B
		}
	}
	probs := classes
	if classes == 2 {
		probs = 1
	}
	m := &Model{classes: classes, d: d, Converged: true}
	for k := 0; k < probs; k++ {
		pos := k
		if classes == 2 {
			pos = 1
		}
		yb := make([]float64, l)
		for r, i := range rows {
			yb[r] = -1
			if y[i] == pos {
				yb[r] = 1
			}
		}
		w, iter, ok, err := c.solve(ctx, xs, l, dd, yb, uint64(k))
		if err != nil {
			return nil, err
		}
		m.Iter = append(m.Iter, iter)
		m.Converged = m.Converged && ok
		bias := 0.0
		if B > 0 {
			bias = w[d] * B
		}
		m.w = append(m.w, w[:d:d])
		m.b = append(m.b, bias)
	}
	return m, nil
}

// solve is LIBLINEAR's solve_l2r_l1l2_svc on l rows of width dd.
func (c Classifier) solve(ctx context.Context, xs []float64, l, dd int, y []float64, stream uint64) ([]float64, int, bool, error) {
	C := c.cost()
	diag, upper := 0.5/C, math.Inf(1)
	if c.Loss == LossL1 {
		diag, upper = 0, C
	}
	eps := c.tol()
	rng := rand.New(rand.NewPCG(c.Seed, stream))
	w := make([]float64, dd)
	alpha := make([]float64, l)
	qd := make([]float64, l)
	index := make([]int, l)
	for i := 0; i < l; i++ {
		x := xs[i*dd : i*dd+dd]
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		qd[i] = diag + s
		index[i] = i
	}
	active := l
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	iter := 0
	for iter < c.maxIter() {
		if iter%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, iter, false, err
			}
		}
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		for s := 0; s < active; s++ {
			j := s + rng.IntN(active-s)
			index[s], index[j] = index[j], index[s]
		}
		for s := 0; s < active; s++ {
			i := index[s]
			x := xs[i*dd : i*dd+dd]
			g := 0.0
			for t, v := range x {
				g += w[t] * v
			}
			g = y[i]*g - 1 + diag*alpha[i]
			pg := 0.0
			switch {
			case alpha[i] == 0:
				if g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				if g < 0 {
					pg = g
				}
			case alpha[i] == upper:
				if g < pgMinOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				if g > 0 {
					pg = g
				}
			default:
				pg = g
			}
			pgMax, pgMin = max(pgMax, pg), min(pgMin, pg)
			if math.Abs(pg) > 1e-12 {
				old := alpha[i]
				alpha[i] = min(max(alpha[i]-g/qd[i], 0), upper)
				step := (alpha[i] - old) * y[i]
				for t, v := range x {
					w[t] += step * v
				}
			}
		}
		iter++
		if pgMax-pgMin <= eps {
			if active == l {
				return w, iter, true, nil
			}
			active = l
			pgMaxOld, pgMinOld = math.Inf(1), math.Inf(-1)
			continue
		}
		pgMaxOld, pgMinOld = pgMax, pgMin
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
		if pgMinOld >= 0 {
			pgMinOld = math.Inf(-1)
		}
	}
	return w, iter, false, nil
}

// Compose returns the model on inputs u whose features are x = u·A (A is
// d'×d, d = Dim()): weights A·w_k, the same intercepts and classes. It
// labels u as m labels u·A (up to rounding: the sums are taken in another
// order), with d'·p instead of d'·d + d·p work per row when A is wide —
// landmark features z = k_L(x)·W predicted from the kernel rows k_L(x).
// Errors: ErrInput (A has d' rows and not d columns).
func (m *Model) Compose(A mat.Matrix) (*Model, error) {
	r, c := A.Dims()
	if c != m.d {
		return nil, fmt.Errorf("%w: composing with a %d×%d map, the model has %d features", ErrInput, r, c, m.d)
	}
	out := &Model{classes: m.classes, d: r, b: append([]float64(nil), m.b...), Iter: m.Iter, Converged: m.Converged}
	for _, w := range m.w {
		v := mat.NewVecDense(r, nil)
		v.MulVec(A, mat.NewVecDense(m.d, w))
		out.w = append(out.w, v.RawVector().Data)
	}
	return out, nil
}

// Decision sets dst[i·p+k] to the decision value of binary problem k for
// row i of X (p = 1 for two classes, else the number of classes); nil
// allocates.
func (m *Model) Decision(dst []float64, X mat.Matrix) ([]float64, error) {
	n, d := X.Dims()
	if d != m.d {
		return nil, fmt.Errorf("%w: X has %d columns, the model %d", ErrInput, d, m.d)
	}
	p := len(m.w)
	if dst == nil {
		dst = make([]float64, n*p)
	}
	xd, dense := X.(*mat.Dense)
	buf := make([]float64, d)
	for i := 0; i < n; i++ {
		row := buf
		if dense {
			row = xd.RawRowView(i)
		} else {
			mat.Row(buf, i, X)
		}
		for k, w := range m.w {
			dst[i*p+k] = m.b[k] + floats.Dot(w, row)
		}
	}
	return dst, nil
}

// Predict sets dst[i] to the class of row i of X (ties to the lower
// class); dst of length t is filled, nil allocates. Rows are labelled in
// parallel blocks (internal/parallel): the result does not depend on
// GOMAXPROCS. Errors: ErrInput (wrong column count, dst of the wrong
// length), ctx.Err().
func (m *Model) Predict(ctx context.Context, dst []int, X mat.Matrix) ([]int, error) {
	n, d := X.Dims()
	if d != m.d {
		return nil, fmt.Errorf("%w: X has %d columns, the model %d", ErrInput, d, m.d)
	}
	if dst == nil {
		dst = make([]int, n)
	}
	if len(dst) != n {
		return nil, fmt.Errorf("%w: dst has %d entries for %d rows", ErrInput, len(dst), n)
	}
	xd, ok := X.(*mat.Dense)
	if !ok {
		xd = mat.DenseCopyOf(X)
	}
	err := parallel.Chunks(ctx, n, 256, func(lo, hi int) {
		m.predict(dst[lo:hi], xd.Slice(lo, hi, 0, d))
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

func (m *Model) predict(dst []int, X mat.Matrix) {
	n, _ := X.Dims()
	dec, _ := m.Decision(nil, X)
	p := len(m.w)
	for i := 0; i < n; i++ {
		if p == 1 {
			dst[i] = 0
			if dec[i] > 0 {
				dst[i] = 1
			}
			continue
		}
		best := 0
		for k := 1; k < p; k++ {
			if dec[i*p+k] > dec[i*p+best] {
				best = k
			}
		}
		dst[i] = best
	}
}
