package svm

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/internal/smo"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Classifier holds the settings of a C-support vector classifier (C-SVC,
// LIBSVM -s 0). The zero values of C, Tol, CacheMB and MaxIter select
// LIBSVM's defaults, so Classifier{Kernel: k} is LIBSVM's C-SVC with C = 1. Settings are never mutated by Fit.
type Classifier struct {
	// C is the soft-margin penalty (> 0); 0 means LIBSVM's default, 1.
	C float64
	// Kernel is used by Fit and Predict; FitGram ignores it.
	Kernel kernel.Kernel
	// Tol is the stopping tolerance on the maximal KKT violation
	// (LIBSVM -e, default 1e-3).
	Tol float64
	// CacheMB is the kernel-column cache budget in MiB (LIBSVM -m;
	// default 200 as scikit-learn).
	CacheMB float64
	// MaxIter bounds SMO iterations per binary problem; 0 means LIBSVM's
	// max(10⁷, 100·l). Reaching it is reported in Model.Warnings.
	MaxIter int
	// NoShrinking disables the shrinking heuristic (LIBSVM -h 0).
	NoShrinking bool
	// Weights scales C per class label: C_i = C·Weights[y_i] (LIBSVM -wi);
	// labels absent from the map have weight 1.
	Weights map[int]float64
	// Probability fits Platt sigmoids by internal 5-fold cross-validation
	// (LIBSVM -b 1), the folds shuffled as Shuffle says.
	Probability bool
	// Shuffle draws the cross-validation folds of Probability: ShufflePCG
	// (the default, "") from rand.NewPCG(Seed, machine), or ShuffleLIBSVM
	// as svm-train -b 1 draws them, with the C library's rand() after
	// srand(Seed) (package internal/crand; Seed 0 and 1 are both glibc's
	// default state, that of svm-train, which never calls srand), one
	// sequence through the one-vs-one pairs in LIBSVM's order.
	Shuffle string
	// OneVsRest trains one machine per class against all others instead
	// of LIBSVM's one-vs-one; prediction takes the largest decision value.
	OneVsRest bool
	// Seed drives the cross-validation shuffles of Probability (below
	// 2³² with ShuffleLIBSVM: srand takes an unsigned int).
	Seed uint64
	// AllowSingleton accepts classes with a single training point
	// (LIBSVM accepts them; by default they are ErrSingletonClass).
	AllowSingleton bool
	// Progress, if not nil, is called after each binary machine with
	// stage "svm", done and total machines.
	Progress func(stage string, done, total int)
}

// cost returns C, with 0 meaning LIBSVM's default 1.
func (c Classifier) cost() float64 {
	if c.C == 0 {
		return 1
	}
	return c.C
}

func (c Classifier) tol() float64 {
	if c.Tol == 0 {
		return 1e-3
	}
	return c.Tol
}

func (c Classifier) cacheMB() float64 {
	if c.CacheMB == 0 {
		return 200
	}
	return c.CacheMB
}

// validate checks the settings (LIBSVM's svm_check_parameter).
func (c Classifier) validate(needKernel bool) error {
	switch {
	case !(c.C >= 0) || math.IsInf(c.C, 0):
		return fmt.Errorf("%w: C = %v, want finite C > 0 (0 = 1)", ErrBadParam, c.C)
	case !(c.Tol >= 0) || math.IsInf(c.Tol, 0):
		return fmt.Errorf("%w: Tol = %v, want finite Tol ≥ 0 (0 = 1e-3)", ErrBadParam, c.Tol)
	case !(c.CacheMB >= 0) || math.IsInf(c.CacheMB, 0):
		return fmt.Errorf("%w: CacheMB = %v, want ≥ 0 (0 = 200)", ErrBadParam, c.CacheMB)
	case c.MaxIter < 0:
		return fmt.Errorf("%w: MaxIter = %d, want ≥ 0 (0 = LIBSVM's default)", ErrBadParam, c.MaxIter)
	case c.Shuffle != "" && c.Shuffle != ShufflePCG && c.Shuffle != ShuffleLIBSVM:
		return fmt.Errorf("%w: Shuffle = %q, want %q or %q", ErrBadParam, c.Shuffle, ShufflePCG, ShuffleLIBSVM)
	case c.Shuffle == ShuffleLIBSVM && c.Seed > math.MaxUint32:
		return fmt.Errorf("%w: Seed = %d with Shuffle %q, want < 2³² (the seed of srand)", ErrBadParam, c.Seed, ShuffleLIBSVM)
	}
	for lab, w := range c.Weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("%w: Weights[%d] = %v, want finite weight > 0", ErrBadParam, lab, w)
		}
	}
	if needKernel {
		if err := kernel.Check(c.Kernel); err != nil {
			return fmt.Errorf("%w: %w", ErrBadParam, err)
		}
	}
	return nil
}

