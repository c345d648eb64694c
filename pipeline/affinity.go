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
// exp(−γ‖x − x_j‖²); KNN 1 for the K nearest training rows in (d², index)
// order, 0 elsewhere.
func (p *Pipeline) affinityRows(ctx context.Context, a propagate.Affinity, Xt *mat.Dense) (*mat.Dense, error) {
	n, d := p.X.Dims()
	t, _ := Xt.Dims()
	switch a.Kind {
	case propagate.RBF, "":
		g := a.Gamma
		if g == 0 {
			g = 20
		}
		return kernel.Cross(ctx, nil, kernel.RBF{Gamma: g}, Xt, p.X)
	case propagate.KNN:
		k := a.K
		if k == 0 {
			k = 7
		}
		k = min(k, n)
		p.ixOnce.Do(func() { p.ix = neighbors.New(mat.DenseCopyOf(p.X).RawMatrix().Data, n, d) })
		idx := make([]int32, t*k)
		if err := p.ix.Search(ctx, mat.DenseCopyOf(Xt).RawMatrix().Data, k, idx, nil); err != nil {
			return nil, err
		}
		W := mat.NewDense(t, n, nil)
		for q := 0; q < t; q++ {
			for _, j := range idx[q*k : (q+1)*k] {
				W.Set(q, int(j), 1)
			}
		}
		return W, nil
	}
	return nil, fmt.Errorf("%w: label propagation affinity %v on new points", ErrLearner, a)
}
