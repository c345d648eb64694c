package propagate

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// KNNModel is label spreading fitted on the directed kNN graph of points
// (Affinity KNN) together with the fitted rows, so that new points are
// labelled by the out-of-sample rule of Model.Predict from their K nearest
// fitted rows, found by one exact k-d tree over the rows
// (internal/neighbors), instead of from affinity rows over all N fitted
// rows. The graph has N·K edges: fitting and predicting need no N×N
// matrix (O(N·(K + d + C)) memory), which is why arbor classify
// --landmarks runs spreading with a knn affinity on it rather than on the
// anchor graph (see the package doc, "kNN graph of all rows"). It is
// immutable and safe for concurrent use.
type KNNModel struct {
	// Model is the fitted transduction on the graph: Distributions,
	// Unreachable, Iter, Converged, Warnings, as Spreading.Fit returns it.
	Model *Model

	k      int
	x      *mat.Dense // the n×d fitted rows (a copy)
	method string     // "spreading"

	once sync.Once
	ix   *neighbors.Index
}

// FitKNN is Fit on the rows of X with the KNN affinity (Affinity.Kind must
// be KNN), keeping a copy of the rows for KNNModel.Predict. The
// transduction equals Fit's. Every row may be labelled (the model is then
// for new points; spreading may still relabel a labelled row). Errors:
// those of Fit but ErrNoUnlabeled, and ErrAffinity for another affinity.
func (s Spreading) FitKNN(ctx context.Context, X *mat.Dense, y []int) (*KNNModel, error) {
	if s.Affinity.Kind != KNN {
		return nil, fmt.Errorf("%w: FitKNN needs the knn affinity, not %v", ErrAffinity, s.Affinity)
	}
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrShape)
	}
	s.inductive = true
	m, err := s.Fit(ctx, X, y)
	if err != nil {
		return nil, err
	}
	return &KNNModel{Model: m, k: s.Affinity.k(), x: mat.DenseCopyOf(X), method: "spreading"}, nil
}

// K returns the number of neighbours of the graph (the point itself
// included for the fitted rows).
func (m *KNNModel) K() int { return m.k }

// Dim returns the number of features the model expects.
func (m *KNNModel) Dim() int { _, d := m.x.Dims(); return d }

// Classes returns 0, 1, ..., C−1.
func (m *KNNModel) Classes() []int { return m.Model.Classes() }

// Transduction returns the label of each fitted row (Model.Transduction).
func (m *KNNModel) Transduction() []int { return m.Model.Transduction() }

// Predict sets dst[i] to the label of row i of Xt (t×d, the features the
// model was fitted on) by the out-of-sample rule of Model.Predict with
// the kNN affinity: the class scores of x are Σ_j F̂_j over the K nearest
// fitted rows j of x in (d², index) order (F̂ = Distributions), summed in
// increasing j; x takes their argmax (first class on ties), or
// learner.Unlabeled when every score is 0 (its neighbours are all
// unreachable rows). The labels equal Model.Predict's on the t×N affinity
// rows (tested), at O(K·C + log N) per point. nil dst allocates. Errors:
// ErrShape, ErrNonFinite, ctx.Err().
func (m *KNNModel) Predict(ctx context.Context, dst []int, Xt *mat.Dense) ([]int, error) {
	if Xt == nil {
		return nil, fmt.Errorf("%w: nil Xt", ErrShape)
	}
	t, _ := Xt.Dims()
	if dst == nil {
		dst = make([]int, t)
	} else if len(dst) != t {
		return nil, fmt.Errorf("%w: dst has length %d, Xt has %d rows", ErrShape, len(dst), t)
	}
	idx, k, err := m.nearest(ctx, Xt)
	if err != nil {
		return nil, err
	}
	return m.Model.PredictNeighbors(ctx, dst, idx, k)
}

// nearest returns the k nearest fitted rows of each row of Xt (t×k, in
// (d², index) order) and k.
func (m *KNNModel) nearest(ctx context.Context, Xt *mat.Dense) ([]int32, int, error) {
	if Xt == nil {
		return nil, 0, fmt.Errorf("%w: nil Xt", ErrShape)
	}
	t, d := Xt.Dims()
	n, dm := m.x.Dims()
	if d != dm {
		return nil, 0, fmt.Errorf("%w: Xt has %d columns, the model %d", ErrShape, d, dm)
	}
	q := denseData(Xt)
	for i, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("%w: Xt[%d,%d] = %v", ErrNonFinite, i/d, i%d, v)
		}
	}
	m.once.Do(func() { m.ix = neighbors.New(m.x.RawMatrix().Data, n, d) })
	k := min(m.k, n)
	idx := make([]int32, t*k)
	if err := m.ix.Search(ctx, q, k, idx, nil); err != nil {
		return nil, 0, err
	}
	return idx, k, nil
}