// Model is a fitted classifier. Class indices (Machine.Pos/Neg, columns of
// Decision and Probabilities) refer to Classes(), the sorted distinct
// training labels (scikit-learn's classes_).
type Model struct {
	// classes are the sorted distinct labels seen in training.
	classes []int
	// Kernel is the point kernel (nil for a model from FitGram).
	Kernel kernel.Kernel
	// OneVsRest tells how Machines are organised.
	OneVsRest bool
	// NTrain is the number of training rows (columns of a PredictGram Kt).
	NTrain int
	// SV lists the training rows of the support vectors, grouped by class
	// in Classes order and ascending within a class (LIBSVM's model order,
	// scikit-learn's support_).
	SV []int
	// NSV is the number of support vectors per class.
	NSV []int
	// Machines are the binary problems: one-vs-one pairs (a, b), a < b, in
	// LIBSVM order (0,1), (0,2), ..., (1,2), ...; or one machine per class.
	Machines []Machine
	// Probability tells whether Platt parameters were fitted.
	Probability bool
	// CouplingOrder lists the class indices in the order the pairwise
	// coupling of Probabilities takes them: svm-train's order (first
	// appearance in the training labels) for a model fitted with
	// ShuffleLIBSVM, whose coupling, an iteration stopped at a tolerance,
	// then gives svm-predict's numbers; nil means Classes order.
	CouplingOrder []int
	// Iter is the total number of SMO iterations; Converged is false when
	// a machine stopped at MaxIter (see Warnings).
	Iter      int
	Converged bool
	Warnings  []error

	svX *mat.Dense // support vector points (Fit), rows aligned with SV
	// transduction is a label for each of the NTrain rows (labelled rows
	// keep theirs); nil for a model loaded from a file without it.
	transduction []int
}

// Machine is one binary decision function
//
//	f(x) = Σ_s Coef[s]·K(x_{SV[s]}, x) − Rho
//
// with Coef = y_i α_i (LIBSVM's sv_coef). f > 0 votes for class Pos.
type Machine struct {
	// Pos and Neg are class indices; Neg = -1 for a one-vs-rest machine.
	Pos, Neg int
	// SV holds positions in Model.SV.
	SV   []int
	Coef []float64
	Rho  float64
	// Objective is the dual objective ½αᵀQα − eᵀα at the solution.
	Objective float64
	// NBSV counts bounded support vectors (α_i = C_i).
	NBSV      int
	Iter      int
	Converged bool
	// ProbA and ProbB are the Platt sigmoid parameters:
	// P(Pos | x) = 1/(1 + exp(ProbA·f(x) + ProbB)).
	ProbA, ProbB float64
}

