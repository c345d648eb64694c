package propagate

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/neighbors"
)

// AnchorParts fits AnchorGraph from blocks of rows that need not be in
// one process (the Beam module's fit job): every sum over the rows is
// summed by blocks of parallel.BlockRows rows, as AnchorGraph.Fit sums
// them, so the model is Fit's bit for bit. With rows split into those
// blocks (block b: rows b·BlockRows …):
//
//  1. p := g.Parts(anchors, classes);
//  2. when p.NeedsWidth(): per block WidthSum, added in block order, then
//     p.SetWidth(total, n);
//  3. per block Sums (from p.NewSums()), merged in block order by Merge;
//  4. am := p.Solve(sums);
//  5. per block am.BlockTransduction, concatenated in row order, then
//     am.SetTransduction.
//
// Steps 2, 3 and 5 on different blocks are independent.
type AnchorParts struct {
	g       AnchorGraph
	model   *AnchorModel // anchors, S, σ²
	classes int
	width   bool // σ still to be set from the rows (SetWidth)
}

// Parts starts a fit in parts on the rows of anchors (equal anchors kept
// once, as Fit does) with labels 0..classes−1. Errors: ErrBadParam,
// ErrShape, ErrNonFinite, ErrOneClass.
func (g AnchorGraph) Parts(anchors *mat.Dense, classes int) (*AnchorParts, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if classes < 2 {
		return nil, ErrOneClass
	}
	m, d := anchors.Dims()
	if m == 0 || d == 0 {
		return nil, fmt.Errorf("%w: anchors %d×%d", ErrShape, m, d)
	}
	if err := checkFinite("anchors", denseData(anchors)); err != nil {
		return nil, err
	}
	anchors, m = mergeAnchors(anchors)
	am := &AnchorModel{anchors: mat.DenseCopyOf(anchors), s: min(g.s(), m)}
	p := &AnchorParts{g: g, model: am, classes: classes, width: g.Sigma == 0}
	if !p.width {
		am.setWidth(g.Sigma, 0, 1)
	}
	return p, nil
}

// NeedsWidth reports whether σ is the paper's width, the mean distance of
// the rows to their S-th nearest anchor, still to be set by SetWidth.
func (p *AnchorParts) NeedsWidth() bool { return p.width }

// neighbours returns each row of the block X's S nearest anchors and
// their squared distances (n×S each). Errors: ErrShape, ErrNonFinite,
// ctx.Err().
func (p *AnchorParts) neighbours(ctx context.Context, X *mat.Dense) ([]int32, []float64, error) {
	n, d := X.Dims()
	if d != p.model.Dim() {
		return nil, nil, fmt.Errorf("%w: X has %d columns, the anchors %d", ErrShape, d, p.model.Dim())
	}
	data := denseData(X)
	if err := checkFinite("X", data); err != nil {
		return nil, nil, err
	}
	return p.model.neighbours(ctx, data, n)
}

// WidthSum returns the block X's part of the paper's width: the sum, in
// row order, of the distances of its rows to their S-th nearest anchor.
func (p *AnchorParts) WidthSum(ctx context.Context, X *mat.Dense) (float64, error) {
	_, d2, err := p.neighbours(ctx, X)
	if err != nil {
		return 0, err
	}
	return widthSum(d2, p.model.s), nil
}

// SetWidth sets σ to sum/n: sum the blocks' WidthSum added in block order,
// n the number of rows.
func (p *AnchorParts) SetWidth(sum float64, n int) {
	p.model.setWidth(0, sum, n)
	p.width = false
}

// AnchorSums are the sums over rows of an anchor-graph fit: ZᵀZ and
// Z_lᵀZ_l (M×M, row-major), Λ = Zᵀ1 (M) and Z_lᵀY_l (M×C, row-major).
// Exported fields, for a fit in parts to carry them between processes.
type AnchorSums struct {
	M, Classes int
	ZtZ, ZlZ   []float64
	Lambda     []float64
	Rhs        []float64
}

// NewSums returns zero sums of the right size.
func (p *AnchorParts) NewSums() *AnchorSums {
	m, _ := p.model.anchors.Dims()
	return &AnchorSums{M: m, Classes: p.classes, ZtZ: make([]float64, m*m), ZlZ: make([]float64, m*m),
		Lambda: make([]float64, m), Rhs: make([]float64, m*p.classes)}
}

