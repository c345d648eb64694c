package propagate

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// AnchorGraph is label propagation on an anchor graph (Liu, He & Chang,
// "Large Graph Construction for Scalable Semi-Supervised Learning", ICML
// 2010), for N too large for an N×N affinity. Each point x_i is tied to its
// S nearest anchors u_k (ties to the lower anchor index) with Gaussian
// weights normalised to sum 1 (the paper's kernel-defined Z, Eq. 3):
//
//	Z_ik = exp(−‖x_i − u_k‖²/σ²) / Σ_{k'∈⟨i⟩} exp(−‖x_i − u_k'‖²/σ²),
//
// σ the mean distance of the points to their S-th nearest anchor. The
// anchor graph W = Z Λ⁻¹ Zᵀ (Λ = diag(Zᵀ1)) has degrees 1, so its Laplacian
// is L = I − W, and with soft labels F = Z A the graph-regularised fit
//
//	min_A ½‖Z_l A − Y_l‖² + ½γ·tr(Aᵀ Zᵀ L Z A)
//
// reduces to the M×M system (Z_lᵀZ_l + γ L̃) A = Z_lᵀ Y_l with
// L̃ = ZᵀZ − (ZᵀZ) Λ⁻¹ (ZᵀZ). A point's class is argmax_j (Z_i A)_j / λ_j,
// λ_j = 1ᵀ Z A_j (the paper's class-mass normalisation, Eq. 11).
//
// Equal anchors (rows at distance 0) are one anchor: repeats are dropped
// before the graph is built (the first kept), as otherwise their equal
// columns of Z make the M×M system singular. A system still singular (an
// anchor component without labels, dependent columns of Z) is solved with
// a ridge of 10⁻¹⁰ of its mean diagonal.
//
// Cost: one kNN query per point against the M anchors (internal/neighbors),
// O(N·S²) for ZᵀZ, O(M³) for the solve; memory O(N·S + M²). A new point is
// labelled the same way from its own S nearest anchors (inductive).
type AnchorGraph struct {
	// S is the number of nearest anchors of each point (default 3).
	S int
	// Gamma is the graph regularisation γ (default 0.01).
	Gamma float64
	// Sigma is the width σ of the Gaussian anchor weights; 0 means the
	// paper's choice, the mean distance of the points to their S-th
	// nearest anchor. To approximate an exact graph, take its scale:
	// 1/√γ for the RBF affinity exp(−γd²), KNNRadius for the kNN graph
	// (what arbor classify --landmarks does; see the package doc).
	Sigma float64
	// Unreachable is the policy for points no labelled point reaches
	// (the component of the anchor graph through their anchors holds no
	// label; their soft labels are exactly 0): UnreachableError (default,
	// ""), UnreachableUnlabeled or UnreachableFirst, as Propagation.
	Unreachable string
}

// AnchorModel is a fitted anchor-graph propagation: immutable, safe for
// concurrent use.
type AnchorModel struct {
	// Unreachable lists the unlabelled rows no label reaches (with
	// Unreachable = UnreachableUnlabeled: learner.Unlabeled in the
	// transduction; UnreachableFirst: class 0); Warnings says so.
	Unreachable []int
	Warnings    []error

	anchors *mat.Dense // M×d
	s       int
	sigma2  float64
	a       *mat.Dense // M×C soft labels of the anchors
	lambda  []float64  // class masses (all 1 for spreading)
	labels  []int      // transduction over the fitted rows
	method  string     // "" (propagation) or "spreading"
}

func (g AnchorGraph) s() int {
	if g.S == 0 {
		return 3
	}
	return g.S
}

func (g AnchorGraph) gamma() float64 {
	if g.Gamma == 0 {
		return 0.01
	}
	return g.Gamma
}

// Validate reports whether the settings are usable.
func (g AnchorGraph) Validate() error {
	if g.S < 0 {
		return fmt.Errorf("%w: anchor graph S = %d, want >= 1", ErrBadParam, g.S)
	}
	if !(g.Gamma >= 0) || math.IsInf(g.Gamma, 0) {
		return fmt.Errorf("%w: anchor graph Gamma = %v, want > 0", ErrBadParam, g.Gamma)
	}
	return checkAnchorCommon(g.Sigma, g.Unreachable)
}

