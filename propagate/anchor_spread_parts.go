package propagate

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SpreadParts fits AnchorSpreading from blocks of rows that need not be
// in one process (the Beam module's fit job): every sum over the rows is
// summed by blocks of parallel.BlockRows rows, as AnchorSpreading.Fit sums
// them (by the same steps), so the model is Fit's bit for bit. With rows
// split into those blocks (block b: rows b·BlockRows …):
//
//  1. p := g.Parts(anchors, classes);
//  2. when p.NeedsWidth(): per block WidthSum, added in block order, then
//     p.SetWidth(total, n) (as AnchorParts);
//  3. per block Lambda, summed in block order by SumLambda: Λ;
//  4. per block Sums (they need Λ for each row's degree), merged in block
//     order by SpreadSums.Merge into p.NewSums();
//  5. sol := p.Solve(Λ, sums), the M×M system;
//  6. per block Transduce: the block's labels and its part of B;
//  7. p.Model(sol, blocks in block order, y).
//
// Steps 2, 3, 4 and 6 on different blocks are independent.
type SpreadParts struct {
	*AnchorParts // the anchors, S and σ (NeedsWidth, WidthSum, SetWidth)
	alpha        float64
	unreachable  string
}

// Parts starts a fit in parts on the rows of anchors (equal anchors kept
// once, as Fit does) with labels 0..classes−1. Errors: ErrBadParam,
// ErrShape, ErrNonFinite, ErrOneClass.
func (g AnchorSpreading) Parts(anchors *mat.Dense, classes int) (*SpreadParts, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	ap, err := AnchorGraph{S: g.S, Sigma: g.Sigma, Unreachable: g.Unreachable}.Parts(anchors, classes)
	if err != nil {
		return nil, err
	}
	return &SpreadParts{AnchorParts: ap, alpha: g.alpha(), unreachable: g.Unreachable}, nil
}

func (p *SpreadParts) spread() spread {
	m, _ := p.model.anchors.Dims()
	return spread{alpha: p.alpha, m: m, classes: p.classes, s: p.model.s}
}

// weights returns the block X's nearest anchors and their weights. σ must
// be set.
func (p *SpreadParts) weights(ctx context.Context, X *mat.Dense, y []int) ([]int32, []float64, error) {
	if p.width {
		panic("propagate: SpreadParts before SetWidth")
	}
	n, _ := X.Dims()
	if y != nil && len(y) != n {
		return nil, nil, fmt.Errorf("%w: %d rows, %d labels", ErrShape, n, len(y))
	}
	for i, c := range y {
		if c < -1 || c >= p.classes {
			return nil, nil, fmt.Errorf("%w: y[%d] = %d (want −1 or a class 0..%d)", ErrBadLabel, i, c, p.classes-1)
		}
	}
	idx, d2, err := p.neighbours(ctx, X)
	if err != nil {
		return nil, nil, err
	}
	return idx, p.model.weightsOf(d2), nil
}

// Lambda returns the block X's part of Λ = Zᵀ1 (M values), in row order
// from zero. Errors: ErrShape, ErrNonFinite, ctx.Err().
func (p *SpreadParts) Lambda(ctx context.Context, X *mat.Dense) ([]float64, error) {
	idx, z, err := p.weights(ctx, X, nil)
	if err != nil {
		return nil, err
	}
	return p.spread().lambda(idx, z), nil
}

// SumLambda adds the blocks' Lambda in block order: Λ. Errors: ErrShape.
func (p *SpreadParts) SumLambda(parts [][]float64) ([]float64, error) {
	sp := p.spread()
	for _, v := range parts {
		if len(v) != sp.m {
			return nil, fmt.Errorf("%w: a part of Λ of %d values for %d anchors", ErrShape, len(v), sp.m)
		}
	}
	return sp.sumLambda(parts), nil
}

// SpreadSums are the sums over rows of a spreading fit: the rows' part of
// the system, −Σ_i z_iᵀz_i/(D_i·E_i) (M×M, row-major), and of its right
// side, Σ_i (1−α)·z_iᵀ Y_i/(√D_i·E_i) (M×C). Exported fields, for a fit in
// parts to carry them between processes.
type SpreadSums struct {
	M, Classes int
	Sys, Rhs   []float64
}

// NewSums returns zero sums of the right size.
func (p *SpreadParts) NewSums() *SpreadSums { return p.spread().newSums() }

// Merge adds o, the sums of the next block, to s. Errors: ErrShape for
// sums of other sizes.
func (s *SpreadSums) Merge(o *SpreadSums) error {
	if o.M != s.M || o.Classes != s.Classes || len(o.Sys) != len(s.Sys) || len(o.Rhs) != len(s.Rhs) {
		return fmt.Errorf("%w: spreading sums of %d anchors and %d classes, merged with %d and %d", ErrShape, s.M, s.Classes, o.M, o.Classes)
	}
	for k, v := range o.Sys {
		s.Sys[k] += v
	}
	for k, v := range o.Rhs {
		s.Rhs[k] += v
	}
	return nil
}

