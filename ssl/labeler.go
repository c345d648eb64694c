package ssl

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
)

// Labeler returns the function that labels new points with m, a model
// fitted (by Transduce or Fit) on the kernel b over the rows X: each call
// extends the kernel to the new points (b.Extend with rule: kernel.RuleTree
// or kernel.RuleLinear for the cluster kernels, "" for the default) and
// predicts from those rows (learner.DiagPredictor's PredictDiag with their
// self-similarities when m is one). The function suits figure.Predictor;
// ctx is checked by each call's work.
func Labeler(ctx context.Context, m learner.Model, b kernel.Built, X *mat.Dense, rule string) func(Xt *mat.Dense) ([]int, error) {
	return func(Xt *mat.Dense) ([]int, error) {
		Kt, diag, err := b.Extend(ctx, X, Xt, rule)
		if err != nil {
			return nil, err
		}
		if dp, ok := m.(learner.DiagPredictor); ok {
			if diag == nil {
				return nil, fmt.Errorf("ssl: kernel %s gives no self-similarities k(x, x) for the new points", b.Spec)
			}
			return dp.PredictDiag(ctx, nil, Kt, diag)
		}
		return m.Predict(ctx, nil, Kt)
	}
}