// checkAnchorCommon checks the settings AnchorGraph and AnchorSpreading share.
func checkAnchorCommon(sigma float64, unreachable string) error {
	if !(sigma >= 0) || math.IsInf(sigma, 0) {
		return fmt.Errorf("%w: anchor graph Sigma = %v, want ≥ 0 (0: the paper's width)", ErrBadParam, sigma)
	}
	switch unreachable {
	case "", UnreachableError, UnreachableUnlabeled, UnreachableFirst:
		return nil
	}
	return fmt.Errorf("%w: Unreachable = %q (want error, unlabeled or first)", ErrBadParam, unreachable)
}

// Fit labels the rows of X from the labelled ones (y[i] a class 0..C−1, or
// −1 for unlabelled) through the anchor graph on the rows of anchors.
// Errors: ErrBadParam, ErrShape, ErrNonFinite, ErrBadLabel, ErrNoLabels,
// ErrOneClass, ErrEmptyClass, ErrSingular (the system singular even with
// the ridge), ctx.Err().
func (g AnchorGraph) Fit(ctx context.Context, X, anchors *mat.Dense, y []int) (*AnchorModel, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	n, m, classes, err := checkAnchorInput(X, anchors, y)
	if err != nil {
		return nil, err
	}
	anchors, m = mergeAnchors(anchors)
	s := min(g.s(), m)
	am, idx, z, err := anchorWeights(ctx, X, anchors, s, g.Sigma)
	if err != nil {
		return nil, err
	}
	// ZᵀZ, Λ = Zᵀ1, Z_lᵀZ_l and Z_lᵀY_l, by blocks of parallel.BlockRows
	// rows (AnchorSums), added in block order (deterministic, and equal to
	// a fit in parts: AnchorParts).
	p := &AnchorParts{g: g, model: am, classes: classes}
	sums, part := p.NewSums(), p.NewSums()
	for b := 0; b < parallel.Blocks(n); b++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lo, hi := parallel.Block(b, n)
		part.clear()
		part.add(idx[lo*s:hi*s], z[lo*s:hi*s], y[lo:hi], s)
		sums.Merge(part)
	}
	am, err = p.Solve(sums)
	if err != nil {
		return nil, err
	}
	labels, reached := am.transduce(idx, z, y)
	if err := am.SetTransduction(labels, reached, y, g.Unreachable); err != nil {
		return nil, err
	}
	return am, nil
}

// reached reports whether a row with anchors ki and weights zi has a
// non-zero soft label: an anchor component without labels solves to
// exactly 0 (its block of the system decouples with a zero right side).
func (am *AnchorModel) reached(ki []int32, zi []float64) bool {
	for a, k := range ki {
		if zi[a] == 0 {
			continue
		}
		for j := range am.lambda {
			if am.a.At(int(k), j) != 0 {
				return true
			}
		}
	}
	return false
}

// applyUnreachable applies the policy to the unlabelled rows no label
// reaches (reached false): an error, or learner.Unlabeled / class 0 in the
// transduction with a warning.
func (am *AnchorModel) applyUnreachable(reached []bool, y []int, policy string) error {
	labeled := make([]bool, len(y))
	for i, c := range y {
		labeled[i] = c >= 0
	}
	u, warn, err := unreachable(reached, labeled, policy)
	if err != nil {
		return err
	}
	for _, i := range u {
		am.labels[i] = -1
		if policy == UnreachableFirst {
			am.labels[i] = 0
		}
	}
	am.Unreachable, am.Warnings = u, warn
	return nil
}

// anchorWeights returns a model holding the anchors, S and σ², and for
// every row of X its s nearest anchors idx (n×s) and their normalised
// weights z (n×s): the sparse Z of the anchor graph. σ is width, or when
// 0 the mean distance of the rows to their s-th anchor.
func anchorWeights(ctx context.Context, X, anchors *mat.Dense, s int, width float64) (*AnchorModel, []int32, []float64, error) {
	n, _ := X.Dims()
	am := &AnchorModel{anchors: mat.DenseCopyOf(anchors), s: s}
	idx, d2, err := am.neighbours(ctx, denseData(X), n)
	if err != nil {
		return nil, nil, nil, err
	}
	sum := 0.0
	for b := 0; b < parallel.Blocks(n); b++ {
		lo, hi := parallel.Block(b, n)
		sum += widthSum(d2[lo*s:hi*s], s)
	}
	am.setWidth(width, sum, n)
	return am, idx, am.weightsOf(d2), nil
}

