package main

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/learner"
	"math"

	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

// anchorFitRows fits lp or spreading on the anchor graph of anchors (ln is
// the exact learner the flags built: ssl.Propagation or ssl.Spreading) and
// returns the model with a description for stderr. The anchor graph takes
// the exact learner's settings where it has them: α, the --unreachable
// policy, and its kernel width σ from the exact affinity, so that it falls
// off at the scale of the graph it stands for (propagate's doc, "Anchor
// graph"): knn:K → propagate.KNNRadius (the mean distance of a row to its
// K-th nearest row, itself the first), rbf:γ → σ = 1/√γ (the same Gaussian
// exp(−d²/σ²)), kernel → the paper's width (mean distance to the S-th
// nearest anchor).
func anchorFitRows(ctx context.Context, X, anchors *mat.Dense, y []int, ln learner.Learner) (*propagate.AnchorModel, string, error) {
	var aff propagate.Affinity
	var unreachable string
	spreading, alpha := false, 0.0
	p, isLP := learner.As[propagate.Propagation](ln)
	s, isSpreading := learner.As[propagate.Spreading](ln)
	switch {
	case isLP:
		aff, unreachable = p.Affinity, p.Unreachable
	case isSpreading:
		aff, unreachable = s.Affinity, s.Unreachable
		spreading, alpha = true, s.Alpha
	default:
		return nil, "", usageError("the anchor graph runs lp or spreading, not %s", ln.Name())
	}
	sigma, width := 0.0, "the paper's width (mean distance to the 3rd nearest anchor)"
	switch aff.Kind {
	case propagate.KNN:
		k := aff.K
		if k == 0 {
			k = 7 // propagate.Affinity's default
		}
		n, _ := X.Dims()
		r, err := propagate.KNNRadius(ctx, X, min(k, n))
		if err != nil {
			return nil, "", err
		}
		sigma, width = r, fmt.Sprintf("width %.4g, the mean distance to the %d-th nearest row (knn:%d)", r, k, k)
	case propagate.RBF, "":
		g := aff.Gamma
		if g == 0 {
			g = 20 // propagate.Affinity's default
		}
		sigma = 1 / math.Sqrt(g)
		width = fmt.Sprintf("width %.4g = 1/√γ (rbf:%g)", sigma, g)
	}
	var m *propagate.AnchorModel
	var err error
	what := "label propagation"
	if spreading {
		what = fmt.Sprintf("label spreading (alpha %g)", alpha)
		m, err = propagate.AnchorSpreading{Alpha: alpha, Sigma: sigma, Unreachable: unreachable}.Fit(ctx, X, anchors, y)
	} else {
		m, err = propagate.AnchorGraph{Sigma: sigma, Unreachable: unreachable}.Fit(ctx, X, anchors, y)
	}
	if err != nil {
		return nil, "", err
	}
	return m, fmt.Sprintf("%s on the anchor graph, each point tied to its 3 nearest anchors, Gaussian weights of %s", what, width), nil
}