// Fit trains on the rows of X with labels y (any non-negative integers,
// or learner.Unlabeled for rows to ignore in training) using c.Kernel. The
// Gram matrix is never formed: kernel columns are computed on demand into
// the LRU cache (in parallel for long columns). The model is indexed by
// the rows of X: Model.SV holds rows of X, Transduction labels every row.
//
// Errors: ErrBadParam, ErrEmpty, ErrNonFinite (X), ErrShape (len(y)),
// ErrBadLabel, ErrOneClass, ErrSingletonClass, or ctx.Err().
func (c Classifier) Fit(ctx context.Context, X *mat.Dense, y []int) (*Model, error) {
	if err := c.validate(true); err != nil {
		return nil, err
	}
	if lab, unl := splitLabeled(y); len(unl) > 0 && X != nil && !X.IsEmpty() {
		n, _ := X.Dims()
		if len(y) != n {
			return nil, fmt.Errorf("%w: %d labels for %d training rows", ErrShape, len(y), n)
		}
		if len(lab) == 0 {
			return nil, fmt.Errorf("%w: every row is unlabelled", ErrEmpty)
		}
		m, err := c.Fit(ctx, subRows(X, lab), pick(y, lab))
		if err != nil {
			return nil, err
		}
		m.widen(lab, n)
		if m.transduction, err = m.fillPoints(ctx, y, subRows(X, unl), unl); err != nil {
			return nil, err
		}
		return m, nil
	}
	src, n, err := pointSource(X, c.Kernel)
	if err != nil {
		return nil, err
	}
	m, err := c.fit(ctx, src, n, y)
	if err != nil {
		return nil, err
	}
	m.transduction = slices.Clone(y)
	m.Kernel = c.Kernel
	_, d := X.Dims()
	m.svX = mat.NewDense(max(len(m.SV), 1), d, nil)
	if len(m.SV) == 0 {
		m.svX = nil
	}
	for s, r := range m.SV {
		m.svX.SetRow(s, X.RawRowView(r))
	}
	return m, nil
}

// FitGram trains on a precomputed kernel matrix K (N×N over all rows) with
// labels y: a label ≥ 0, or learner.Unlabeled for a row that is not
// trained on (the transductive setting of papers 000/002: one kernel over
// all points, labels on a few). Only K[L][L] over the labelled rows L is
// read for training (in place: see withGram for the *mat.SymDense fast
// path), and K[U][SV] for the transduction of the unlabelled rows U. The
// model is indexed by the N rows of K: Predict takes t×N kernel rows.
//
// Errors: ErrBadParam, ErrEmpty, ErrNonFinite (K), ErrNotSymmetric,
// ErrShape (len(y) ≠ N), ErrBadLabel, ErrOneClass, ErrSingletonClass, or
// ctx.Err().
func (c Classifier) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	if err := c.validate(false); err != nil {
		return nil, err
	}
	if lab, unl := splitLabeled(y); len(unl) > 0 && K != nil && K.SymmetricDim() > 0 {
		n := K.SymmetricDim()
		if len(y) != n {
			return nil, fmt.Errorf("%w: %d labels for %d training rows", ErrShape, len(y), n)
		}
		if len(lab) == 0 {
			return nil, fmt.Errorf("%w: every row is unlabelled", ErrEmpty)
		}
		m, err := c.FitGramRows(ctx, K, lab, pick(y, lab))
		if err != nil {
			return nil, err
		}
		m.widen(lab, n)
		if m.transduction, err = m.fillGram(ctx, y, K, unl); err != nil {
			return nil, err
		}
		return m, nil
	}
	m, err := withGram(ctx, K, func(ctx context.Context, src smo.Source, n int) (*Model, error) {
		return c.fit(ctx, src, n, y)
	})
	if err != nil {
		return nil, err
	}
	m.transduction = slices.Clone(y)
	return m, nil
}

// FitGramRows trains on the sub-matrix K[rows][rows] without copying it:
// rows[k] is the row of K of training point k and y[k] its label. This is
// the transductive setting of papers 000/002 (one kernel over all points,
// labels on a few). The model refers to training points by position k in
// rows (Model.SV, NTrain = len(rows)); PredictGram then takes t×len(rows)
// kernel rows whose column k belongs to rows[k]. Only the sub-matrix is
// checked (NaN/Inf; for a *mat.SymDense store, the mirror entries).
//
// Errors: those of FitGram, and ErrShape for a row outside [0, N) or
// repeated.
func (c Classifier) FitGramRows(ctx context.Context, K mat.Symmetric, rows []int, y []int) (*Model, error) {
	if err := c.validate(false); err != nil {
		return nil, err
	}
	src, err := subGram(K, rows)
	if err != nil {
		return nil, err
	}
	m, err := c.fit(ctx, src, len(rows), y)
	if err != nil {
		return nil, err
	}
	m.transduction = slices.Clone(y)
	return m, nil
}