// Sums returns the sums of the block X with labels y (a class, or −1),
// given Λ of all rows. Errors: ErrShape, ErrNonFinite, ErrBadLabel,
// ctx.Err().
func (p *SpreadParts) Sums(ctx context.Context, X *mat.Dense, y []int, lam []float64) (*SpreadSums, error) {
	sp := p.spread()
	if len(lam) != sp.m {
		return nil, fmt.Errorf("%w: Λ of %d values for %d anchors", ErrShape, len(lam), sp.m)
	}
	idx, z, err := p.weights(ctx, X, y)
	if err != nil {
		return nil, err
	}
	return sp.sums(idx, z, y, lam), nil
}

// SpreadSolution is the solved M×M system of a spreading fit: Λ and the
// solution X (M×C, row-major). Exported fields, for a fit in parts to
// carry it between processes.
type SpreadSolution struct {
	M, Classes int
	Lambda, X  []float64
}

// Solve solves the system of Λ and the sums of all rows. Errors:
// ErrShape, ErrNonFinite (the system not positive definite).
func (p *SpreadParts) Solve(lam []float64, sums *SpreadSums) (*SpreadSolution, error) {
	sp := p.spread()
	if len(lam) != sp.m || sums.M != sp.m || sums.Classes != sp.classes || len(sums.Sys) != sp.m*sp.m || len(sums.Rhs) != sp.m*sp.classes {
		return nil, fmt.Errorf("%w: spreading sums of %d anchors and %d classes, Λ of %d, for %d and %d", ErrShape, sums.M, sums.Classes, len(lam), sp.m, sp.classes)
	}
	return sp.solve(lam, sums)
}

// SpreadBlock is a block's part of the transduction: its rows' classes
// (0 where no label reaches the row), whether a label reaches each, and
// the block's part of ZᵀF̂ (M×C, row-major).
type SpreadBlock struct {
	Labels  []int
	Reached []bool
	B       []float64
}

// Transduce returns the block X's part of the transduction (labels y).
// Errors: ErrShape, ErrNonFinite, ErrBadLabel, ctx.Err().
func (p *SpreadParts) Transduce(ctx context.Context, X *mat.Dense, y []int, sol *SpreadSolution) (*SpreadBlock, error) {
	sp := p.spread()
	if err := sp.check(sol); err != nil {
		return nil, err
	}
	idx, z, err := p.weights(ctx, X, y)
	if err != nil {
		return nil, err
	}
	return sp.transduce(idx, z, y, sol)
}

// Model completes the fit from the solution and every block's Transduce,
// in block order; y holds the labels of all rows. Errors: ErrShape,
// ErrUnreachable (policy "error").
func (p *SpreadParts) Model(sol *SpreadSolution, blocks []*SpreadBlock, y []int) (*AnchorModel, error) {
	sp := p.spread()
	if err := sp.check(sol); err != nil {
		return nil, err
	}
	n := 0
	for _, b := range blocks {
		if len(b.Labels) != len(b.Reached) || len(b.B) != sp.m*sp.classes {
			return nil, fmt.Errorf("%w: a spreading block of %d labels, %d reached and %d values of B", ErrShape, len(b.Labels), len(b.Reached), len(b.B))
		}
		n += len(b.Labels)
	}
	if n != len(y) {
		return nil, fmt.Errorf("%w: blocks of %d rows, %d labels", ErrShape, n, len(y))
	}
	am := *p.model
	return sp.model(&am, sol, blocks, y, p.unreachable)
}

// spread holds the steps of AnchorSpreading's fit that Fit and SpreadParts
// share, on the rows' nearest anchors idx and weights z (n×s each).
type spread struct {
	alpha         float64
	m, classes, s int
}

func (sp spread) check(sol *SpreadSolution) error {
	if sol.M != sp.m || sol.Classes != sp.classes || len(sol.Lambda) != sp.m || len(sol.X) != sp.m*sp.classes {
		return fmt.Errorf("%w: a spreading solution of %d anchors and %d classes for %d and %d", ErrShape, sol.M, sol.Classes, sp.m, sp.classes)
	}
	return nil
}

// lambda is the rows' part of Λ, in row order from zero.
func (sp spread) lambda(idx []int32, z []float64) []float64 {
	part := make([]float64, sp.m)
	for i, k := range idx {
		part[k] += z[i]
	}
	return part
}

// sumLambda adds the parts in order.
func (sp spread) sumLambda(parts [][]float64) []float64 {
	lam := make([]float64, sp.m)
	for _, part := range parts {
		for k, v := range part {
			lam[k] += v
		}
	}
	return lam
}

// scale returns a row's 1/√D_i and 1/E_i: w_i = Σ_k Z_ik²/Λ_k, D_i = 1 − w_i
// (1 when the row is isolated in W₀, scipy's csgraph.laplacian
// convention), E_i = 1 + α·w_i/D_i.
func (sp spread) scale(ki []int32, zi, lam []float64) (dinv, einv float64) {
	w := 0.0
	for a, k := range ki {
		w += zi[a] * zi[a] / lam[k]
	}
	deg := 1 - w
	if !(deg > 1e-12) {
		deg = 1
	}
	return 1 / math.Sqrt(deg), 1 / (1 + sp.alpha*w/deg)
}

