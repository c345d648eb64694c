package main

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/learner"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
)

// knnOnPoints is classify's path for a point kernel with kNN: the
// neighbours of each unlabelled (and --test) row are found among the
// labelled rows from the kernel values of those pairs alone, as
// scikit-learn's KNeighborsClassifier does, instead of forming the N×N
// Gram matrix (30,000 rows: 7.2 GB and minutes, where the pairs needed are
// unlabelled × labelled). The predictions equal the Gram path's (the same
// tie quantum over the batch of unlabelled rows; TestKNNOnPointsEqualsGram).
// rbf:scale resolves on all rows, as the Gram path does (for uniform and
// distance weights the neighbours do not depend on gamma).
func knnOnPoints(ctx context.Context, ds, test *dataset.Dataset, spec kernel.Spec, set knn.Classifier, progress func(string, int, int)) ([]int, float64, *knn.Model, error) {
	k := spec.Point
	gamma := 0.0
	if spec.Scale {
		gamma = kernel.GammaScale(ds.X)
		k = kernel.RBF{Gamma: gamma}
	}
	set.Kernel = k
	if set.Progress == nil {
		set.Progress = progress
	}
	m, err := set.Fit(ctx, ds.X, ds.Y)
	if err != nil {
		return nil, 0, nil, err
	}
	pred, err := pointsLabels(ctx, m, ds, test)
	return pred, gamma, m, err
}

// knnPointsSettings returns the kNN settings of ln when classify can take
// the points path: kNN on a point kernel without landmarks.
func knnPointsSettings(ln learner.Learner, spec kernel.Spec, landmarks int) (knn.Classifier, bool) {
	c, ok := learner.As[knn.Classifier](ln)
	if !ok || landmarks > 0 || spec.Kind != kernel.KindPoint {
		return knn.Classifier{}, false
	}
	return c, true
}

// knnPointsBytes is the points path's memory: the points and the
// (unlabelled + test) × labelled kernel block.
func knnPointsBytes(ds, test *dataset.Dataset) (float64, string) {
	n, q := ds.Len(), len(ds.UnlabeledRows())
	if test != nil {
		n += test.Len()
		q = max(q, test.Len())
	}
	l := len(ds.Labeled())
	return 8*float64(n)*float64(ds.Dim()+2) + 8*float64(q)*float64(l),
		fmt.Sprintf("knn on %d rows (%d queries × %d labelled rows of kernel values)", n, q, l)
}
