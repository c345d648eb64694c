package knn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// Sentinel errors, usable with errors.Is; returned errors wrap them with what
// and where.
var (
	ErrK           = errors.New("knn: bad number of neighbours")
	ErrWeights     = errors.New("knn: unknown weights")
	ErrBadParam    = errors.New("knn: bad parameter")
	ErrNoLabels    = errors.New("knn: no labelled point")
	ErrOneClass    = errors.New("knn: labelled points carry a single class")
	ErrBadLabel    = errors.New("knn: bad label")
	ErrShape       = errors.New("knn: shape mismatch")
	ErrNonFinite   = errors.New("knn: non-finite value")
	ErrRow         = errors.New("knn: row out of range")
	ErrNegativeSim = errors.New("knn: negative similarity weight")
	ErrMultiLabel  = errors.New("knn: single-label call on a multi-label model")
)

// Weight schemes of Classifier.Weights.
const (
	Uniform    = "uniform"    // every neighbour counts 1 (the default, "")
	Similarity = "similarity" // neighbour z counts K(x, z) (paper 002 §2, sim = kernel)
	Distance   = "distance"   // neighbour z counts 1/d(x, z), as scikit-learn weights="distance"
)

// Rules for a tied vote (Classifier.Ties).
const (
	TiesNearest = "nearest" // the tied class whose member ranks first (the peer's rule; the default, "")
	TiesLowest  = "lowest"  // the lowest class label, as scikit-learn's KNeighborsClassifier
)

// Classifier holds kNN settings. It is never mutated; Fit and FitGram return
// an immutable *Model.
type Classifier struct {
	// K is the number of neighbours, 1 ≤ K < number of labelled points.
	K int
	// Weights is Uniform (default when empty), Similarity or Distance.
	Weights string
	// Ties decides a vote two or more classes share: TiesNearest (default
	// when empty) or TiesLowest. Neighbour ranking is not affected.
	Ties string
	// Soft makes multi-label predictions from the soft-kNN scores (§2.1,
	// §4): a label is predicted when its score is ≥ Threshold. Without Soft a
	// label needs a strict weighted majority (score > 1/2). For single-label
	// data Soft changes nothing: the largest score is the vote's winner
	// ("we arrive to the same decision function", §2.1).
	Soft bool
	// Threshold is the soft multi-label cut (0 means 0.5); must lie in (0, 1].
	Threshold float64
	// TopR > 0 makes multi-label predictions the TopR highest-scoring labels
	// (ties to the lower label index) instead of thresholding.
	TopR int
	// Kernel is used by Fit and Predict on points; nil means kernel.Linear{},
	// i.e. Euclidean kNN.
	Kernel kernel.Kernel
	// IgnoreSelf ranks the labelled points of a query x by K(l, l) −
	// 2·K(x, l) alone: K(x, x) is replaced by the value that puts x's
	// nearest labelled point at d² = 0. The ranking is the same in exact
	// arithmetic; what changes is that K(x, x) no longer enters the
	// computed d² nor the tie quantum (1e-9 of the largest d²). That
	// matters where K(x, x) is not a trustworthy value: a Nyström
	// extension of a kernel that is not positive semi-definite, such as
	// landmark ISOMAP, gives a point that is not a landmark a self value
	// inflated by the geodesics' non-Euclidean misfit along tiny
	// eigenvalues (orders of magnitude above every other d²), which would
	// cancel the informative digits of d² and make every labelled point a
	// tie. Not with Weights Distance (the nearest would weigh 1/0).
	IgnoreSelf bool
	// Progress, if not nil, is called as ("neighbours", done, total) rows.
	Progress func(stage string, done, total int)
}

func (c Classifier) validate() error {
	if c.K < 1 {
		return fmt.Errorf("%w: K = %d, want ≥ 1", ErrK, c.K)
	}
	switch c.Weights {
	case "", Uniform, Similarity, Distance:
	default:
		return fmt.Errorf("%w: %q (want uniform, similarity or distance)", ErrWeights, c.Weights)
	}
	switch c.Ties {
	case "", TiesNearest, TiesLowest:
	default:
		return fmt.Errorf("%w: Ties = %q (want nearest or lowest)", ErrBadParam, c.Ties)
	}
	if c.Threshold < 0 || c.Threshold > 1 || math.IsNaN(c.Threshold) {
		return fmt.Errorf("%w: Threshold = %v, want in (0, 1]", ErrBadParam, c.Threshold)
	}
	if c.TopR < 0 {
		return fmt.Errorf("%w: TopR = %d, want ≥ 0", ErrBadParam, c.TopR)
	}
	if c.IgnoreSelf && c.Weights == Distance {
		return fmt.Errorf("%w: IgnoreSelf with Weights %q (the nearest point would weigh 1/0)", ErrBadParam, Distance)
	}
	if c.Kernel != nil {
		if err := kernel.Check(c.Kernel); err != nil {
			return fmt.Errorf("%w: %v", ErrBadParam, err)
		}
	}
	return nil
}

