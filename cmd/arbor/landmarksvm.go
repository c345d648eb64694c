package main

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// landmarkSVM fits the SVM of the exact methods (svm.Classifier: C-SVC,
// hinge loss, one-versus-one, unpenalised intercept, LIBSVM's SMO) with the
// linear kernel on the landmark features of the labelled rows of Z. Since
// Z·Zᵀ is the landmark approximation of the kernel matrix, this is the
// exact learner on the approximate kernel: with every row a landmark
// (Z·Zᵀ = K) it predicts as the exact SVM does. Training reads ℓ×r
// features (ℓ labelled rows) and computes kernel columns on demand in
// O(ℓ·r) each; prediction O(nSV·r) per row.
//
// (LIBLINEAR's dual coordinate descent, linsvm, solves another problem:
// squared hinge, one-versus-rest, a penalised intercept. On satellite with
// the linear kernel, whose Nyström features are exact, it scored 2.5 points
// below the exact SVM; see bench/lmacc.)
func landmarkSVM(ctx context.Context, Z *mat.Dense, y []int, C float64) (*svm.Model, error) {
	Zl, yl := labelledFeatures(Z, y)
	if len(yl) == 0 {
		return nil, fmt.Errorf("%w: no labelled rows", svm.ErrEmpty)
	}
	return svm.Classifier{C: C, Kernel: kernel.Linear{}, AllowSingleton: true}.Fit(ctx, Zl, yl)
}
