package knn

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// The learner contract (package learner). kNN ranks neighbours by the
// kernel-induced distance d² = k(x,x) + k(z,z) − 2k(x,z), so new points need
// their self-similarities: the model is a learner.DiagPredictor.
var (
	_ learner.DiagPredictor      = (*Model)(nil)
	_ learner.GramFitter[*Model] = Classifier{}
)

// ErrNeedDiag: Predict was given kernel rows without the new points'
// self-similarities k(x, x), which the kernel-induced distance needs.
var ErrNeedDiag = errors.New("knn: kernel rows need the self-similarities k(x, x)")

// Validate checks the settings. Errors: ErrK, ErrWeights, ErrBadParam.
func (c Classifier) Validate() error { return c.validate() }

// Classes returns the sorted distinct labels of the labelled rows (for a
// multi-label model, every label that occurs in a set).
func (m *Model) Classes() []int { return slices.Clone(m.classes) }

// Transduction returns a label for each of the n fitted rows: labelled rows
// keep theirs, unlabelled rows get their neighbours' vote. It is nil for a
// multi-label model (see PredictSets).
func (m *Model) Transduction() []int { return slices.Clone(m.transduction) }

// Predict returns ErrNeedDiag: kNN needs the new points' self-similarities;
// use PredictDiag (or PredictPoints for a model fitted on points).
func (m *Model) Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error) {
	return nil, fmt.Errorf("%w: use PredictDiag(ctx, dst, Kt, diag)", ErrNeedDiag)
}

// transduce fills classes and, for a single-label model, the transduction
// of the unlabelled rows of y (queried by q).
func (m *Model) transduce(ctx context.Context, y []int, q func(unl []int) Query) (*Model, error) {
	var unl []int
	for i, v := range y {
		if v == learner.Unlabeled {
			unl = append(unl, i)
		}
	}
	m.transduction = slices.Clone(y)
	if len(unl) == 0 {
		return m, nil
	}
	pred, err := m.predict(ctx, nil, q(unl))
	if err != nil {
		return nil, err
	}
	for i, r := range unl {
		m.transduction[r] = pred[i]
	}
	return m, nil
}

func distinct(y []int, sets [][]int) []int {
	out := slices.Clone(y)
	for _, s := range sets {
		out = append(out, s...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pickRows copies rows of X.
func pickRows(X mat.Matrix, rows []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(max(len(rows), 1), d, nil)
	for k, r := range rows {
		for j := range d {
			out.Set(k, j, X.At(r, j))
		}
	}
	return out
}

var _ learner.DiagProber = (*Model)(nil)

// Probabilities returns the vote shares of the query points (scikit-learn's
// KNeighborsClassifier.predict_proba): t×len(Classes()), column c the
// weight of the neighbours of class Classes()[c] over the total weight
// (with Weights Uniform, the fraction of the K neighbours), rows all 0 when
// every weight is 0. A nil dst allocates. Errors: ErrMultiLabel (use
// Scores), those of Scores.
func (m *Model) Probabilities(ctx context.Context, dst *mat.Dense, q Query) (*mat.Dense, error) {
	if m.MultiLabel {
		return nil, fmt.Errorf("%w: use Scores", ErrMultiLabel)
	}
	t, err := m.queryLen(q)
	if err != nil {
		return nil, err
	}
	k := len(m.classes)
	if dst == nil {
		dst = mat.NewDense(max(t, 1), k, nil)
		if t == 0 {
			return nil, fmt.Errorf("%w: no query points", ErrShape)
		}
	} else if r, c := dst.Dims(); r != t || c != k {
		return nil, fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, r, c, t, k)
	}
	S, err := m.Scores(ctx, nil, q)
	if err != nil {
		return nil, err
	}
	for i := range t {
		for c, lab := range m.classes {
			dst.Set(i, c, S.At(i, lab))
		}
	}
	return dst, nil
}

// ProbaDiag is Probabilities for new points given by their t×n kernel rows
// and self-similarities (learner.DiagProber; see Cross).
func (m *Model) ProbaDiag(ctx context.Context, dst *mat.Dense, Kt mat.Matrix, diag []float64) (*mat.Dense, error) {
	return m.Probabilities(ctx, dst, Cross(Kt, diag))
}