func (sp spread) newSums() *SpreadSums {
	return &SpreadSums{M: sp.m, Classes: sp.classes, Sys: make([]float64, sp.m*sp.m), Rhs: make([]float64, sp.m*sp.classes)}
}

// sums is the rows' part of the system and its right side, in row order
// from zero: UᵀE⁻¹U = Σ_i z_iᵀz_i/(D_i·E_i) enters with a minus sign.
func (sp spread) sums(idx []int32, z []float64, y []int, lam []float64) *SpreadSums {
	out := sp.newSums()
	m, classes, s := sp.m, sp.classes, sp.s
	for i := range y {
		ki, zi := idx[i*s:i*s+s], z[i*s:i*s+s]
		dinv, einv := sp.scale(ki, zi, lam)
		c := dinv * dinv * einv
		for a, ka := range ki {
			for b, kb := range ki {
				out.Sys[int(ka)*m+int(kb)] -= c * zi[a] * zi[b]
			}
		}
		if y[i] >= 0 {
			r := (1 - sp.alpha) * dinv * einv
			for a, ka := range ki {
				out.Rhs[int(ka)*classes+y[i]] += r * zi[a]
			}
		}
	}
	return out
}

// solve solves (Λ/α − UᵀE⁻¹U)·X = UᵀE⁻¹R.
func (sp spread) solve(lam []float64, sums *SpreadSums) (*SpreadSolution, error) {
	m, classes := sp.m, sp.classes
	sys := sums.Sys
	S := mat.NewSymDense(m, nil)
	for k := 0; k < m; k++ {
		for j := k; j < m; j++ {
			v := 0.5 * (sys[k*m+j] + sys[j*m+k])
			if k == j {
				v += lam[k] / sp.alpha
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
	rhs := mat.NewDense(m, classes, append([]float64(nil), sums.Rhs...))
	sol := mat.NewDense(m, classes, nil)
	if err := ch.SolveTo(sol, rhs); err != nil {
		return nil, fmt.Errorf("%w: anchor spreading solve: %v", ErrNonFinite, err)
	}
	return &SpreadSolution{M: m, Classes: classes, Lambda: append([]float64(nil), lam...), X: sol.RawMatrix().Data}, nil
}

// transduce is the Woodbury form row by row: F_i = E_i⁻¹·(R_i + (z_i/√D_i)·X),
// X the solution; a row's class is the argmax of F (first on ties), and
// the block's part of ZᵀF̂ accumulates z_iᵀ F̂_i in row order from zero.
func (sp spread) transduce(idx []int32, z []float64, y []int, sol *SpreadSolution) (*SpreadBlock, error) {
	classes, s := sp.classes, sp.s
	X := sol.X
	out := &SpreadBlock{Labels: make([]int, len(y)), Reached: make([]bool, len(y)), B: make([]float64, sp.m*classes)}
	f := make([]float64, classes)
	for i := range y {
		ki, zi := idx[i*s:i*s+s], z[i*s:i*s+s]
		dinv, einv := sp.scale(ki, zi, sol.Lambda)
		for c := range f {
			f[c] = 0
			if y[i] == c {
				f[c] = 1 - sp.alpha
			}
			for a, ka := range ki {
				f[c] += dinv * zi[a] * X[int(ka)*classes+c]
			}
			f[c] *= einv
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
		out.Reached[i] = true
		out.Labels[i] = best
		for a, ka := range ki {
			for c, v := range f {
				out.B[int(ka)*classes+c] += zi[a] * v / tot
			}
		}
	}
	return out, nil
}

// model completes am (anchors, S, σ²) with B = Λ⁻¹ Zᵀ F̂ (the blocks'
// parts added in order), the transduction and the Unreachable policy.
func (sp spread) model(am *AnchorModel, sol *SpreadSolution, blocks []*SpreadBlock, y []int, policy string) (*AnchorModel, error) {
	m, classes := sp.m, sp.classes
	am.method = "spreading"
	am.a = mat.NewDense(m, classes, nil)
	bsum := am.a.RawMatrix().Data
	am.labels = make([]int, 0, len(y))
	reached := make([]bool, 0, len(y))
	for _, b := range blocks {
		for k, v := range b.B {
			bsum[k] += v
		}
		am.labels = append(am.labels, b.Labels...)
		reached = append(reached, b.Reached...)
	}
	for k := 0; k < m; k++ {
		if l := sol.Lambda[k]; l > 0 {
			for c := 0; c < classes; c++ {
				am.a.Set(k, c, am.a.At(k, c)/l)
			}
		}
	}
	am.lambda = make([]float64, classes)
	for c := range am.lambda {
		am.lambda[c] = 1
	}
	if err := am.applyUnreachable(reached, y, policy); err != nil {
		return nil, err
	}
	return am, nil
}