// Model is a fitted kNN classifier: the labelled points and their labels, and
// either the Gram matrix they came from (FitGram) or their feature vectors
// (Fit). It is safe for concurrent use.
type Model struct {
	settings Classifier
	// NClasses is the number of score columns C: labels lie in 0..C-1
	// (Classes() lists those seen in training).
	NClasses int
	// Labeled lists the rows of the fitted matrix that carry labels, in
	// increasing order: these are the candidate neighbours.
	Labeled []int
	// MultiLabel reports a model fitted from label sets.
	MultiLabel bool

	n     int       // rows of the fitted matrix
	y     []int     // class of Labeled[j] (single-label)
	sets  [][]int   // labels of Labeled[j] (multi-label)
	ldiag []float64 // K(l_j, l_j)

	classes      []int // sorted distinct training labels
	transduction []int // label of each of the n rows (single-label)

	gram  blas64Sym     // FitGram: the whole Gram matrix
	xlab  *mat.Dense    // Fit: labelled feature rows
	kern  kernel.Kernel // Fit: the kernel
	ncols int           // Fit: feature count
}

// blas64Sym is a read-only view of a symmetric matrix.
type blas64Sym struct {
	data   []float64 // upper triangle of a *mat.SymDense, or nil
	stride int
	m      mat.Symmetric
}

func (s blas64Sym) at(i, j int) float64 {
	if s.data == nil {
		return s.m.At(i, j)
	}
	if i > j {
		i, j = j, i
	}
	return s.data[i*s.stride+j]
}

func viewSym(K mat.Symmetric) blas64Sym {
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		return blas64Sym{data: raw.Data, stride: raw.Stride, m: K}
	}
	return blas64Sym{m: K}
}

// checkLabels validates single-label y and returns the labelled rows, their
// classes and C.
func (c Classifier) checkLabels(y []int) ([]int, []int, int, error) {
	var lab, ly []int
	C := 0
	for i, v := range y {
		if v == learner.Unlabeled {
			continue
		}
		if v < 0 {
			return nil, nil, 0, fmt.Errorf("%w: y[%d] = %d (classes are ≥ 0, %d = unlabelled)", ErrBadLabel, i, v, learner.Unlabeled)
		}
		lab = append(lab, i)
		ly = append(ly, v)
		C = max(C, v+1)
	}
	if err := c.checkCount(len(lab)); err != nil {
		return nil, nil, 0, err
	}
	one := true
	for _, v := range ly {
		if v != ly[0] {
			one = false
			break
		}
	}
	if one {
		return nil, nil, 0, fmt.Errorf("%w: all %d labelled points are class %d", ErrOneClass, len(ly), ly[0])
	}
	return lab, ly, C, nil
}

func (c Classifier) checkCount(l int) error {
	if l == 0 {
		return ErrNoLabels
	}
	if c.K >= l {
		return fmt.Errorf("%w: K = %d with %d labelled points (want K < %d: with K ≥ the labelled count every query has the same neighbours)", ErrK, c.K, l, l)
	}
	return nil
}

// checkSets validates multi-label sets (nil or empty = unlabelled).
func (c Classifier) checkSets(sets [][]int) ([]int, [][]int, int, error) {
	var lab []int
	var ls [][]int
	C := 0
	for i, s := range sets {
		if len(s) == 0 {
			continue
		}
		cp := append([]int(nil), s...)
		sort.Ints(cp)
		for k, v := range cp {
			if v < 0 {
				return nil, nil, 0, fmt.Errorf("%w: sets[%d] holds %d", ErrBadLabel, i, v)
			}
			if k > 0 && v == cp[k-1] {
				return nil, nil, 0, fmt.Errorf("%w: sets[%d] holds %d twice", ErrBadLabel, i, v)
			}
			C = max(C, v+1)
		}
		lab = append(lab, i)
		ls = append(ls, cp)
	}
	if err := c.checkCount(len(lab)); err != nil {
		return nil, nil, 0, err
	}
	return lab, ls, C, nil
}