// neighbours returns the S nearest anchors of each of the n rows of data
// (row-major) and their squared distances, n×S each, ascending by
// (distance, anchor index).
func (am *AnchorModel) neighbours(ctx context.Context, data []float64, n int) ([]int32, []float64, error) {
	m, d := am.anchors.Dims()
	s := am.s
	idx := make([]int32, n*s)
	d2 := make([]float64, n*s)
	ix := neighbors.New(am.anchors.RawMatrix().Data, m, d)
	if err := ix.Search(ctx, data, s, idx, d2); err != nil {
		return nil, nil, err
	}
	return idx, d2, nil
}

// checkFinite fails on a NaN or infinite value of the named matrix.
func checkFinite(name string, data []float64) error {
	for _, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s has %v", ErrNonFinite, name, v)
		}
	}
	return nil
}

// widthSum is Σ_i ‖x_i − u_(s)‖ over the rows of a block, in row order: d2
// holds each row's s squared distances to its nearest anchors, ascending.
func widthSum(d2 []float64, s int) float64 {
	sum := 0.0
	for i := s - 1; i < len(d2); i += s {
		sum += math.Sqrt(d2[i])
	}
	return sum
}

// setWidth sets σ² from σ = width, or when width is 0 the mean distance of
// the n rows to their s-th nearest anchor (sum their sum; 1 if it is 0).
func (am *AnchorModel) setWidth(width, sum float64, n int) {
	sigma := sum / float64(n)
	if width > 0 {
		sigma = width
	}
	if sigma == 0 {
		sigma = 1
	}
	am.sigma2 = sigma * sigma
}

// checkAnchorInput checks the shapes, labels and finiteness of an anchor
// graph fit and returns n, the anchor count m and the class count.
func checkAnchorInput(X, anchors *mat.Dense, y []int) (n, m, classes int, err error) {
	n, d := X.Dims()
	m, da := anchors.Dims()
	if da != d || len(y) != n || n == 0 {
		return 0, 0, 0, fmt.Errorf("%w: X %d×%d, anchors %d×%d, %d labels", ErrShape, n, d, m, da, len(y))
	}
	nl := 0
	for i, c := range y {
		if c < -1 {
			return 0, 0, 0, fmt.Errorf("%w: y[%d] = %d", ErrBadLabel, i, c)
		}
		if c >= 0 {
			classes = max(classes, c+1)
			nl++
		}
	}
	if nl == 0 {
		return 0, 0, 0, ErrNoLabels
	}
	if classes < 2 {
		return 0, 0, 0, ErrOneClass
	}
	for _, v := range denseData(X) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, 0, fmt.Errorf("%w: X has %v", ErrNonFinite, v)
		}
	}
	for _, v := range denseData(anchors) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, 0, fmt.Errorf("%w: anchors have %v", ErrNonFinite, v)
		}
	}
	return n, m, classes, nil
}

// mergeAnchors returns the anchors with every repeated row kept once, at
// its first occurrence (the order of the rest kept), and their count: the
// anchor graph is a graph on the set of anchors, and anchors at distance 0
// are one anchor. Two equal anchors would be tied (in index order) as two
// of a point's S nearest, with equal weights: equal columns of Z, so Zv = 0
// for v = e_a − e_b and the propagation's M×M system is singular (data
// with a repeated row and M close to N, the landmarks taken from the rows).
// Without repeats it returns anchors itself: the fit is unchanged.
// Rows are bucketed by a hash of their values (−0 as +0), then compared
// exactly: O(M·d).
func mergeAnchors(anchors *mat.Dense) (*mat.Dense, int) {
	m, d := anchors.Dims()
	buckets := make(map[uint64][]int, m)
	keep := make([]int, 0, m)
rows:
	for k := 0; k < m; k++ {
		row := anchors.RawRowView(k)
		h := uint64(14695981039346656037) // FNV-style, over the value bits
		for _, v := range row {
			if v == 0 {
				v = 0 // −0 is the same point as +0
			}
			h = (h ^ math.Float64bits(v)) * 1099511628211
		}
		for _, j := range buckets[h] {
			if floats.Equal(anchors.RawRowView(j), row) {
				continue rows
			}
		}
		buckets[h] = append(buckets[h], k)
		keep = append(keep, k)
	}
	if len(keep) == m {
		return anchors, m
	}
	u := mat.NewDense(len(keep), d, nil)
	for a, k := range keep {
		u.SetRow(a, anchors.RawRowView(k))
	}
	return u, len(keep)
}

