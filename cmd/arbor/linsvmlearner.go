package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"gonum.org/v1/gonum/mat"
)

func linsvmNeedsLandmarks() error {
	return usageError("--learner linsvm (LIBLINEAR's linear SVM, scikit-learn's LinearSVC) runs on landmark features: add --landmarks M (with --kernel linear and M ≥ the number of features it is LinearSVC on the scaled points)")
}

// needLandmarks fails when linsvm is among the learners and there are no
// landmarks.
func needLandmarks(learners []learner.Learner, m int) error {
	if m > 0 {
		return nil
	}
	for _, l := range learners {
		if _, ok := learner.As[linsvm.Classifier](l); ok {
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
	return linsvm.Classifier{C: lf.Float("C"), Tol: lf.Float("tol"), MaxIter: lf.Int("max-iter")}
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
