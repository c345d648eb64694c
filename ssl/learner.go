package ssl

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// Problem is one transductive task: all rows, a kernel over them, and the
// labels of the labelled rows (learner.Unlabeled elsewhere).
type Problem struct {
	X *mat.Dense    // features of every row (scaled as the user asked)
	K *mat.SymDense // kernel over every row; nil for learners that need none
	// K32, if not nil, is the kernel in float32 storage (kernel.Sym32, half
	// the memory); kernel learners then fit on it instead of K.
	K32 *kernel.Sym32
	Y   []int // len n: class of labelled rows, learner.Unlabeled elsewhere

	// Optional new points (inductive use): Kt is t×n with the kernel values
	// of each new point against every row (for data-dependent kernels from
	// the out-of-sample extension, kernel.Extension), TestDiag their
	// self-similarities k(x, x) (needed by distance-based learners:
	// learner.DiagPredictor).
	Kt       *mat.Dense
	TestDiag []float64

	// Warn, if not nil, receives non-fatal problems (non-convergence).
	Warn func(error)

	// Spec, when known, is the kernel K came from. Learners that fit on
	// the labelled rows only (learner.LabeledFitter) resolve rbf:scale from those
	// rows, as scikit-learn's SVC(gamma="scale") does.
	Spec *kernel.Spec
}

func (p Problem) warn(errs []error) {
	if p.Warn != nil {
		for _, e := range errs {
			p.Warn(e)
		}
	}
}

// tests returns the number of new points.
func (p Problem) tests() int {
	if p.Kt == nil {
		return 0
	}
	t, _ := p.Kt.Dims()
	return t
}

// UsesKernel reports whether l reads Problem.K: every learner but a
// learner.PointFitter.
func UsesKernel(l learner.Learner) bool {
	_, points := l.(learner.PointFitter)
	return !points
}

// Fit fits l on p: FitGram on p.K (with rbf:scale resolved from the
// labelled rows for a learner.LabeledFitter), or FitPoints on p.X for a
// learner.PointFitter. The model's warnings go to p.Warn.
func Fit(ctx context.Context, l learner.Learner, p Problem) (learner.Model, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	var m learner.Model
	var err error
	switch {
	case !UsesKernel(l):
		if p.X == nil {
			return nil, fmt.Errorf("ssl: %s needs the points", l.Name())
		}
		m, err = l.(learner.PointFitter).FitPoints(ctx, p.X, p.Y)
	case p.K == nil && p.K32 == nil:
		return nil, fmt.Errorf("ssl: %s needs a kernel", l.Name())
	default:
		var K mat.Symmetric = p.K
		if p.K32 != nil {
			K = p.K32
		}
		if _, ok := learner.As[learner.LabeledFitter](l); ok && p.Spec != nil && p.Spec.Kind == kernel.KindPoint && p.Spec.Scale && p.X != nil {
			if p.Kt != nil {
				return nil, fmt.Errorf("ssl: %s with rbf:scale on new points: give an explicit gamma", l.Name())
			}
			if K, err = labeledScaleGram(ctx, *p.Spec, p.X, p.Y); err != nil {
				return nil, err
			}
		}
		m, err = l.FitGram(ctx, K, p.Y)
	}
	if err != nil {
		return nil, err
	}
	p.warn(learner.Warnings(m))
	return m, nil
}

// Transduce fits l on p and returns a label for every row (labelled rows
// keep theirs, as the papers' protocol scores only the unlabelled rows),
// followed by one for each new point of p.Kt, if any, by the model's
// Predict (for a transductive learner its out-of-sample rule, the one a
// saved model applies); and the fitted model.
func Transduce(ctx context.Context, l learner.Learner, p Problem) ([]int, learner.Model, error) {
	m, err := Fit(ctx, l, p)
	if err != nil {
		return nil, nil, err
	}
	out := m.Transduction()
	if len(out) != len(p.Y) {
		return nil, nil, fmt.Errorf("ssl: %s labelled %d rows, want %d", l.Name(), len(out), len(p.Y))
	}
	for i, c := range p.Y {
		if c != learner.Unlabeled {
			out[i] = c
		}
	}
	if p.tests() > 0 {
		var pred []int
		if dp, ok := m.(learner.DiagPredictor); ok {
			if p.TestDiag == nil {
				return nil, nil, fmt.Errorf("ssl: %s on new points needs their self-similarities k(x, x)", l.Name())
			}
			pred, err = dp.PredictDiag(ctx, nil, p.Kt, p.TestDiag)
		} else {
			pred, err = m.Predict(ctx, nil, p.Kt)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, pred...)
	}
	return out, m, nil
}

// labeledScaleGram returns an n×n view whose labelled-by-labelled and
// unlabelled-by-labelled blocks hold the RBF kernel with gamma from the
// labelled rows (Spec.Resolve), computed as scikit-learn's SVC does on
// the labelled points; the unlabelled-by-unlabelled block, which a learner
// trained on the labelled rows never reads, is zero.
func labeledScaleGram(ctx context.Context, sp kernel.Spec, X *mat.Dense, y []int) (mat.Symmetric, error) {
	l, u := labeledRows(y)
	Xl := rowsOf(X, l)
	k, _ := sp.Resolve(Xl)
	Kll, err := kernel.Gram(ctx, nil, k, Xl)
	if err != nil {
		return nil, err
	}
	v := &blockView{pos: make([]int, len(y)), ll: Kll}
	for a, r := range l {
		v.pos[r] = a
	}
	for b, r := range u {
		v.pos[r] = -b - 1
	}
	if len(u) > 0 {
		if v.ul, err = kernel.Cross(ctx, nil, k, rowsOf(X, u), Xl); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// blockView is a symmetric matrix over labelled (pos ≥ 0) and unlabelled
// (pos = −b−1) rows from its two blocks.
type blockView struct {
	pos []int
	ll  *mat.SymDense
	ul  *mat.Dense
}

func (v *blockView) Dims() (int, int)  { return len(v.pos), len(v.pos) }
func (v *blockView) SymmetricDim() int { return len(v.pos) }
func (v *blockView) T() mat.Matrix     { return v }
func (v *blockView) At(i, j int) float64 {
	a, b := v.pos[i], v.pos[j]
	switch {
	case a >= 0 && b >= 0:
		return v.ll.At(a, b)
	case a < 0 && b >= 0:
		return v.ul.At(-a-1, b)
	case a >= 0 && b < 0:
		return v.ul.At(-b-1, a)
	}
	return 0
}

// labeledRows splits rows into labelled and unlabelled.
func labeledRows(y []int) (l, u []int) {
	for i, c := range y {
		if c == learner.Unlabeled {
			u = append(u, i)
		} else {
			l = append(l, i)
		}
	}
	return l, u
}

// rowsOf copies the given rows of X.
func rowsOf(X *mat.Dense, rows []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for a, i := range rows {
		copy(out.RawRowView(a), X.RawRowView(i))
	}
	return out
}