// clear sets the sums to zero (+0), as NewSums returns them.
func (s *AnchorSums) clear() {
	clear(s.ZtZ)
	clear(s.ZlZ)
	clear(s.Lambda)
	clear(s.Rhs)
}

// Merge adds o, the sums of the next block, to s. A sum summed from +0 is
// never −0, so the first block merged into zero sums gives its own sums
// exactly. Errors: ErrShape for sums of other sizes.
func (s *AnchorSums) Merge(o *AnchorSums) error {
	if o.M != s.M || o.Classes != s.Classes || len(o.ZtZ) != len(s.ZtZ) || len(o.ZlZ) != len(s.ZlZ) ||
		len(o.Lambda) != len(s.Lambda) || len(o.Rhs) != len(s.Rhs) {
		return fmt.Errorf("%w: anchor sums of %d anchors and %d classes, merged with %d and %d", ErrShape, s.M, s.Classes, o.M, o.Classes)
	}
	for _, a := range [][2][]float64{{s.ZtZ, o.ZtZ}, {s.ZlZ, o.ZlZ}, {s.Lambda, o.Lambda}, {s.Rhs, o.Rhs}} {
		for i, v := range a[1] {
			a[0][i] += v
		}
	}
	return nil
}

// Sums returns the sums of the block X with labels y (a class, or −1 for
// unlabelled), in row order from zero. σ must be set (SetWidth when
// NeedsWidth). Errors: ErrShape, ErrNonFinite, ErrBadLabel, ctx.Err().
func (p *AnchorParts) Sums(ctx context.Context, X *mat.Dense, y []int) (*AnchorSums, error) {
	if p.width {
		panic("propagate: AnchorParts.Sums before SetWidth")
	}
	n, _ := X.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d rows, %d labels", ErrShape, n, len(y))
	}
	for i, c := range y {
		if c < -1 || c >= p.classes {
			return nil, fmt.Errorf("%w: y[%d] = %d (want −1 or a class 0..%d)", ErrBadLabel, i, c, p.classes-1)
		}
	}
	idx, d2, err := p.neighbours(ctx, X)
	if err != nil {
		return nil, err
	}
	z := p.model.weightsOf(d2)
	sums := p.NewSums()
	sums.add(idx, z, y, p.model.s)
	return sums, nil
}

// add adds the rows (each its s anchors idx and weights z, label y) to
// the sums, in row order.
func (sums *AnchorSums) add(idx []int32, z []float64, y []int, s int) {
	m, classes := sums.M, sums.Classes
	ztz, zlz, lam, rhs := sums.ZtZ, sums.ZlZ, sums.Lambda, sums.Rhs
	for i := range y {
		ki, zi := idx[i*s:i*s+s], z[i*s:i*s+s]
		for a, ka := range ki {
			lam[ka] += zi[a]
			for b, kb := range ki {
				ztz[int(ka)*m+int(kb)] += zi[a] * zi[b]
			}
		}
		if c := y[i]; c >= 0 {
			for a, ka := range ki {
				for b, kb := range ki {
					zlz[int(ka)*m+int(kb)] += zi[a] * zi[b]
				}
				rhs[int(ka)*classes+c] += zi[a]
			}
		}
	}
}

