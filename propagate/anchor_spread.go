package propagate

import (
	"context"
	"fmt"
	"math"

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
	alpha := g.alpha()
	// Λ, the system and B are sums over the rows, summed by blocks of
	// parallel.BlockRows rows added in block order (as AnchorGraph's).
	lam := make([]float64, m)
	for b := 0; b < parallel.Blocks(n); b++ {
		lo, hi := parallel.Block(b, n)
		part := make([]float64, m)
		for i := lo * s; i < hi*s; i++ {
			part[idx[i]] += z[i]
		}
		for k, v := range part {
			lam[k] += v
		}
	}
	// Per row: w_i, D_i, E_i, and the scale c_i = 1/(√D_i·E_i) of U's row
	// in UᵀE⁻¹ (so UᵀE⁻¹U = Σ_i z_iᵀz_i / (D_i·E_i)).
	dinv := make([]float64, n) // 1/√D_i
	einv := make([]float64, n) // 1/E_i
	for i := 0; i < n; i++ {
		w := 0.0
		for a := 0; a < s; a++ {
			k := idx[i*s+a]
			w += z[i*s+a] * z[i*s+a] / lam[k]
		}
		deg := 1 - w
		if !(deg > 1e-12) {
			deg = 1 // isolated in W₀ (scipy's csgraph.laplacian convention)
		}
		dinv[i] = 1 / math.Sqrt(deg)
		einv[i] = 1 / (1 + alpha*w/deg)
	}
	sys := make([]float64, m*m)
	rhs := mat.NewDense(m, classes, nil)
	psys := make([]float64, m*m)
	prhs := make([]float64, m*classes)
	for blk := 0; blk < parallel.Blocks(n); blk++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lo, hi := parallel.Block(blk, n)
		clear(psys)
		clear(prhs)
		for i := lo; i < hi; i++ {
			ki, zi := idx[i*s:i*s+s], z[i*s:i*s+s]
			c := dinv[i] * dinv[i] * einv[i]
			for a, ka := range ki {
				for b, kb := range ki {
					psys[int(ka)*m+int(kb)] -= c * zi[a] * zi[b]
				}
			}
			if y[i] >= 0 {
				r := (1 - alpha) * dinv[i] * einv[i]
				for a, ka := range ki {
					prhs[int(ka)*classes+y[i]] += r * zi[a]
				}
			}
		}
		for k, v := range psys {
			sys[k] += v
		}
		raw := rhs.RawMatrix().Data
		for k, v := range prhs {
			raw[k] += v
		}
	}
	S := mat.NewSymDense(m, nil)
	for k := 0; k < m; k++ {
		for j := k; j < m; j++ {
			v := 0.5 * (sys[k*m+j] + sys[j*m+k])
			if k == j {
				v += lam[k] / alpha
				if lam[k] == 0 {
					v = 1 // an anchor no point uses
				}
			}
			S.SetSym(k, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(S) {
		return nil, fmt.Errorf("%w: anchor spreading system is not positive definite", ErrNonFinite)
	}
	sol := mat.NewDense(m, classes, nil)
	if err := ch.SolveTo(sol, rhs); err != nil {
		return nil, fmt.Errorf("%w: anchor spreading solve: %v", ErrNonFinite, err)
	}
	// The Woodbury form above, row by row: F_i = E_i⁻¹·(R_i + (z_i/√D_i)·X),
	// X the solution; then B accumulates z_iᵀ F̂_i.
	am.labels = make([]int, n)
	reached := make([]bool, n)
	am.a = mat.NewDense(m, classes, nil) // B = Λ⁻¹ Zᵀ F̂
	bsum := am.a.RawMatrix().Data
	part := make([]float64, m*classes) // the block's part of Zᵀ F̂
	f := make([]float64, classes)
	for i := 0; i < n; i++ {
		if i%parallel.BlockRows == 0 && i > 0 {
			for k, v := range part {
				bsum[k] += v
			}
			clear(part)
		}
		ki, zi := idx[i*s:i*s+s], z[i*s:i*s+s]
		for c := range f {
			f[c] = 0
			if y[i] == c {
				f[c] = 1 - alpha
			}
			for a, ka := range ki {
				f[c] += dinv[i] * zi[a] * sol.At(int(ka), c)
			}
			f[c] *= einv[i]
		}
		if err := checkScores(f, classes); err != nil {
			return nil, err
		}
		tot, best := 0.0, 0
		for c, v := range f {
			tot += v
			if v > f[best] {
				best = c
			}
		}
		if tot == 0 {
			continue // no label reaches row i (applyUnreachable)
		}
		reached[i] = true
		am.labels[i] = best
		for a, ka := range ki {
			for c, v := range f {
				part[int(ka)*classes+c] += zi[a] * v / tot
			}
		}
	}
	for k, v := range part {
		bsum[k] += v
	}
	for k := 0; k < m; k++ {
		if lam[k] > 0 {
			for c := 0; c < classes; c++ {
				am.a.Set(k, c, am.a.At(k, c)/lam[k])
			}
		}
	}
	am.lambda = make([]float64, classes)
	for c := range am.lambda {
		am.lambda[c] = 1
	}
	if err := am.applyUnreachable(reached, y, g.Unreachable); err != nil {
		return nil, err
	}
	return am, nil
}