// PredictNeighbors labels t new points from their k nearest fitted rows,
// nb[q·k : (q+1)·k] those of point q (in any order; each block is sorted
// in place): the labels equal Predict's on the t×N affinity rows with a 1
// at those rows (the kNN affinity; the scores are summed in increasing
// row order, as Predict sums), in O(t·k·C) work and no t×N matrix. nil
// dst allocates. Errors: ErrShape (k < 1, len(nb) not t·k, a row outside
// 0..N−1), ctx.Err().
func (m *Model) PredictNeighbors(ctx context.Context, dst []int, nb []int32, k int) ([]int, error) {
	N, C := m.Distributions.Dims()
	if k < 1 || len(nb)%k != 0 {
		return nil, fmt.Errorf("%w: %d neighbour indices for k = %d", ErrShape, len(nb), k)
	}
	t := len(nb) / k
	if dst == nil {
		dst = make([]int, t)
	} else if len(dst) != t {
		return nil, fmt.Errorf("%w: dst has length %d, %d points", ErrShape, len(dst), t)
	}
	for q, j := range nb {
		if j < 0 || int(j) >= N {
			return nil, fmt.Errorf("%w: point %d: neighbour row %d outside [0, %d)", ErrShape, q/k, j, N)
		}
	}
	F := m.Distributions
	return dst, parallel.Chunks(ctx, t, 1024, func(lo, hi int) {
		score := make([]float64, C)
		for i := lo; i < hi; i++ {
			rows := nb[i*k : (i+1)*k]
			sortInt32(rows)
			clear(score)
			for _, j := range rows {
				for c, v := range F.RawRowView(int(j)) {
					score[c] += v
				}
			}
			dst[i] = m.argmax(score)
		}
	})
}

const (
	knnModelFormat  = "arbor-knn-graph"
	knnModelVersion = 1
)

// knnModelJSON is the saved form of a KNNModel (internal/modelio): the
// fitted rows and their soft labels as exact float blocks.
type knnModelJSON struct {
	Format        string         `json:"format"`
	Version       int            `json:"version"`
	Learner       string         `json:"learner"` // "spreading"
	K             int            `json:"k"`
	N             int            `json:"n"`
	Dim           int            `json:"dim"`
	Classes       int            `json:"classes"`
	Rows          modelio.Floats `json:"rows"`          // n×dim, row-major
	Distributions modelio.Floats `json:"distributions"` // n×classes, row-major
	Transduction  []int          `json:"transduction"`
	Unreachable   []int          `json:"unreachable,omitempty"`
	Method        string         `json:"method"`
	Iter          int            `json:"iter"`
	Change        float64        `json:"change"`
	Converged     bool           `json:"converged"`
	Policy        string         `json:"unreachable_policy,omitempty"` // optional: Model.Policy
}

// Save writes the model (format "arbor-knn-graph", version 1): K, the
// fitted rows, their soft labels (Distributions) and transduction, and the
// solver's report. Floats are stored bit-exactly, so a loaded model
// predicts identically. Warnings are not saved.
func (m *KNNModel) Save(w io.Writer) error {
	n, d := m.x.Dims()
	_, C := m.Model.Distributions.Dims()
	mm := m.Model
	return modelio.Encode(w, knnModelJSON{Format: knnModelFormat, Version: knnModelVersion, Learner: m.method,
		K: m.k, N: n, Dim: d, Classes: C,
		Rows: m.x.RawMatrix().Data, Distributions: mat.DenseCopyOf(mm.Distributions).RawMatrix().Data,
		Transduction: mm.transduction, Unreachable: mm.Unreachable, Method: mm.Method,
		Iter: mm.Iter, Change: mm.Change, Converged: mm.Converged, Policy: mm.Policy})
}

// LoadKNN reads a model written by KNNModel.Save and checks its
// consistency. Errors: ErrFormat or the reader's error.
func LoadKNN(r io.Reader) (*KNNModel, error) {
	var in knnModelJSON
	if err := modelio.Decode(r, &in, knnModelFormat, knnModelVersion, ErrFormat); err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: kNN graph model: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	switch {
	case in.Learner != "spreading":
		return nil, bad("learner %.40q", in.Learner)
	case in.N < 1 || in.Dim < 1 || in.Classes < 2 || in.K < 1:
		return nil, bad("%d rows, %d features, %d classes, k = %d", in.N, in.Dim, in.Classes, in.K)
	case !modelio.IsShape(len(in.Rows), in.N, in.Dim) || !modelio.IsShape(len(in.Distributions), in.N, in.Classes) || len(in.Transduction) != in.N:
		return nil, bad("blocks of %d, %d values and %d labels for %d rows × %d features, %d classes",
			len(in.Rows), len(in.Distributions), len(in.Transduction), in.N, in.Dim, in.Classes)
	case in.Method != Closed && in.Method != Iterative:
		return nil, bad("method %.40q", in.Method)
	case in.Policy != "" && in.Policy != UnreachableError && in.Policy != UnreachableUnlabeled && in.Policy != UnreachableFirst:
		return nil, bad("unreachable_policy %.40q", in.Policy)
	}
	for _, blk := range [][]float64{in.Rows, in.Distributions} {
		for _, v := range blk {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, bad("non-finite value %v", v)
			}
		}
	}
	for i, c := range in.Transduction {
		if c < learner.Unlabeled || c >= in.Classes {
			return nil, bad("transduction[%d] = %d outside [-1, %d)", i, c, in.Classes)
		}
	}
	for _, u := range in.Unreachable {
		if u < 0 || u >= in.N {
			return nil, bad("unreachable row %d outside [0, %d)", u, in.N)
		}
	}
	mm := &Model{NClasses: in.Classes, Distributions: mat.NewDense(in.N, in.Classes, in.Distributions),
		transduction: in.Transduction, Unreachable: in.Unreachable, Method: in.Method,
		Iter: in.Iter, Change: in.Change, Converged: in.Converged, Policy: in.Policy}
	return &KNNModel{Model: mm, k: in.K, x: mat.NewDense(in.N, in.Dim, in.Rows), method: in.Learner}, nil
}
