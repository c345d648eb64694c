package main

import (
	"context"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// svmOnPoints is classify's path for a point kernel with the SVM: the
// solver computes the kernel columns it needs from the points (with its
// column cache, as LIBSVM does) instead of forming the N×N Gram matrix, so
// memory is O(N·d + cache) and no kernel value is computed for a pair it
// never visits. Labelled rows keep their labels; unlabelled and --test rows
// get the fitted model's classes. It returns the labels and the gamma that
// rbf:scale resolved to (0 otherwise), and the fitted model. The predictions equal those of the
// Gram path (checked on the bench set of bench/classify_svm.py, C = 1 and
// 100: identical files).
func svmOnPoints(ctx context.Context, stderr io.Writer, ds, test *dataset.Dataset, spec kernel.Spec, lf learnerFlags) ([]int, float64, *svm.Model, error) {
	k := spec.Point
	gamma := 0.0
	if spec.Scale {
		gamma = svmScaleGamma(ds) // the labelled rows' (scalegamma.go)
		k = kernel.RBF{Gamma: gamma}
	}
	// A class with one labelled row is accepted, as LIBSVM and the exact
	// (Gram) path accept it (ssl.SVM).
	m, err := svm.Classifier{C: lf.Float("C"), Tol: lf.Float("tol"), MaxIter: lf.Int("max-iter"), Kernel: k, AllowSingleton: true}.Fit(ctx, ds.X, ds.Y)
	if err != nil {
		return nil, 0, nil, err
	}
	for _, w := range m.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	pred, err := pointsLabels(ctx, m, ds, test)
	return pred, gamma, m, err
}

// pointsModel is a model fitted on the points (svm, knn): its labels of
// the training rows and of new points.
type pointsModel interface {
	Transduction() []int
	PredictPoints(ctx context.Context, dst []int, X mat.Matrix) ([]int, error)
}

// pointsLabels returns the labels of ds's rows (labelled rows keep theirs)
// followed by those of test's rows (if any).
func pointsLabels(ctx context.Context, m pointsModel, ds, test *dataset.Dataset) ([]int, error) {
	pred := m.Transduction()
	keepGiven(pred, ds.Y)
	if test != nil {
		pt, err := m.PredictPoints(ctx, nil, test.X)
		if err != nil {
			return nil, err
		}
		pred = append(pred, pt...)
	}
	return pred, nil
}