func denseData(X *mat.Dense) []float64 {
	raw := X.RawMatrix()
	if raw.Stride == raw.Cols {
		return raw.Data[:raw.Rows*raw.Cols]
	}
	return mat.DenseCopyOf(X).RawMatrix().Data
}

// weights sets z to the normalised Gaussian weights of the squared
// distances d2 (ascending); shifted by the nearest so it cannot underflow.
func (am *AnchorModel) weights(z, d2 []float64) {
	t := 0.0
	for a, v := range d2 {
		z[a] = math.Exp(-(v - d2[0]) / am.sigma2)
		t += z[a]
	}
	for a := range z {
		z[a] /= t
	}
}

func (am *AnchorModel) classify(ki []int32, zi []float64) int {
	best, bv := 0, math.Inf(-1)
	for j, l := range am.lambda {
		f := 0.0
		for a, k := range ki {
			f += zi[a] * am.a.At(int(k), j)
		}
		if v := f / l; v > bv {
			best, bv = j, v
		}
	}
	return best
}

// Transduction returns the class of every fitted row (labelled rows keep
// their labels).
func (am *AnchorModel) Transduction() []int { return append([]int(nil), am.labels...) }

// Predict sets dst[i] to the class of row i of X from its S nearest
// anchors, or learner.Unlabeled when none of them carries a label (an
// anchor component without labelled rows; Model.Predict's rule for a point
// whose scores are all zero); nil allocates. Errors: ErrShape, ctx.Err().
func (am *AnchorModel) Predict(ctx context.Context, dst []int, X *mat.Dense) ([]int, error) {
	n, d := X.Dims()
	m, da := am.anchors.Dims()
	if d != da {
		return nil, fmt.Errorf("%w: X has %d columns, the anchors %d", ErrShape, d, da)
	}
	if dst == nil {
		dst = make([]int, n)
	}
	ix := neighbors.New(am.anchors.RawMatrix().Data, m, d)
	data := denseData(X)
	s := am.s
	return dst, parallel.Chunks(ctx, n, 1024, func(lo, hi int) {
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
			if !am.reached(ki[:len(nb)], z[:len(nb)]) {
				// No label reaches its anchors: unlabelled, as Model.Predict
				// leaves a point whose scores are all zero (not class 0).
				dst[i] = learner.Unlabeled
				continue
			}
			dst[i] = am.classify(ki, z)
		}
	})
}

// radiusSample is the number of rows KNNRadius averages over.
const radiusSample = 2000

// KNNRadius returns the mean distance from a row of X to its k-th nearest
// row, the row itself counted as the first (as the KNN affinity counts
// it): the radius of the neighbourhoods of the kNN graph, the anchor
// graph's width (AnchorGraph.Sigma) that matches it. The mean is over
// up to 2,000 evenly spaced rows (all when fewer); one k-d tree over the
// rows (internal/neighbors), O(N log N). Errors: ErrBadParam (k not in
// 1..N), ErrShape (no rows), ErrNonFinite, ctx.Err().
func KNNRadius(ctx context.Context, X *mat.Dense, k int) (float64, error) {
	n, d := X.Dims()
	if n == 0 {
		return 0, fmt.Errorf("%w: no rows", ErrShape)
	}
	if k < 1 || k > n {
		return 0, fmt.Errorf("%w: k = %d, want 1..%d", ErrBadParam, k, n)
	}
	data := denseData(X)
	for _, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: X has %v", ErrNonFinite, v)
		}
	}
	rows := RadiusRows(n)
	q := len(rows)
	Q := make([]float64, q*d)
	for a, i := range rows {
		copy(Q[a*d:a*d+d], data[i*d:i*d+d])
	}
	idx := make([]int32, q*k)
	d2 := make([]float64, q*k)
	if err := neighbors.New(data, n, d).Search(ctx, Q, k, idx, d2); err != nil {
		return 0, err
	}
	sum := 0.0
	for a := 0; a < q; a++ {
		sum += math.Sqrt(d2[a*k+k-1])
	}
	return sum / float64(q), nil
}
