package svm

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// predictBlock is the number of rows whose kernel values with the support
// vectors are formed at a time: all t×nSV values would be 14 MB for 1,000 rows
// and 1,800 support vectors, most of the cost being the memory itself.
const predictBlock = 64

// decisionPoints returns the decision values of the rows of X (t ×
// len(Machines)), forming the kernel values with the support vectors
// (kernel.Cross: parallel, deterministic) predictBlock rows at a time.
func (m *Model) decisionPoints(ctx context.Context, X mat.Matrix) (*mat.Dense, error) {
	if m.Kernel == nil {
		return nil, fmt.Errorf("%w: model was fitted with FitGram; use the Gram variant with test-by-train kernel rows", ErrNoKernel)
	}
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrEmpty)
	}
	t, d := X.Dims()
	if t == 0 {
		return nil, fmt.Errorf("%w: X has no rows", ErrEmpty)
	}
	if len(m.SV) == 0 {
		return m.decide(nil, mat.NewDense(t, 1, nil)), nil
	}
	if _, sd := m.svX.Dims(); sd != d {
		return nil, fmt.Errorf("%w: X has %d features, the model %d", ErrShape, d, sd)
	}
	for i := range t {
		for j := range d {
			if v := X.At(i, j); !finite(v) {
				return nil, fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	dec := mat.NewDense(t, len(m.Machines), nil)
	kv := mat.NewDense(min(t, predictBlock), len(m.SV), nil)
	xd, ok := X.(*mat.Dense)
	if !ok {
		xd = mat.DenseCopyOf(X)
	}
	for lo := 0; lo < t; lo += predictBlock {
		hi := min(lo+predictBlock, t)
		k := kv.Slice(0, hi-lo, 0, len(m.SV)).(*mat.Dense)
		if _, err := kernel.Cross(ctx, k, m.Kernel, xd.Slice(lo, hi, 0, d), m.svX); err != nil {
			return nil, fmt.Errorf("svm: %w", err)
		}
		m.decide(dec.Slice(lo, hi, 0, len(m.Machines)).(*mat.Dense), k)
	}
	return dec, nil
}

// svGram extracts the support-vector columns of Kt (t × NTrain).
func (m *Model) svGram(Kt mat.Matrix) (*mat.Dense, error) {
	if Kt == nil {
		return nil, fmt.Errorf("%w: nil Kt", ErrEmpty)
	}
	t, n := Kt.Dims()
	if n != m.NTrain {
		return nil, fmt.Errorf("%w: Kt is %d×%d, want t×%d (columns = the %d training rows)", ErrShape, t, n, m.NTrain, m.NTrain)
	}
	if t == 0 {
		return nil, fmt.Errorf("%w: Kt has no rows", ErrEmpty)
	}
	kv := mat.NewDense(t, max(len(m.SV), 1), nil)
	raw := kv.RawMatrix()
	if d, ok := Kt.(*mat.Dense); ok {
		kr := d.RawMatrix()
		for i := range t {
			row := kr.Data[i*kr.Stride : i*kr.Stride+n]
			out := raw.Data[i*raw.Stride:]
			for s, r := range m.SV {
				out[s] = row[r]
			}
		}
	} else {
		for i := range t {
			out := raw.Data[i*raw.Stride:]
			for s, r := range m.SV {
				out[s] = Kt.At(i, r)
			}
		}
	}
	for i := range t {
		for s, v := range raw.Data[i*raw.Stride : i*raw.Stride+len(m.SV)] {
			if !finite(v) {
				return nil, fmt.Errorf("%w: Kt[%d][%d] = %v", ErrNonFinite, i, m.SV[s], v)
			}
		}
	}
	return kv, nil
}

// decide fills dec (t × len(Machines)) from support-vector kernel values.
func (m *Model) decide(dst *mat.Dense, kv *mat.Dense) *mat.Dense {
	t, _ := kv.Dims()
	P := len(m.Machines)
	if dst == nil {
		dst = mat.NewDense(t, P, nil)
	} else if r, c := dst.Dims(); r != t || c != P {
		panic(fmt.Sprintf("svm: Decision dst is %d×%d, want %d×%d", r, c, t, P))
	}
	for i := range t {
		row := kv.RawRowView(i)
		for p := range m.Machines {
			mc := &m.Machines[p]
			s := 0.0
			for q, sv := range mc.SV {
				s += mc.Coef[q] * row[sv]
			}
			dst.Set(i, p, s-mc.Rho)
		}
	}
	return dst
}

func (m *Model) checkDst(dst *mat.Dense, t, c int) error {
	if dst == nil {
		return nil
	}
	if r, cc := dst.Dims(); r != t || cc != c {
		return fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, r, cc, t, c)
	}
	return nil
}

// Decision returns the decision values of the rows of X, one column per
// machine: f_ab(x) for one-vs-one pairs (positive votes for a, LIBSVM's
// convention; for two classes scikit-learn's decision_function is −f) or
// f_c(x) for one-vs-rest. A nil dst allocates; otherwise it must be
// t×len(Machines). Errors: ErrNoKernel, ErrEmpty, ErrShape, kernel errors.
func (m *Model) Decision(dst *mat.Dense, X mat.Matrix) (*mat.Dense, error) {
	if X != nil {
		if t, _ := X.Dims(); t > 0 {
			if err := m.checkDst(dst, t, len(m.Machines)); err != nil {
				return nil, err
			}
		}
	}
	dec, err := m.decisionPoints(context.Background(), X)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		return dec, nil
	}
	dst.Copy(dec)
	return dst, nil
}