// Solve solves the M×M system of the sums of all rows and returns the
// model without its transduction (BlockTransduction, SetTransduction).
// Errors: ErrShape, ErrSingular, ErrNonFinite, ErrEmptyClass.
func (p *AnchorParts) Solve(sums *AnchorSums) (*AnchorModel, error) {
	am := *p.model
	m, _ := am.anchors.Dims()
	classes := p.classes
	if sums.M != m || sums.Classes != classes || len(sums.ZtZ) != m*m || len(sums.ZlZ) != m*m || len(sums.Lambda) != m || len(sums.Rhs) != m*classes {
		return nil, fmt.Errorf("%w: anchor sums of %d anchors and %d classes for %d and %d", ErrShape, sums.M, sums.Classes, m, classes)
	}
	ztz, zlz, lam := sums.ZtZ, sums.ZlZ, sums.Lambda
	rhs := mat.NewDense(m, classes, append([]float64(nil), sums.Rhs...))
	// System matrix Z_lᵀZ_l + γ(ZᵀZ − ZᵀZ Λ⁻¹ ZᵀZ).
	gam := p.g.gamma()
	T := mat.NewDense(m, m, nil)
	for k := 0; k < m; k++ {
		if lam[k] > 0 {
			for j := 0; j < m; j++ {
				T.Set(k, j, ztz[k*m+j]/lam[k])
			}
		}
	}
	ZtZ := mat.NewDense(m, m, append([]float64(nil), ztz...))
	var P mat.Dense
	P.Mul(ZtZ, T)
	sys := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			v := zlz[i*m+j] + gam*(ztz[i*m+j]-0.5*(P.At(i, j)+P.At(j, i)))
			if i == j && lam[i] == 0 {
				v = 1 // an anchor no point uses: A_i = 0
			}
			sys.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(sys) || ch.Cond() > mat.ConditionTolerance {
		// Singular: an anchor component without labels (its block is γL̃
		// with L̃1 = 0 and a zero right side: it solves to exactly 0), or
		// columns of Z that are linearly dependent (Zv = 0: then Z_lv = 0
		// and L̃v = 0, the right side Z_lᵀY_l is orthogonal to v, and F = ZA
		// is the same for every solution). A ridge far below the entries'
		// scale gives (within it) the minimum-norm one.
		tr := 0.0
		for i := 0; i < m; i++ {
			tr += sys.At(i, i)
		}
		for i := 0; i < m; i++ {
			sys.SetSym(i, i, sys.At(i, i)+1e-10*tr/float64(m))
		}
		if !ch.Factorize(sys) || ch.Cond() > mat.ConditionTolerance {
			return nil, fmt.Errorf("%w: the anchor graph's %d×%d system stays singular with a ridge "+
				"(anchors whose weight columns are nearly dependent); try fewer anchors", ErrSingular, m, m)
		}
	}
	am.a = mat.NewDense(m, classes, nil)
	if err := ch.SolveTo(am.a, rhs); err != nil {
		return nil, fmt.Errorf("%w: anchor graph solve: %v", ErrNonFinite, err)
	}
	// λ_j = 1ᵀ Z A_j = Σ_k Λ_k A_kj.
	am.lambda = make([]float64, classes)
	for k := 0; k < m; k++ {
		for j := 0; j < classes; j++ {
			am.lambda[j] += lam[k] * am.a.At(k, j)
		}
	}
	for j, l := range am.lambda {
		if !(l > 0) {
			return nil, fmt.Errorf("%w: class %d has mass %v on the anchor graph", ErrEmptyClass, j, l)
		}
	}
	return &am, nil
}

// BlockTransduction returns the classes of the rows of the block X with
// labels y (labelled rows keep theirs) and whether a label reaches each
// row: the block's part of the transduction, for SetTransduction.
// Errors: ErrShape, ErrNonFinite, ctx.Err().
func (am *AnchorModel) BlockTransduction(ctx context.Context, X *mat.Dense, y []int) ([]int, []bool, error) {
	n, d := X.Dims()
	if d != am.Dim() || len(y) != n {
		return nil, nil, fmt.Errorf("%w: X %d×%d, %d labels, the anchors %d columns", ErrShape, n, d, len(y), am.Dim())
	}
	data := denseData(X)
	if err := checkFinite("X", data); err != nil {
		return nil, nil, err
	}
	idx, d2, err := am.neighbours(ctx, data, n)
	if err != nil {
		return nil, nil, err
	}
	labels, reached := am.transduce(idx, am.weightsOf(d2), y)
	return labels, reached, nil
}

// transduce labels the rows with anchors idx and weights z (n×S); labelled
// rows keep their labels.
func (am *AnchorModel) transduce(idx []int32, z []float64, y []int) ([]int, []bool) {
	s := am.s
	labels := make([]int, len(y))
	reached := make([]bool, len(y))
	for i := range y {
		labels[i] = am.classify(idx[i*s:i*s+s], z[i*s:i*s+s])
		reached[i] = am.reached(idx[i*s:i*s+s], z[i*s:i*s+s])
		if y[i] >= 0 {
			labels[i] = y[i]
		}
	}
	return labels, reached
}