// binary is one two-class problem over rows of the source.
type binary struct {
	pos, neg int
	// flip: y = +1 marks class neg (or the rest, for a one-vs-rest
	// machine), so the solution's signs are turned round for the machine.
	flip bool
	rows []int     // source rows, in LIBSVM's order
	y    []int8    // ±1
	cost []float64 // C_i
}

func (c Classifier) fit(ctx context.Context, src smo.Source, n int, y []int) (*Model, error) {
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d training rows", ErrShape, len(y), n)
	}
	labels, cls, members, err := groupClasses(y)
	if err != nil {
		return nil, err
	}
	if len(labels) < 2 {
		return nil, fmt.Errorf("%w: every label is %d", ErrOneClass, labels[0])
	}
	var warns []error
	if !c.AllowSingleton {
		for k, mem := range members {
			if len(mem) == 1 {
				return nil, fmt.Errorf("%w: label %d has only row %d (set AllowSingleton to accept)", ErrSingletonClass, labels[k], mem[0])
			}
		}
	}
	wC := make([]float64, len(labels))
	for k, lab := range labels {
		wC[k] = c.cost()
		if w, ok := c.Weights[lab]; ok {
			wC[k] = c.cost() * w
		}
	}
	for lab := range c.Weights {
		if _, found := slices.BinarySearch(labels, lab); !found {
			warns = append(warns, fmt.Errorf("%w: Weights has label %d, which is not in the training labels", ErrBadParam, lab))
		}
	}
	slices.SortFunc(warns, func(a, b error) int { return cmpString(a.Error(), b.Error()) })

	var probs []binary
	if c.OneVsRest {
		// Class a vs the rest, laid out as scikit-learn's
		// OneVsRestClassifier(SVC) hands it to LIBSVM: label "rest" (0)
		// sorts first, so the rest rows come first with y = +1; the signs
		// are flipped after solving so that f > 0 means class a.
		for a := range labels {
			b := binary{pos: a, neg: -1, flip: true, rows: make([]int, 0, n), y: make([]int8, 0, n), cost: make([]float64, 0, n)}
			for _, want := range []bool{false, true} {
				for i := range n {
					if (cls[i] == a) == want {
						b.rows = append(b.rows, i)
						b.y = append(b.y, 1)
						if want {
							b.y[len(b.y)-1] = -1
						}
						b.cost = append(b.cost, wC[cls[i]])
					}
				}
			}
			probs = append(probs, b)
		}
	} else {
		first := firstAppearance(cls, len(labels))
		for a := range labels {
			for bb := a + 1; bb < len(labels); bb++ {
				// Class a positive (scikit-learn's layout, classes sorted);
				// with ShuffleLIBSVM the class that appears first in y
				// (svm-train's layout), solved and then flipped.
				p, q, flip := a, bb, c.Shuffle == ShuffleLIBSVM && first[bb] < first[a]
				if flip {
					p, q = bb, a
				}
				rows := append(slices.Clone(members[p]), members[q]...)
				b := binary{pos: a, neg: bb, flip: flip, rows: rows, y: make([]int8, len(rows)), cost: make([]float64, len(rows))}
				for k := range rows {
					if k < len(members[p]) {
						b.y[k], b.cost[k] = 1, wC[p]
					} else {
						b.y[k], b.cost[k] = -1, wC[q]
					}
				}
				probs = append(probs, b)
			}
		}
	}

	m := &Model{classes: labels, OneVsRest: c.OneVsRest, NTrain: n, Probability: c.Probability, Converged: true}
	var sigmoids [][2]float64
	if c.Probability && c.Shuffle == ShuffleLIBSVM && !c.OneVsRest {
		first := firstAppearance(cls, len(labels))
		m.CouplingOrder = make([]int, len(labels))
		for c, f := range first {
			m.CouplingOrder[f] = c
		}
	}
	if c.Probability {
		if sigmoids, err = c.sigmoids(ctx, src, cls, members, probs); err != nil {
			return nil, err
		}
	}
	alphas := make([][]float64, len(probs))
	nonzero := make([]bool, n)
	for p, b := range probs {
		mc := Machine{Pos: b.pos, Neg: b.neg}
		if c.Probability {
			mc.ProbA, mc.ProbB = sigmoids[p][0], sigmoids[p][1]
		}
		alpha, res, err := c.solve(ctx, src, b)
		if err != nil {
			return nil, err
		}
		mc.Rho, mc.Objective, mc.Iter, mc.Converged = res.Rho, res.Obj, res.Iter, res.Converged
		if b.flip {
			// Solved with class Pos negative (the rest, or svm-train's
			// layout): f_Pos = −f; P(Pos) = 1 − P keeps A and negates B.
			mc.Rho, mc.ProbB = -mc.Rho, -mc.ProbB
		}
		m.Iter += res.Iter
		if !res.Converged {
			m.Converged = false
			warns = append(warns, fmt.Errorf("%w: machine %d (%s) stopped at MaxIter after %d iterations", ErrNotConverged, p, machineName(labels, b), res.Iter))
		}
		for k, a := range alpha {
			if a > 0 {
				nonzero[b.rows[k]] = true
				if a >= b.cost[k] {
					mc.NBSV++
				}
			}
		}
		alphas[p] = alpha
		m.Machines = append(m.Machines, mc)
		if c.Progress != nil {
			c.Progress("svm", p+1, len(probs))
		}
	}
	// Support vectors: class by class, rows ascending.
	m.NSV = make([]int, len(labels))
	for k, mem := range members {
		for _, r := range mem {
			if nonzero[r] {
				m.SV = append(m.SV, r)
				m.NSV[k]++
			}
		}
	}
	pos := make([]int, n)
	for p, b := range probs {
		mc := &m.Machines[p]
		for i := range pos {
			pos[i] = -1
		}
		for k, r := range b.rows {
			pos[r] = k
		}
		// Coefficients in Model.SV order (for one-vs-one this is LIBSVM's
		// order: class Pos rows, then class Neg rows).
		for s, r := range m.SV {
			if k := pos[r]; k >= 0 && alphas[p][k] > 0 {
				mc.SV = append(mc.SV, s)
				c := float64(b.y[k]) * alphas[p][k]
				if b.flip {
					c = -c // f > 0 means class Pos
				}
				mc.Coef = append(mc.Coef, c)
			}
		}
	}
	m.Warnings = warns
	return m, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func machineName(labels []int, b binary) string {
	if b.neg < 0 {
		return fmt.Sprintf("class %d vs rest", labels[b.pos])
	}
	return fmt.Sprintf("class %d vs %d", labels[b.pos], labels[b.neg])
}

// solve runs the SMO core on one binary C-SVC problem: p = −e, α⁰ = 0.
// It returns α in the problem's row order.
func (c Classifier) solve(ctx context.Context, src smo.Source, b binary) ([]float64, smo.Result, error) {
	l := len(b.rows)
	pr := &smo.Problem{
		Q:       smo.NewCache(src, b.rows, c.cacheMB()),
		P:       make([]float64, l),
		Y:       b.y,
		C:       b.cost,
		Alpha:   make([]float64, l),
		Tol:     c.tol(),
		MaxIter: c.MaxIter,
		Shrink:  !c.NoShrinking,
	}
	for i := range pr.P {
		pr.P[i] = -1
	}
	res, err := smo.Solve(ctx, pr)
	pr.Q.Free()
	return pr.Alpha, res, err
}
