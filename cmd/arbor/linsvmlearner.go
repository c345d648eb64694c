package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// linsvmLearner is --learner linsvm: LIBLINEAR's linear SVM, scikit-learn's
// LinearSVC (squared hinge, one-versus-rest, a penalised intercept; dual
// coordinate descent in the primal weight space, package linsvm) on the
// landmark features Z. It costs O(passes·ℓ·r) for ℓ labelled rows, where
// --learner svm (the exact methods' C-SVC with the linear kernel on Z)
// grows with ℓ² and more: the choice for many labelled rows. It has no
// exact (N×N kernel) form, so it needs --landmarks; with --kernel linear
// and M at least the data's rank, Z·Zᵀ = X·Xᵀ and it is LinearSVC on the
// points themselves (the SVM is invariant to that rotation).
type linsvmLearner struct{ settings linsvm.Classifier }

func (l linsvmLearner) Name() string    { return "linsvm" }
func (l linsvmLearner) Validate() error { return l.settings.Validate() }

// FitGram refuses: linsvm runs on landmark features (needLandmarks stops a
// run without them before any kernel is built).
func (l linsvmLearner) FitGram(context.Context, mat.Symmetric, []int) (learner.Model, error) {
	return nil, linsvmNeedsLandmarks()
}

func linsvmNeedsLandmarks() error {
	return usageError("--learner linsvm (LIBLINEAR's linear SVM, scikit-learn's LinearSVC) runs on landmark features: add --landmarks M (with --kernel linear and M ≥ the number of features it is LinearSVC on the scaled points)")
}

// needLandmarks fails when linsvm is among the learners and there are no
// landmarks.
func needLandmarks(learners []ssl.Learner, m int) error {
	if m > 0 {
		return nil
	}
	for _, l := range learners {
		if _, ok := l.(linsvmLearner); ok {
			return linsvmNeedsLandmarks()
		}
	}
	return nil
}

// landmarkLinSVM fits linsvm on the features of the labelled rows of Z.
func landmarkLinSVM(ctx context.Context, Z *mat.Dense, y []int, lf learnerFlags) (*linsvm.Model, error) {
	Zl, yl := labelledFeatures(Z, y)
	if len(yl) == 0 {
		return nil, fmt.Errorf("%w: no labelled rows", linsvm.ErrInput)
	}
	return linsvmSettings(lf).Fit(ctx, Zl, yl)
}

// linsvmSettings: --C, --tol and --max-iter (0: LinearSVC's defaults,
// tol 1e-4 and 1000 passes).
func linsvmSettings(lf learnerFlags) linsvm.Classifier {
	return linsvm.Classifier{C: lf.C, Tol: lf.tol, MaxIter: lf.maxIter}
}

// linsvmWarning describes a linsvm model that stopped at its pass limit.
func linsvmWarning(m *linsvm.Model) string {
	if m.Converged {
		return ""
	}
	its := make([]string, len(m.Iter))
	for i, v := range m.Iter {
		its[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("linsvm reached its pass limit before the tolerance (passes %s; raise --max-iter or --tol)", strings.Join(its, ", "))
}
