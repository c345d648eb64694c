package propagate

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// AnchorSpreading is label spreading (Zhou et al. 2004, scikit-learn's
// LabelSpreading) on the anchor graph of AnchorGraph: the affinity is
// W = Z Λ⁻¹ Zᵀ (Z the N×M anchor weights, each row its S nearest anchors,
// Λ = diag(Zᵀ1)), and, as LabelSpreading does with any affinity, the
// diagonal is removed (W₀ = W − diag(w), w_i = Σ_k Z_ik²/Λ_k), D is the
// degree of W₀ (D_i = 1 − w_i, since W's rows sum to 1), S = D^{-1/2} W₀
// D^{-1/2}, and the soft labels are the fixed point of F ← αSF + (1−α)Y:
//
//	F = (1−α)·(I − αS)⁻¹·Y.
//
// With E = I + α·diag(w)·D⁻¹ and U = D^{-1/2} Z, I − αS = E − α U Λ⁻¹ Uᵀ,
// and by the Woodbury identity
//
//	F = E⁻¹R + E⁻¹U·(Λ/α − UᵀE⁻¹U)⁻¹·UᵀE⁻¹R,   R = (1−α)Y,
//
// one M×M symmetric positive definite system (a Schur complement of
// [[E, U], [Uᵀ, Λ/α]]): O(N·S²) to form it, O(M³) to solve it, O(N·S + M²)
// memory. It equals LabelSpreading's closed form on the dense N×N anchor
// affinity (tested). A row's class is the argmax of F (first on ties); a
// row with F = 0 (its anchors' component holds no label) is unreachable:
// an error, Unlabeled (−1) or class 0 by the Unreachable policy. A new point x is labelled as LabelSpreading.predict
// does, from its affinities w(x, j) = z(x) Λ⁻¹ z_jᵀ to the fitted rows and
// their normalised soft labels F̂: argmax z(x)·B with B = Λ⁻¹ Zᵀ F̂ (M×C).
type AnchorSpreading struct {
	// S is the number of nearest anchors of each point (default 3).
	S int
	// Alpha is the clamping factor α in (0, 1) (default 0.2, as
	// scikit-learn).
	Alpha float64
	// Sigma and Unreachable: as AnchorGraph's.
	Sigma       float64
	Unreachable string
}

func (g AnchorSpreading) alpha() float64 {
	if g.Alpha == 0 {
		return 0.2
	}
	return g.Alpha
}

// Validate reports whether the settings are usable.
func (g AnchorSpreading) Validate() error {
	if g.S < 0 {
		return fmt.Errorf("%w: anchor spreading S = %d, want >= 1", ErrBadParam, g.S)
	}
	if !(g.Alpha >= 0 && g.Alpha < 1) {
		return fmt.Errorf("%w: anchor spreading Alpha = %v, want in (0, 1)", ErrBadParam, g.Alpha)
	}
	return checkAnchorCommon(g.Sigma, g.Unreachable)
}

// Fit spreads the labels y (a class 0..C−1, or −1 for unlabelled) over the
// anchor graph of the rows of anchors. Errors: ErrBadParam, ErrShape,
// ErrNonFinite, ErrBadLabel, ErrNoLabels, ErrOneClass, ctx.Err().
func (g AnchorSpreading) Fit(ctx context.Context, X, anchors *mat.Dense, y []int) (*AnchorModel, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	n, m, classes, err := checkAnchorInput(X, anchors, y)
	if err != nil {
		return nil, err
	}
	anchors, m = mergeAnchors(anchors) // as AnchorGraph: equal anchors are one
	s := min(AnchorGraph{S: g.S}.s(), m)
	am, idx, z, err := anchorWeights(ctx, X, anchors, s, g.Sigma)
	if err != nil {
		return nil, err
	}
	am.method = "spreading"
	// Λ, the system and B are sums over the rows, summed by blocks of
	// parallel.BlockRows rows added in block order (as AnchorGraph's), by
	// the same steps as a fit in parts (SpreadParts).
	sp := spread{alpha: g.alpha(), m: m, classes: classes, s: s}
	nb := parallel.Blocks(n)
	lams := make([][]float64, nb)
	for b := range lams {
		lo, hi := parallel.Block(b, n)
		lams[b] = sp.lambda(idx[lo*s:hi*s], z[lo*s:hi*s])
	}
	lam := sp.sumLambda(lams)
	sums := sp.newSums()
	for b := 0; b < nb; b++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lo, hi := parallel.Block(b, n)
		sums.Merge(sp.sums(idx[lo*s:hi*s], z[lo*s:hi*s], y[lo:hi], lam))
	}
	sol, err := sp.solve(lam, sums)
	if err != nil {
		return nil, err
	}
	blocks := make([]*SpreadBlock, nb)
	for b := range blocks {
		lo, hi := parallel.Block(b, n)
		if blocks[b], err = sp.transduce(idx[lo*s:hi*s], z[lo*s:hi*s], y[lo:hi], sol); err != nil {
			return nil, err
		}
	}
	return sp.model(am, sol, blocks, y, g.Unreachable)
}
