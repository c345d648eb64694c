package svcluster

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// FitGram runs support vector clustering on a precomputed n×n kernel
// matrix K of the Gaussian (Kernel = Gaussian) or exponential (Kernel =
// Exponential) kernel: the SVDD of eq. (5) on K (svm.SVDD.FitGram), then
// cone cluster labelling written in kernel values, the one labelling of
// this package that needs no input-space points. Labelling must be Cone
// (the segment tests of eq. 17 sample points between two inputs, which K
// does not have); Q is not used (K already holds it), Samples and K are
// not used.
//
// Cone labelling in kernel values. With c = √(1 − R²) clamped to [0, 1],
// cone labelling joins support vectors v_i, v_j when ‖v_i − v_j‖ ≤ 2Z,
// Z = √(−ln c / q) (Gaussian) or −ln c / q (exponential). Since
// K_ij = exp(−q‖v_i − v_j‖²) or exp(−q‖v_i − v_j‖), that is
//
//	K_ij ≥ c⁴ = (1 − R²)²   (Gaussian),     K_ij ≥ c² = 1 − R²   (exponential),
//
// and "the nearest support vector" (Euclidean) of a point is the support
// vector with the largest kernel value (ties to the lower row). Outliers are
// assigned, unless Unassigned, to the cluster of the non-outlier row with
// the largest kernel value, which is Fit's nearest row. So FitGram on the
// kernel matrix of X gives Fit's clusters on X with Labelling: Cone (up to
// rounding on pairs at exactly the threshold).
//
// K must be symmetric with a unit diagonal (both kernels have k(x, x) = 1)
// and entries in [0, 1]. The model's Predict uses k(x, x) = 1.
func (c Clusterer) FitGram(ctx context.Context, K mat.Symmetric) (*Model, error) {
	if K == nil {
		return nil, ErrEmpty
	}
	n := K.SymmetricDim()
	if n == 0 {
		return nil, fmt.Errorf("%w: 0×0 kernel matrix", ErrEmpty)
	}
	if n < 2 {
		return nil, fmt.Errorf("%w: got %d", ErrTooFewRows, n)
	}
	c = c.withDefaults()
	if c.Labelling != Cone {
		return nil, fmt.Errorf("%w: FitGram labels by cone labelling only (set Labelling: Cone); %v needs input points", ErrBadLabelling, c.Labelling)
	}
	if !c.Kernel.valid() {
		return nil, fmt.Errorf("%w: %v", ErrBadKernel, c.Kernel)
	}
	if err := checkC(c.C, n); err != nil {
		return nil, err
	}
	if c.Tol < 0 || c.CacheMB < 0 || c.MaxIter < 0 || math.IsNaN(c.Tol) || math.IsNaN(c.CacheMB) {
		return nil, fmt.Errorf("%w: negative Tol, CacheMB or MaxIter", ErrBadParam)
	}
	for i := 0; i < n; i++ {
		if v := K.At(i, i); v != 1 {
			return nil, fmt.Errorf("%w: K[%d][%d] = %v; the %v kernel has k(x, x) = 1", ErrBadParam, i, i, v, c.Kernel)
		}
		for j := 0; j < i; j++ {
			if v := K.At(i, j); !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("%w: K[%d][%d] = %v outside [0, 1]", ErrNonFinite, i, j, v)
			}
		}
	}
	if c.Progress != nil {
		c.Progress("svdd", 0, 0)
	}
	sm, err := svm.SVDD{C: c.C, Tol: c.Tol, CacheMB: c.CacheMB, MaxIter: c.MaxIter}.FitGram(ctx, K)
	if err != nil {
		return nil, fmt.Errorf("svcluster: SVDD on the kernel matrix at C = %g: %w", c.C, err)
	}
	sv, bsv := sm.SV, sm.BSV
	if c.C >= 1 && len(bsv) > 0 { // as label: with C = 1 nothing lies outside
		sv = append(append([]int(nil), sv...), bsv...)
		sort.Ints(sv)
		bsv = nil
	}
	inside := insideRows(n, bsv)
	if len(inside) == 0 {
		return nil, fmt.Errorf("%w (N = %d, C = %v)", ErrAllOutliers, n, c.C)
	}
	if len(sv) == 0 {
		return nil, fmt.Errorf("%w: no support vector on the sphere, cone labelling is undefined", ErrBadParam)
	}
	if c.Progress != nil {
		c.Progress("labelling", 0, len(sv))
	}
	cc := math.Min(1, math.Max(0, 1-sm.R2))
	kappa := cc // exponential: c² = 1 − R²
	if c.Kernel == Gaussian {
		kappa = cc * cc
	}
	uf := newUnionFind(len(sv))
	for a := range sv {
		if a%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for b := a + 1; b < len(sv); b++ {
			if K.At(sv[a], sv[b]) >= kappa {
				uf.union(a, b)
			}
		}
	}
	// nearest returns the position in cand of the row with the largest
	// kernel value against row r (ties to the earlier position).
	nearest := func(r int, cand []int) int {
		best, bk := -1, math.Inf(-1)
		for p, j := range cand {
			if v := K.At(r, j); v > bk {
				best, bk = p, v
			}
		}
		return best
	}
	labels := make([]int, n)
	id := map[int]int{}
	for p, i := range inside {
		if p%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		r := uf.find(nearest(i, sv))
		l, ok := id[r]
		if !ok {
			l = len(id)
			id[r] = l
		}
		labels[i] = l
	}
	for _, i := range bsv {
		if c.Unassigned {
			labels[i] = Noise
		} else {
			labels[i] = labels[inside[nearest(i, inside)]]
		}
	}
	return &Model{
		Kernel: c.Kernel, Gram: true, C: c.C, Labels: labels, NClusters: len(id),
		Beta: sm.Beta, R2: sm.R2, BetaKBeta: sm.BetaKBeta, Inside: inside,
		Iter: sm.Iter, Converged: sm.Converged, Warnings: sm.Warnings,
	}, nil
}
