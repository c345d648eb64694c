// Package learner states the one contract every Arbor learner follows, so
// that any learner runs on any kernel (precomputed or built by Arbor), in
// the semi-supervised protocol of package ssl, from the command line, and
// from a saved file, through the same calls.
//
// # The contract
//
// A learner is a settings struct of plain values (C, K, Gamma, Tol, MaxIter,
// Seed, ... named as in scikit-learn and LIBSVM) whose zero values mean the
// documented defaults. Settings are never mutated by fitting.
//
//	Validate() error                                      // one check of the settings (svm_check_parameter)
//	FitGram(ctx, K mat.Symmetric, y []int) (*Model, error) // K is n×n over ALL training rows
//	Fit(ctx, X *mat.Dense, y []int) (*Model, error)        // where points are natural (point kernels)
//
// y has one entry per row of K: a class label ≥ 0, or Unlabeled (−1).
// Inductive learners (SVM, kNN) train on the labelled rows and ignore the
// unlabelled ones; transductive learners (label propagation and spreading,
// S4VM, HiBUST) use every row. Either way the fitted model is indexed by
// the n rows of K: new points are given as their kernel rows against those
// n rows.
//
// The fitted *Model (concrete, one per package) is immutable and has
//
//	Classes() []int                                        // sorted class labels it can output (scikit-learn's classes_)
//	Predict(ctx, dst []int, Kt mat.Matrix) ([]int, error)  // Kt is t×n; dst nil allocates
//	Transduction() []int                                   // a label for each of the n training rows (scikit-learn's transduction_)
//	Save(w io.Writer) error                                // and a package-level Load(r io.Reader) (*Model, error)
//
// so that save → load → predict equals predict in the fitting process.
//
// Inductive learners give a labelled row its label; a transductive one
// reports its own answer (label spreading may relabel a labelled row, an
// unreachable row may stay Unlabeled). Consumers that score only the
// unlabelled rows (package ssl) put the given labels back.
//
// Non-convergence is a result: models report Iter, Converged and
// Warnings []error (fields of the model struct, returned by its
// FitWarnings method: Warnings(m) reads them for any model). Models that need self-similarities k(x, x) of new
// points (distance-weighted kNN, support vector clustering) also implement
// DiagPredictor; plain Predict then returns an error saying so.
//
// Packages return concrete types; the interfaces below are for consumers
// (ssl, pipeline, the command line) that drive learners generically.
// Adapt turns any settings value with Validate and FitGram into a
// Learner; capabilities are small interfaces of the settings (As finds
// them): PointFitter, LabeledFitter, Transductive.
//
// # The registry
//
// Each learner family registers once (Register, in one file of its
// package): its name, the flags documenting its settings, New building
// learners from those settings, and the loaders of its saved models. The
// command line's --learner list, help, eval tables and model loading
// (Load) follow from the registry.
package learner

import (
	"context"
	"io"

	"gonum.org/v1/gonum/mat"
)

// Unlabeled marks a row whose class is unknown in a label vector y.
const Unlabeled = -1

// Model is a fitted learner, indexed by the n rows it was fitted on.
type Model interface {
	// Classes returns the sorted class labels the model can output.
	Classes() []int
	// Predict labels t new points given their t×n kernel rows Kt against
	// the n training rows. dst, if it has length t, is filled and returned;
	// nil allocates.
	Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error)
	// Transduction returns a label for each of the n training rows:
	// labelled rows keep their label (inductive learners); unlabelled rows
	// get the model's.
	Transduction() []int
	// Save writes the fitted state in the package's documented, versioned
	// format.
	Save(w io.Writer) error
}

// DiagPredictor is a Model whose predictions also need the new points'
// self-similarities k(x, x).
type DiagPredictor interface {
	Model
	PredictDiag(ctx context.Context, dst []int, Kt mat.Matrix, diag []float64) ([]int, error)
}

// Learner fits a Model from a Gram matrix over all training rows.
type Learner interface {
	// Name is the learner's short name in tables, e.g. "svm", "knn3".
	Name() string
	// Validate checks the settings.
	Validate() error
	// FitGram fits on the n×n kernel K with labels y (len n, Unlabeled
	// for rows without a label).
	FitGram(ctx context.Context, K mat.Symmetric, y []int) (Model, error)
}

// Progress reports long work: stage, units done, units in total. Learners
// and kernels accept an optional Progress field; nil is silent.
//
// A learner calls it from one goroutine at a time, also when its work
// runs in parallel (the calls are serialised, never concurrent), so the
// callback needs no locking of its own. Within a stage done increases
// and reaches total when the stage completes (total 0: no count known).
// The callback runs inside the fit: it should return quickly.
type Progress func(stage string, done, total int)
