package propagate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// ErrFormat: Load met a malformed or unsupported model file.
var ErrFormat = errors.New("propagate: model format")

// Model is a fitted transduction: scikit-learn's label_distributions_ and
// transduction_, with the solver's report. It follows the learner contract
// (package learner): its predictions on the training rows are the
// transductive labels (Transduction), and Predict labels new points by
// scikit-learn's out-of-sample rule from their affinities to the fitted
// rows. It is immutable.
type Model struct {
	// NClasses is the number of classes C (the columns of Distributions).
	NClasses int
	// Distributions is n×C: row i holds the class scores of point i
	// (label_distributions_). Single-label rows are normalised to sum 1;
	// multi-label rows hold the per-label harmonic scores in [0, 1]. Rows of
	// unreachable points are 0.
	Distributions *mat.Dense
	// transduction is the argmax class of each row (first on ties), or
	// learner.Unlabeled for an unreachable point (transduction_).
	transduction []int
	// Sets (multi-label fits only) lists the labels with score ≥ Threshold.
	Sets [][]int
	// Unreachable lists the unlabelled points no labelled point can reach
	// (only with Unreachable = UnreachableUnlabeled or UnreachableFirst;
	// otherwise they are an error).
	Unreachable []int
	// Method is the method used (Closed or Iterative).
	Method string
	// Iter is the number of iterations (scikit-learn's n_iter_ for
	// Iterative; conjugate-gradient or BiCGSTAB steps for Closed, 0 when
	// the direct envelope LU solved it).
	Iter int
	// Change is, for Iterative, Σ|F_t − F_{t−1}| of the last step; for
	// Closed, the largest relative residual ‖b − A·f‖/‖b‖ over the columns.
	Change float64
	// Converged reports Change < Tol within MaxIter.
	Converged bool
	// Warnings holds non-fatal problems (ErrNotConverged, unreachable
	// points left unlabelled).
	Warnings []error
	// Policy is what Predict does with a new point no label reaches (all
	// its scores 0): UnreachableFirst gives it class 0, anything else
	// leaves it learner.Unlabeled. It is the fit's Unreachable setting
	// (saved with the model; WithUnreachable changes it).
	Policy string
}

// checkScores fails when a score is NaN or infinite (an affinity whose row
// sums overflow, say): argmax would silently turn it into class 0.
func checkScores(F []float64, C int) error {
	for i, v := range F {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: the scores of point %d are %v (numerical breakdown: are the affinities too large or too small?)", ErrNonFinite, i/C, v)
		}
	}
	return nil
}

// finish normalises rows (single-label), fills Transduction and Sets.
func finish(res *Model, pr *problem, F []float64, on []bool, normalise bool, thr float64) {
	n, C := pr.n, pr.C
	if thr == 0 {
		thr = 0.5
	}
	res.transduction = make([]int, n)
	if pr.multi {
		res.Sets = make([][]int, n)
	}
	for i := 0; i < n; i++ {
		row := F[i*C : (i+1)*C]
		if !on[i] {
			for c := range row {
				row[c] = 0
			}
			res.transduction[i] = learner.Unlabeled
			continue
		}
		if normalise {
			s := 0.0
			for _, v := range row {
				s += v
			}
			if s != 0 {
				for c := range row {
					row[c] /= s
				}
			}
		}
		best := 0
		for c, v := range row {
			if v > row[best] {
				best = c
			}
		}
		res.transduction[i] = best
		if pr.multi {
			var set []int
			for c, v := range row {
				if v >= thr {
					set = append(set, c)
				}
			}
			res.Sets[i] = set
		}
	}
	res.Distributions = mat.NewDense(n, C, F)
}

// Validate checks the settings. Errors: ErrBadParam, ErrAffinity.
func (p Propagation) Validate() error { return p.validate() }

// Validate checks the settings. Errors: ErrBadParam, ErrAffinity.
func (s Spreading) Validate() error { return s.validate() }

// first records the policy and gives unreachable points class 0 under
// UnreachableFirst.
func (m *Model) first(policy string) {
	m.Policy = policy
	if policy != UnreachableFirst {
		return
	}
	for _, i := range m.Unreachable {
		m.transduction[i] = 0
	}
}

// Classes returns 0, 1, ..., NClasses−1: every class has a labelled point.
func (m *Model) Classes() []int {
	out := make([]int, m.NClasses)
	for c := range out {
		out[c] = c
	}
	return out
}

// Transduction returns the label of each fitted row (scikit-learn's
// transduction_): the argmax of its row of Distributions, first class on
// ties; an unreachable point is learner.Unlabeled (UnreachableUnlabeled) or
// class 0 (UnreachableFirst). Label spreading may relabel a labelled row.
func (m *Model) Transduction() []int { return slices.Clone(m.transduction) }

