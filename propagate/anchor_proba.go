package propagate

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
)

// Proba returns class probabilities for the rows of X (t×d, the features
// the model was fitted on): the normalised label distribution of the
// anchor graph. Row i's class scores are those Predict ranks,
//
//	s_j = (Z_i A)_j / λ_j,
//
// Z_i the normalised weights of its S nearest anchors, A the anchors' soft
// labels, λ_j the class masses (all 1 for spreading); its probabilities
// are the scores clipped at 0 (the least-squares soft labels can be
// slightly negative) and divided by their sum, so that each row sums to 1
// and its largest entry is Predict's class. A row whose clipped scores are
// all 0 while a label reaches it puts 1 on Predict's class; a row no label
// reaches (Predict's learner.Unlabeled) gets a row of 0. The rows are
// computed in parallel blocks, each row on its own: the result does not
// depend on GOMAXPROCS. dst, if not nil, must be t×C; nil allocates.
// Errors: ErrShape, ErrNonFinite, ctx.Err().
func (am *AnchorModel) Proba(ctx context.Context, dst *mat.Dense, X *mat.Dense) (*mat.Dense, error) {
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrShape)
	}
	n, d := X.Dims()
	m, da := am.anchors.Dims()
	if d != da {
		return nil, fmt.Errorf("%w: X has %d columns, the anchors %d", ErrShape, d, da)
	}
	C := len(am.lambda)
	if dst == nil {
		dst = mat.NewDense(max(n, 1), C, nil)
	} else if r, c := dst.Dims(); r != n || c != C {
		return nil, fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, r, c, n, C)
	}
	data := denseData(X)
	if err := checkFinite("X", data); err != nil {
		return nil, err
	}
	ix := neighbors.New(am.anchors.RawMatrix().Data, m, d)
	s := am.s
	err := parallel.Chunks(ctx, n, 1024, func(lo, hi int) {
		nb := make([]neighbors.Neighbor, 0, s)
		ki := make([]int32, s)
		d2 := make([]float64, s)
		z := make([]float64, s)
		for i := lo; i < hi; i++ {
			nb = ix.Query(data[i*d:i*d+d], s, -1, nb)
			for a, c := range nb {
				ki[a], d2[a] = c.Index, c.D2
			}
			am.weights(z, d2)
			am.proba(dst.RawRowView(i), ki[:len(nb)], z[:len(nb)])
		}
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// proba sets p to the probabilities of a row with anchors ki and weights
// zi (Proba).
func (am *AnchorModel) proba(p []float64, ki []int32, zi []float64) {
	clear(p)
	if !am.reached(ki, zi) {
		return
	}
	sum := 0.0
	for j, l := range am.lambda {
		f := 0.0
		for a, k := range ki {
			f += zi[a] * am.a.At(int(k), j)
		}
		p[j] = math.Max(f/l, 0)
		sum += p[j]
	}
	if sum == 0 {
		p[am.classify(ki, zi)] = 1
		return
	}
	for j := range p {
		p[j] /= sum
	}
}

// Proba returns class probabilities for the rows of Xt by the
// out-of-sample rule of Predict: the sum of the label distributions
// (Model.Distributions) of each row's K nearest fitted rows, divided by
// its sum (Model.ProbaNeighbors); a row whose neighbours no label reaches
// gets a row of 0. dst, if not nil, must be t×C; nil allocates. Errors:
// ErrShape, ErrNonFinite, ctx.Err().
func (m *KNNModel) Proba(ctx context.Context, dst *mat.Dense, Xt *mat.Dense) (*mat.Dense, error) {
	idx, k, err := m.nearest(ctx, Xt)
	if err != nil {
		return nil, err
	}
	return m.Model.ProbaNeighbors(ctx, dst, idx, k)
}

// TransductionProba returns the label distributions of the fitted rows
// (Model.TransductionProba).
func (m *KNNModel) TransductionProba() *mat.Dense { return m.Model.TransductionProba() }