// SetTransduction completes a model from Solve with the transduction of
// all rows in row order (the blocks' BlockTransduction concatenated), y
// the labels of all rows, and the Unreachable policy (AnchorGraph's).
// Errors: ErrShape, ErrUnreachable (policy "error").
func (am *AnchorModel) SetTransduction(labels []int, reached []bool, y []int, policy string) error {
	if len(labels) != len(y) || len(reached) != len(y) {
		return fmt.Errorf("%w: %d labels, %d reached, %d rows", ErrShape, len(labels), len(reached), len(y))
	}
	am.labels = labels
	return am.applyUnreachable(reached, y, policy)
}

// weightsOf returns the normalised weights of the squared distances d2
// (n×S, each row ascending).
func (am *AnchorModel) weightsOf(d2 []float64) []float64 {
	s := am.s
	z := make([]float64, len(d2))
	for i := 0; i+s <= len(d2); i += s {
		am.weights(z[i:i+s], d2[i:i+s])
	}
	return z
}

// RadiusRows returns the rows of n whose neighbourhoods KNNRadius
// averages over: up to 2,000 evenly spaced rows, ascending.
func RadiusRows(n int) []int {
	q := min(n, radiusSample)
	rows := make([]int, q)
	for a := range rows {
		rows[a] = int(int64(a) * int64(n) / int64(q))
	}
	return rows
}

// RadiusPart is KNNRadius in parts: for each query row of Q (the rows
// RadiusRows names) the squared distances to its k nearest rows of the
// block X (fewer when X has fewer rows), ascending, q×k row-major with
// +Inf where the block has too few rows. The parts of all blocks, in any
// order, go to RadiusOf. Errors: ErrShape, ErrNonFinite, ctx.Err().
func RadiusPart(ctx context.Context, Q, X *mat.Dense, k int) ([]float64, error) {
	q, d := Q.Dims()
	n, dx := X.Dims()
	if d != dx || n == 0 || k < 1 {
		return nil, fmt.Errorf("%w: queries %d×%d, block %d×%d, k = %d", ErrShape, q, d, n, dx, k)
	}
	data := denseData(X)
	if err := checkFinite("X", data); err != nil {
		return nil, err
	}
	kb := min(k, n)
	idx := make([]int32, q*kb)
	d2 := make([]float64, q*kb)
	if err := neighbors.New(data, n, d).Search(ctx, denseData(Q), kb, idx, d2); err != nil {
		return nil, err
	}
	out := make([]float64, q*k)
	for a := 0; a < q; a++ {
		for j := 0; j < k; j++ {
			out[a*k+j] = math.Inf(1)
			if j < kb {
				out[a*k+j] = d2[a*kb+j]
			}
		}
	}
	return out, nil
}

// RadiusOf returns KNNRadius from the RadiusPart of every block of the
// rows: each query's k-th smallest squared distance over all blocks
// (distances computed as distance.SqDist, so equal to one search's), the
// mean of their square roots in query order. Errors: ErrShape, ErrBadParam
// (fewer than k rows in all).
func RadiusOf(parts [][]float64, q, k int) (float64, error) {
	if q < 1 || k < 1 {
		return 0, fmt.Errorf("%w: %d queries, k = %d", ErrShape, q, k)
	}
	best := make([]float64, k)
	sum := 0.0
	for a := 0; a < q; a++ {
		for j := range best {
			best[j] = math.Inf(1)
		}
		for _, p := range parts {
			if len(p) != q*k {
				return 0, fmt.Errorf("%w: a radius part of %d values for %d queries, k = %d", ErrShape, len(p), q, k)
			}
			for _, v := range p[a*k : a*k+k] {
				if v < best[k-1] {
					j := k - 1
					for j > 0 && best[j-1] > v {
						best[j] = best[j-1]
						j--
					}
					best[j] = v
				}
			}
		}
		if math.IsInf(best[k-1], 1) {
			return 0, fmt.Errorf("%w: k = %d, fewer rows", ErrBadParam, k)
		}
		sum += math.Sqrt(best[k-1])
	}
	return sum / float64(q), nil
}