// FitGram fits on the n×n Gram matrix K of all points (labelled and
// unlabelled, so data-dependent kernels work) with y[i] the class of row i or
// learner.Unlabeled. The labelled rows become the candidate neighbours; the
// unlabelled rows are labelled by their neighbours (Model.Transduction). The
// model keeps a reference to K (do not modify it afterwards) and predicts any
// rows of it with PredictRows. Errors: ErrK, ErrWeights, ErrBadParam,
// ErrNoLabels, ErrOneClass, ErrBadLabel, ErrShape (len(y) ≠ n), ErrNonFinite (a
// diagonal entry of a labelled row, or an entry read for the transduction),
// ErrNegativeSim, ctx.Err().
func (c Classifier) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if err := checkGram(K, len(y)); err != nil {
		return nil, err
	}
	lab, ly, C, err := c.checkLabels(y)
	if err != nil {
		return nil, err
	}
	m, err := c.fitGram(K, lab, ly, nil, C)
	if err != nil {
		return nil, err
	}
	return m.transduce(ctx, y, func(unl []int) Query { return GramRows(unl) })
}

// FitGramSets is FitGram for multi-label data: sets[i] lists the labels of
// row i (nil or empty = unlabelled).
func (c Classifier) FitGramSets(ctx context.Context, K mat.Symmetric, sets [][]int) (*Model, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if err := checkGram(K, len(sets)); err != nil {
		return nil, err
	}
	lab, ls, C, err := c.checkSets(sets)
	if err != nil {
		return nil, err
	}
	return c.fitGram(K, lab, nil, ls, C)
}

func checkGram(K mat.Symmetric, n int) error {
	if K == nil {
		return fmt.Errorf("%w: nil Gram matrix", ErrShape)
	}
	if m := K.SymmetricDim(); m != n {
		return fmt.Errorf("%w: Gram matrix is %d×%d, labels have length %d", ErrShape, m, m, n)
	}
	return nil
}

func (c Classifier) fitGram(K mat.Symmetric, lab, ly []int, ls [][]int, C int) (*Model, error) {
	g := viewSym(K)
	m := &Model{settings: c, NClasses: C, Labeled: lab, MultiLabel: ls != nil, n: K.SymmetricDim(),
		y: ly, sets: ls, gram: g, ldiag: make([]float64, len(lab))}
	m.classes = distinct(ly, ls)
	for j, r := range lab {
		v := g.at(r, r)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: K[%d,%d] = %v", ErrNonFinite, r, r, v)
		}
		m.ldiag[j] = v
	}
	return m, nil
}

// Fit fits on points: X is n×d, y[i] the class of row i or
// learner.Unlabeled (unlabelled rows are ignored: point-kernel kNN is
// inductive). Neighbours are ranked by the distance the settings' Kernel
// induces (Euclidean when Kernel is nil). Errors as FitGram, and ErrNonFinite
// for NaN/Inf in X.
func (c Classifier) Fit(ctx context.Context, X mat.Matrix, y []int) (*Model, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrShape)
	}
	if r, _ := X.Dims(); r != len(y) {
		return nil, fmt.Errorf("%w: X has %d rows, y has %d", ErrShape, r, len(y))
	}
	lab, ly, C, err := c.checkLabels(y)
	if err != nil {
		return nil, err
	}
	m, err := c.fitPoints(X, lab, ly, nil, C)
	if err != nil {
		return nil, err
	}
	return m.transduce(ctx, y, func(unl []int) Query { return Points(pickRows(X, unl)) })
}

// FitSets is Fit for multi-label data (sets[i] = labels of row i; nil or
// empty = unlabelled).
func (c Classifier) FitSets(ctx context.Context, X mat.Matrix, sets [][]int) (*Model, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrShape)
	}
	if r, _ := X.Dims(); r != len(sets) {
		return nil, fmt.Errorf("%w: X has %d rows, sets has %d", ErrShape, r, len(sets))
	}
	lab, ls, C, err := c.checkSets(sets)
	if err != nil {
		return nil, err
	}
	return c.fitPoints(X, lab, nil, ls, C)
}

func (c Classifier) fitPoints(X mat.Matrix, lab, ly []int, ls [][]int, C int) (*Model, error) {
	n, d := X.Dims()
	if d == 0 {
		return nil, fmt.Errorf("%w: X has no columns", ErrShape)
	}
	k := c.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	xl := mat.NewDense(len(lab), d, nil)
	for j, r := range lab {
		for t := 0; t < d; t++ {
			v := X.At(r, t)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: X[%d,%d] = %v", ErrNonFinite, r, t, v)
			}
			xl.Set(j, t, v)
		}
	}
	m := &Model{settings: c, NClasses: C, Labeled: lab, MultiLabel: ls != nil, n: n, y: ly, sets: ls,
		xlab: xl, kern: k, ncols: d, ldiag: make([]float64, len(lab))}
	m.classes = distinct(ly, ls)
	for j := range lab {
		row := xl.RawRowView(j)
		v := k.Eval(row, row)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: kernel of row %d with itself = %v", ErrNonFinite, lab[j], v)
		}
		m.ldiag[j] = v
	}
	return m, nil
}
