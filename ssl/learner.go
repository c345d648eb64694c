package ssl

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// Problem is one transductive task: all rows, a kernel over them, and the
// labels of the labelled rows (dataset.Unlabeled elsewhere).
type Problem struct {
	X *mat.Dense    // features of every row (scaled as the user asked)
	K *mat.SymDense // kernel over every row; nil for learners that need none
	Y []int         // len n: class of labelled rows, dataset.Unlabeled elsewhere

	// Optional new points (inductive use): Kt is t×n with the kernel values
	// of each new point against every row (for data-dependent kernels from
	// the out-of-sample extension, kernel.Extension), TestDiag their
	// self-similarities k(x, x) (needed by distance-based learners).
	Kt       *mat.Dense
	TestDiag []float64

	// Warn, if not nil, receives non-fatal problems (non-convergence).
	Warn func(error)

	// Spec, when known, is the kernel K came from. SVM uses it for
	// rbf:scale, whose gamma scikit-learn's SVC computes from the training
	// (labelled) points only.
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

// Learner labels the unlabelled rows of a Problem.
type Learner interface {
	// Name is the learner's short name in tables, e.g. "svm" or "knn3".
	Name() string
	// UsesKernel reports whether Transduce reads Problem.K. Learners that
	// do not (label propagation on its own affinity) run once per split.
	UsesKernel() bool
	// Transduce returns a label for every row (labelled rows keep theirs),
	// followed by one for each new point of p.Kt, if any.
	Transduce(ctx context.Context, p Problem) ([]int, error)
}

// labeledRows splits rows into labelled and unlabelled.
func labeledRows(y []int) (l, u []int) {
	for i, c := range y {
		if c == dataset.Unlabeled {
			u = append(u, i)
		} else {
			l = append(l, i)
		}
	}
	return l, u
}

// subSym copies K[rows, rows].
func subSym(K mat.Symmetric, rows []int) *mat.SymDense {
	s := mat.NewSymDense(len(rows), nil)
	for a, i := range rows {
		for b := a; b < len(rows); b++ {
			s.SetSym(a, b, K.At(i, rows[b]))
		}
	}
	return s
}

// subDense copies K[rows, cols].
func subDense(K mat.Matrix, rows, cols []int) *mat.Dense {
	d := mat.NewDense(len(rows), len(cols), nil)
	for a, i := range rows {
		r := d.RawRowView(a)
		for b, j := range cols {
			r[b] = K.At(i, j)
		}
	}
	return d
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

// SVM is C-SVC on the kernel: trained on the labelled rows' Gram block and
// applied to the unlabelled-by-labelled block (the papers' transductive
// protocol, LIBSVM with a precomputed kernel).
type SVM struct {
	Settings svm.Classifier
}

func (s SVM) Name() string     { return "svm" }
func (s SVM) UsesKernel() bool { return true }

func (s SVM) Transduce(ctx context.Context, p Problem) ([]int, error) {
	if p.K == nil {
		return nil, fmt.Errorf("ssl: svm needs a kernel")
	}
	l, u := labeledRows(p.Y)
	yl := make([]int, len(l))
	for i, r := range l {
		yl[i] = p.Y[r]
	}
	set := s.Settings
	set.AllowSingleton = true // a class with one labelled point is a legitimate SSL setting
	Kll, Kul, Kt := subSym(p.K, l), (*mat.Dense)(nil), p.Kt
	if p.Spec != nil && p.Spec.Kind == kernel.KindPoint && p.Spec.Scale && p.X != nil {
		// SVC(gamma="scale") takes gamma from the training points.
		k := kernel.RBF{Gamma: kernel.GammaScale(rowsOf(p.X, l))}
		var err error
		if Kll, err = kernel.Gram(ctx, nil, k, rowsOf(p.X, l)); err != nil {
			return nil, err
		}
		if len(u) > 0 {
			if Kul, err = kernel.Cross(ctx, nil, k, rowsOf(p.X, u), rowsOf(p.X, l)); err != nil {
				return nil, err
			}
		}
		if Kt != nil {
			return nil, fmt.Errorf("ssl: svm with rbf:scale on new points: give an explicit gamma")
		}
	} else if len(u) > 0 {
		Kul = subDense(p.K, u, l)
	}
	m, err := set.FitGram(ctx, Kll, yl)
	if err != nil {
		return nil, err
	}
	p.warn(m.Warnings)
	out := append([]int(nil), p.Y...)
	if len(u) > 0 {
		pred, err := m.PredictGram(Kul)
		if err != nil {
			return nil, err
		}
		for i, r := range u {
			out[r] = pred[i]
		}
	}
	if t := p.tests(); t > 0 {
		all := make([]int, t)
		for i := range all {
			all[i] = i
		}
		pred, err := m.PredictGram(subDense(Kt, all, l))
		if err != nil {
			return nil, err
		}
		out = append(out, pred...)
	}
	return out, nil
}

// KNN is k-nearest neighbours by the kernel-induced distance
// d² = K_ii + K_jj − 2K_ij against the labelled rows.
type KNN struct {
	Settings knn.Classifier
}

func (k KNN) Name() string     { return fmt.Sprintf("knn%d", k.Settings.K) }
func (k KNN) UsesKernel() bool { return true }

func (k KNN) Transduce(ctx context.Context, p Problem) ([]int, error) {
	if p.K == nil {
		return nil, fmt.Errorf("ssl: knn needs a kernel")
	}
	_, u := labeledRows(p.Y)
	out := append([]int(nil), p.Y...)
	m, err := k.Settings.FitGram(ctx, p.K, p.Y)
	if err != nil {
		return nil, err
	}
	if len(u) > 0 {
		pred, err := m.PredictGram(ctx, nil, u)
		if err != nil {
			return nil, err
		}
		for i, r := range u {
			out[r] = pred[i]
		}
	}
	if p.tests() > 0 {
		if p.TestDiag == nil {
			return nil, fmt.Errorf("ssl: knn on new points needs their self-similarities k(x, x)")
		}
		pred, err := m.PredictCross(ctx, nil, p.Kt, p.TestDiag)
		if err != nil {
			return nil, err
		}
		out = append(out, pred...)
	}
	return out, nil
}
