package propagate

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// The capabilities of package learner.
var (
	_ learner.Prober             = (*Model)(nil)
	_ learner.TransductionProber = (*Model)(nil)
)

// Proba returns class probabilities for t new points by scikit-learn's
// LabelPropagation / LabelSpreading.predict_proba: the scores of Predict,
// Σ_j Kt[i][j]·Distributions[j], divided by their sum. A point whose
// scores are all 0 (no affinity to a reached row) gets a row of 0 (where
// scikit-learn's 0/0 gives NaN). dst, if not nil, must be t×NClasses.
// Errors: ErrShape, ErrNonFinite, ctx.Err().
func (m *Model) Proba(ctx context.Context, dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error) {
	if Kt == nil {
		return nil, fmt.Errorf("%w: nil Kt", ErrShape)
	}
	t, n := Kt.Dims()
	N, C := m.Distributions.Dims()
	if n != N {
		return nil, fmt.Errorf("%w: Kt is %d×%d, want t×%d (columns = the fitted rows)", ErrShape, t, n, N)
	}
	dst, err := m.probaDst(dst, t)
	if err != nil {
		return nil, err
	}
	row := make([]float64, n)
	for i := range t {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		mat.Row(row, i, Kt)
		score := dst.RawRowView(i)
		clear(score)
		for j, w := range row {
			if w == 0 {
				continue
			}
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("%w: Kt[%d][%d] = %v", ErrNonFinite, i, j, w)
			}
			for c, v := range m.Distributions.RawRowView(j) {
				score[c] += w * v
			}
		}
		normalise(score[:C])
	}
	return dst, nil
}

// ProbaNeighbors is Proba for the kNN affinity from the new points' k
// nearest fitted rows (as PredictNeighbors: nb[q·k : (q+1)·k] those of
// point q, each block sorted in place). Errors: ErrShape, ctx.Err().
func (m *Model) ProbaNeighbors(ctx context.Context, dst *mat.Dense, nb []int32, k int) (*mat.Dense, error) {
	N, _ := m.Distributions.Dims()
	if k < 1 || len(nb)%k != 0 {
		return nil, fmt.Errorf("%w: %d neighbour indices for k = %d", ErrShape, len(nb), k)
	}
	t := len(nb) / k
	dst, err := m.probaDst(dst, t)
	if err != nil {
		return nil, err
	}
	for q, j := range nb {
		if j < 0 || int(j) >= N {
			return nil, fmt.Errorf("%w: point %d: neighbour row %d outside [0, %d)", ErrShape, q/k, j, N)
		}
	}
	for i := range t {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rows := nb[i*k : (i+1)*k]
		sortInt32(rows)
		score := dst.RawRowView(i)
		clear(score)
		for _, j := range rows {
			for c, v := range m.Distributions.RawRowView(int(j)) {
				score[c] += v
			}
		}
		normalise(score)
	}
	return dst, nil
}

// TransductionProba returns a copy of Distributions (scikit-learn's
// label_distributions_): the probabilities of the fitted rows, 0 rows for
// points no label reaches (learner.TransductionProber). For a multi-label
// fit the rows are per-label scores, not a distribution.
func (m *Model) TransductionProba() *mat.Dense { return mat.DenseCopyOf(m.Distributions) }

// WithUnreachable returns a copy of m whose Predict treats new points no
// label reaches by policy (UnreachableUnlabeled or UnreachableFirst).
// Errors: ErrBadParam for another policy.
func (m *Model) WithUnreachable(policy string) (*Model, error) {
	if policy != UnreachableUnlabeled && policy != UnreachableFirst {
		return nil, fmt.Errorf("%w: unreachable policy %q for new points (want %s or %s)", ErrBadParam, policy, UnreachableUnlabeled, UnreachableFirst)
	}
	c := *m
	c.Policy = policy
	return &c, nil
}

func (m *Model) probaDst(dst *mat.Dense, t int) (*mat.Dense, error) {
	_, C := m.Distributions.Dims()
	if dst == nil {
		if t == 0 {
			return nil, fmt.Errorf("%w: no new points", ErrShape)
		}
		return mat.NewDense(t, C, nil), nil
	}
	if r, c := dst.Dims(); r != t || c != C {
		return nil, fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, r, c, t, C)
	}
	return dst, nil
}

// normalise divides the scores by their sum (left 0 when it is 0).
func normalise(score []float64) {
	s := 0.0
	for _, v := range score {
		s += v
	}
	if s == 0 {
		return
	}
	for c := range score {
		score[c] /= s
	}
}