// Predict labels t new points by scikit-learn's out-of-sample rule for
// LabelPropagation and LabelSpreading (predict_proba): the class scores of
// x are Σ_j W(x, x_j)·Distributions[j], and x gets their argmax (first
// class on ties). Kt is t×n: Kt[i][j] = W(x_i, x_j), the affinity of new
// point i to fitted row j, the same affinity the model was fitted with
// (for Affinity RBF, exp(−γ‖x − x_j‖²); for KNN, 1 for the k nearest
// fitted rows, 0 elsewhere; for a precomputed W, its new rows). A point
// whose scores are all zero (no affinity to a reached row) is
// learner.Unlabeled, or class 0 (scikit-learn's argmax of 0/0) when
// Policy is UnreachableFirst.
// Errors: ErrShape, ErrNonFinite, ctx.Err().
func (m *Model) Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error) {
	if Kt == nil {
		return nil, fmt.Errorf("%w: nil Kt", ErrShape)
	}
	t, n := Kt.Dims()
	N, C := m.Distributions.Dims()
	if n != N {
		return nil, fmt.Errorf("%w: Kt is %d×%d, want t×%d (columns = the fitted rows)", ErrShape, t, n, N)
	}
	if dst == nil {
		dst = make([]int, t)
	} else if len(dst) != t {
		return nil, fmt.Errorf("%w: dst has length %d, Kt has %d rows", ErrShape, len(dst), t)
	}
	score := make([]float64, C)
	row := make([]float64, n)
	for i := range t {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		mat.Row(row, i, Kt)
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
		dst[i] = m.argmax(score)
	}
	return dst, nil
}

// argmax is the class of the largest score (first on ties); for scores
// all 0, learner.Unlabeled, or class 0 under Policy UnreachableFirst.
func (m *Model) argmax(score []float64) int {
	best, any := 0, false
	for c, v := range score {
		if v != 0 {
			any = true
		}
		if v > score[best] {
			best = c
		}
	}
	if !any && m.Policy != UnreachableFirst {
		return learner.Unlabeled
	}
	return best
}

const modelFormat = "arbor-propagate"
const modelVersion = 1

type modelJSON struct {
	Format        string      `json:"format"`
	Version       int         `json:"version"`
	NClasses      int         `json:"n_classes"`
	Distributions [][]float64 `json:"distributions"`
	Transduction  []int       `json:"transduction"`
	Sets          [][]int     `json:"sets,omitempty"`
	Unreachable   []int       `json:"unreachable,omitempty"`
	Method        string      `json:"method"`
	Iter          int         `json:"iter"`
	Change        float64     `json:"change"`
	Converged     bool        `json:"converged"`
	// Policy (optional; absent: unlabeled) is Model.Policy.
	Policy string `json:"unreachable_policy,omitempty"`
}

// Save writes m as one JSON object:
//
//	{
//	  "format": "arbor-propagate", "version": 1,
//	  "n_classes": 2,
//	  "distributions": [[0.9, 0.1], ...], // n rows of C scores
//	  "transduction": [0, 1, ...],        // label of each fitted row (-1: unreachable)
//	  "sets": [[0], [0, 1], ...],         // multi-label fits only
//	  "unreachable": [17, 18],            // optional
//	  "method": "closed", "iter": 12, "change": 1e-11, "converged": true,
//	  "unreachable_policy": "first"       // optional (Policy)
//	}
//
// Numbers use Go's shortest round-trip formatting, so a loaded model
// predicts bit-identically. Warnings are not saved.
func (m *Model) Save(w io.Writer) error {
	n, _ := m.Distributions.Dims()
	out := modelJSON{Format: modelFormat, Version: modelVersion, NClasses: m.NClasses,
		Distributions: make([][]float64, n), Transduction: m.transduction, Sets: m.Sets,
		Unreachable: m.Unreachable, Method: m.Method, Iter: m.Iter, Change: m.Change, Converged: m.Converged,
		Policy: m.Policy}
	for i := range n {
		out.Distributions[i] = m.Distributions.RawRowView(i)
	}
	return modelio.Encode(w, out)
}

// Load reads a model written by Save and checks its consistency. Errors:
// ErrFormat or the reader's error.
func Load(r io.Reader) (*Model, error) {
	var in modelJSON
	if err := modelio.Decode(r, &in, modelFormat, modelVersion, ErrFormat); err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	n, C := len(in.Distributions), in.NClasses
	if n == 0 || C < 1 || len(in.Transduction) != n {
		return nil, bad("%d rows, %d classes, %d transduction labels", n, C, len(in.Transduction))
	}
	if in.Method != Closed && in.Method != Iterative {
		return nil, bad("method %.40q", in.Method)
	}
	for i, row := range in.Distributions {
		if len(row) != C {
			return nil, bad("distributions row %d has %d values, want %d (n_classes)", i, len(row), C)
		}
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, bad("distributions row %d: non-finite value", i)
			}
		}
	}
	D := mat.NewDense(n, C, nil) // n·C values read above: no overflow
	for i, row := range in.Distributions {
		D.SetRow(i, row)
	}
	for i, c := range in.Transduction {
		if c < learner.Unlabeled || c >= C {
			return nil, bad("transduction[%d] = %d outside [-1, %d)", i, c, C)
		}
	}
	if in.Sets != nil && len(in.Sets) != n {
		return nil, bad("sets has %d rows, want %d", len(in.Sets), n)
	}
	for _, u := range in.Unreachable {
		if u < 0 || u >= n {
			return nil, bad("unreachable row %d outside [0, %d)", u, n)
		}
	}
	switch in.Policy {
	case "", UnreachableError, UnreachableUnlabeled, UnreachableFirst:
	default:
		return nil, bad("unreachable_policy %.40q", in.Policy)
	}
	return &Model{NClasses: C, Distributions: D, transduction: in.Transduction, Sets: in.Sets,
		Unreachable: in.Unreachable, Method: in.Method, Iter: in.Iter, Change: in.Change, Converged: in.Converged,
		Policy: in.Policy}, nil
}
