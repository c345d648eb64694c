package pipeline

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/propagate"
)

// affinityRows returns the t×N affinity rows W(x, x_j) of the (scaled) new
// points Xt to the training rows, for label propagation or spreading
// fitted on the points with affinity a (scikit-learn's predict): RBF
// exp(−γ‖x − x_j‖²). The KNN affinity needs no such rows: Predict labels
// from the neighbour lists (knnRows, propagate.Model.PredictNeighbors),
// which equals the model on rows with a 1 at the K nearest training rows.
func (p *Pipeline) affinityRows(ctx context.Context, a propagate.Affinity, Xt *mat.Dense) (*mat.Dense, error) {
	switch a.Kind {
	case propagate.RBF, "":
		g := a.Gamma
		if g == 0 {
			g = 20
		}
		return kernel.Cross(ctx, nil, kernel.RBF{Gamma: g}, Xt, p.X)
	}
	return nil, fmt.Errorf("%w: label propagation affinity %v on new points", ErrLearner, a)
}

// knnRows returns the K nearest training rows of each row of Xt, in
// (d², index) order, t·K indices, and K (the knn:K affinity; at most N).
func (p *Pipeline) knnRows(ctx context.Context, a propagate.Affinity, Xt *mat.Dense) ([]int32, int, error) {
	n, d := p.X.Dims()
	t, _ := Xt.Dims()
	k := a.K
	if k == 0 {
		k = 7
	}
	k = min(k, n)
	p.ixOnce.Do(func() { p.ix = neighbors.New(mat.DenseCopyOf(p.X).RawMatrix().Data, n, d) })
	idx := make([]int32, t*k)
	if err := p.ix.Search(ctx, mat.DenseCopyOf(Xt).RawMatrix().Data, k, idx, nil); err != nil {
		return nil, 0, err
	}
	return idx, k, nil
}
