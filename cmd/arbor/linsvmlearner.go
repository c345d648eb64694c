package main

import (
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
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