// DecisionGram is Decision from kernel values: Kt is t×NTrain with
// Kt[i][j] = K(x_i, training row j). Only the support-vector columns are
// read. Errors: ErrShape, ErrEmpty, ErrNonFinite.
func (m *Model) DecisionGram(dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error) {
	kv, err := m.svGram(Kt)
	if err != nil {
		return nil, err
	}
	if err := m.checkDst(dst, kv.RawMatrix().Rows, len(m.Machines)); err != nil {
		return nil, err
	}
	return m.decide(dst, kv), nil
}

// vote turns decision values into labels: one-vs-one max-wins voting
// (f > 0 votes for the first class of the pair, ties in the count go to the
// lowest class index, as LIBSVM), or the largest one-vs-rest value.
func (m *Model) vote(dec *mat.Dense) []int {
	t, _ := dec.Dims()
	out := make([]int, t)
	k := len(m.classes)
	votes := make([]int, k)
	for i := range t {
		row := dec.RawRowView(i)
		best := 0
		if m.OneVsRest {
			for c := 1; c < k; c++ {
				if row[c] > row[best] {
					best = c
				}
			}
		} else {
			clear(votes)
			for p, mc := range m.Machines {
				if row[p] > 0 {
					votes[mc.Pos]++
				} else {
					votes[mc.Neg]++
				}
			}
			for c := 1; c < k; c++ {
				if votes[c] > votes[best] {
					best = c
				}
			}
		}
		out[i] = m.classes[best]
	}
	return out
}

// probabilities maps decision values to class probabilities: Platt
// sigmoids clipped to [1e-7, 1−1e-7], then pairwise coupling (one-vs-one,
// LIBSVM's svm_predict_probability, the classes taken in CouplingOrder)
// or normalisation of the per-class sigmoids (one-vs-rest).
func (m *Model) probabilities(dst *mat.Dense, dec *mat.Dense) *mat.Dense {
	t, _ := dec.Dims()
	k := len(m.classes)
	if dst == nil {
		dst = mat.NewDense(t, k, nil)
	}
	const minProb = 1e-7
	r, ro := make([][]float64, k), make([][]float64, k)
	for i := range r {
		r[i], ro[i] = make([]float64, k), make([]float64, k)
	}
	p, po := make([]float64, k), make([]float64, k)
	for i := range t {
		row := dec.RawRowView(i)
		if m.OneVsRest {
			sum := 0.0
			for c, mc := range m.Machines {
				p[c] = min(max(sigmoidPredict(row[c], mc.ProbA, mc.ProbB), minProb), 1-minProb)
				sum += p[c]
			}
			for c := range p {
				p[c] /= sum
			}
		} else {
			for q, mc := range m.Machines {
				v := min(max(sigmoidPredict(row[q], mc.ProbA, mc.ProbB), minProb), 1-minProb)
				r[mc.Pos][mc.Neg] = v
				r[mc.Neg][mc.Pos] = 1 - v
			}
			switch {
			case k == 2:
				p[0], p[1] = r[0][1], r[1][0]
			case m.CouplingOrder != nil:
				o := m.CouplingOrder
				for a := range k {
					for b := range k {
						ro[a][b] = r[o[a]][o[b]]
					}
				}
				coupling(ro, po)
				for a, c := range o {
					p[c] = po[a]
				}
			default:
				coupling(r, p)
			}
		}
		dst.SetRow(i, p)
	}
	return dst
}

// Probabilities returns P(class c | x) for the rows of X, one column per
// class (Classes order). The model must be fitted with Probability.
// Errors: ErrNoProbability, and those of Decision.
func (m *Model) Probabilities(dst *mat.Dense, X mat.Matrix) (*mat.Dense, error) {
	if !m.Probability {
		return nil, ErrNoProbability
	}
	dec, err := m.Decision(nil, X)
	if err != nil {
		return nil, err
	}
	if err := m.checkDst(dst, dec.RawMatrix().Rows, len(m.classes)); err != nil {
		return nil, err
	}
	return m.probabilities(dst, dec), nil
}

// ProbabilitiesGram is Probabilities from test-by-train kernel rows.
func (m *Model) ProbabilitiesGram(dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error) {
	if !m.Probability {
		return nil, ErrNoProbability
	}
	dec, err := m.DecisionGram(nil, Kt)
	if err != nil {
		return nil, err
	}
	if err := m.checkDst(dst, dec.RawMatrix().Rows, len(m.classes)); err != nil {
		return nil, err
	}
	return m.probabilities(dst, dec), nil
}

// Outputs labels the rows of X as PredictPoints does and gives, from the
// same decision values (one pass over the kernel values), those values
// when decision is true and the probabilities when proba is true (nil
// otherwise): PredictPoints, Decision and Probabilities for the cost of
// one. Errors: those of Decision, ErrNoProbability (proba for a model
// fitted without Probability).
func (m *Model) Outputs(ctx context.Context, X mat.Matrix, decision, proba bool) ([]int, *mat.Dense, *mat.Dense, error) {
	if proba && !m.Probability {
		return nil, nil, nil, ErrNoProbability
	}
	dec, err := m.decisionPoints(ctx, X)
	if err != nil {
		return nil, nil, nil, err
	}
	labels := m.vote(dec)
	var P *mat.Dense
	if proba {
		P = m.probabilities(nil, dec)
	}
	if !decision {
		dec = nil
	}
	return labels, dec, P, nil
}
