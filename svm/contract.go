package svm

import (
	"context"
	"fmt"
	"slices"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// Validate checks the settings for FitGram (LIBSVM's svm_check_parameter;
// Fit also needs a valid Kernel). Errors: ErrBadParam.
func (c Classifier) Validate() error { return c.validate(false) }

// Classes returns the sorted distinct training labels (scikit-learn's
// classes_), the order of Decision and Probabilities columns.
func (m *Model) Classes() []int { return slices.Clone(m.classes) }

// Transduction returns a label for each of the NTrain training rows:
// labelled rows keep their label, rows fitted as learner.Unlabeled get the
// model's prediction. It is nil for a model loaded from a file that does
// not record it.
func (m *Model) Transduction() []int { return slices.Clone(m.transduction) }

// Predict labels t new points from their t×NTrain kernel rows Kt against
// the training rows (only the support-vector columns are read). A dst of
// length t is filled and returned; nil allocates. Errors: ErrShape,
// ErrEmpty, ErrNonFinite, ctx.Err().
func (m *Model) Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dec, err := m.DecisionGram(nil, Kt)
	if err != nil {
		return nil, err
	}
	return m.voteInto(dst, dec)
}

// PredictPoints labels the rows of X with the model's point kernel
// (support vectors only: O(t·nSV·d)). Errors as Decision, and ctx.Err().
func (m *Model) PredictPoints(ctx context.Context, dst []int, X mat.Matrix) ([]int, error) {
	dec, err := m.decisionPoints(ctx, X)
	if err != nil {
		return nil, err
	}
	return m.voteInto(dst, dec)
}

func (m *Model) voteInto(dst []int, dec *mat.Dense) ([]int, error) {
	t, _ := dec.Dims()
	if dst != nil && len(dst) != t {
		return nil, fmt.Errorf("%w: dst has length %d, Kt has %d rows", ErrShape, len(dst), t)
	}
	out := m.vote(dec)
	if dst == nil {
		return out, nil
	}
	copy(dst, out)
	return dst, nil
}

// splitLabeled returns the rows labelled (y ≥ 0 or any value other than
// learner.Unlabeled: bad labels are reported by the fit) and unlabelled.
func splitLabeled(y []int) (lab, unl []int) {
	for i, v := range y {
		if v == learner.Unlabeled {
			unl = append(unl, i)
		} else {
			lab = append(lab, i)
		}
	}
	return lab, unl
}

func pick(y []int, rows []int) []int {
	out := make([]int, len(rows))
	for k, r := range rows {
		out[k] = y[r]
	}
	return out
}

func subRows(X *mat.Dense, rows []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for k, r := range rows {
		copy(out.RawRowView(k), X.RawRowView(r))
	}
	return out
}

// widen re-indexes a model fitted on rows lab of an n-row training set by
// those n rows.
func (m *Model) widen(lab []int, n int) {
	for s, r := range m.SV {
		m.SV[s] = lab[r]
	}
	m.NTrain = n
}

// fillGram returns y with the rows unl labelled from K[unl][SV].
func (m *Model) fillGram(ctx context.Context, y []int, K mat.Symmetric, unl []int) ([]int, error) {
	out := slices.Clone(y)
	kv := mat.NewDense(len(unl), max(len(m.SV), 1), nil)
	var d []float64
	var s int
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		d, s = raw.Data, raw.Stride
	}
	for i, r := range unl {
		row := kv.RawRowView(i)
		for q, c := range m.SV {
			var v float64
			if d != nil {
				v = d[min(r, c)*s+max(r, c)]
			} else {
				v = K.At(r, c)
			}
			if !finite(v) {
				return nil, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, r, c, v)
			}
			row[q] = v
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, c := range m.vote(m.decide(nil, kv)) {
		out[unl[i]] = c
	}
	return out, nil
}

// fillPoints returns y with the rows unl (points Xu) labelled.
func (m *Model) fillPoints(ctx context.Context, y []int, Xu *mat.Dense, unl []int) ([]int, error) {
	pred, err := m.PredictPoints(ctx, nil, Xu)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(y)
	for i, c := range pred {
		out[unl[i]] = c
	}
	return out, nil
}

// The learner contract (package learner).
var (
	_ learner.Model              = (*Model)(nil)
	_ learner.Warner             = (*Model)(nil)
	_ learner.LabeledFitter      = Classifier{}
	_ learner.GramFitter[*Model] = Classifier{}
)

// FitsLabeledRows marks the C-SVC as reading the labelled rows' kernel
// values only (learner.LabeledFitter).
func (Classifier) FitsLabeledRows() {}

// FitWarnings returns the fit's warnings (learner.Warner).
func (m *Model) FitWarnings() []error { return m.Warnings }

// The capabilities of package learner: probabilities (for a model fitted
// with Probability) and decision values.
var (
	_ learner.Prober  = (*Model)(nil)
	_ learner.Decider = (*Model)(nil)
)

// WithRun turns Probability on when the run asks for probabilities
// (learner.Run.Proba); the other run facts are not the SVM's.
func (c Classifier) WithRun(r learner.Run) Classifier {
	if r.Proba {
		c.Probability = true
	}
	return c
}

// Proba is ProbabilitiesGram with a context (learner.Prober): t×len(Classes)
// probabilities from the t×NTrain kernel rows Kt. Errors: ErrNoProbability,
// those of DecisionGram, ctx.Err().
func (m *Model) Proba(ctx context.Context, dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return m.ProbabilitiesGram(dst, Kt)
}

// Decide is DecisionGram with a context (learner.Decider).
func (m *Model) Decide(ctx context.Context, dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return m.DecisionGram(dst, Kt)
}

// DecisionColumns names the columns of Decision: the class labels of each
// machine, Neg = learner.Unlabeled for one-vs-rest (learner.Decider).
func (m *Model) DecisionColumns() []learner.Pair {
	out := make([]learner.Pair, len(m.Machines))
	for p, mc := range m.Machines {
		out[p] = learner.Pair{Pos: m.classes[mc.Pos], Neg: learner.Unlabeled}
		if mc.Neg >= 0 {
			out[p].Neg = m.classes[mc.Neg]
		}
	}
	return out
}
