package svm

import "errors"

// Sentinel errors, usable with errors.Is. Returned errors wrap them with a
// message that says what and where.
var (
	// ErrBadParam: a setting out of range (C ≤ 0, Tol < 0, a weight ≤ 0,
	// SVDD C < 1/N, a nil kernel, ...).
	ErrBadParam = errors.New("svm: bad parameter")
	// ErrEmpty: no training rows.
	ErrEmpty = errors.New("svm: empty input")
	// ErrShape: matrix or label sizes that do not fit together.
	ErrShape = errors.New("svm: shape mismatch")
	// ErrNonFinite: NaN or ±Inf in X, K or a kernel row.
	ErrNonFinite = errors.New("svm: non-finite value")
	// ErrNotSymmetric: the backing store of a *mat.SymDense holds a lower
	// triangle that differs from the upper one (typically
	// mat.NewSymDense(n, data) on a non-symmetric data slice).
	ErrNotSymmetric = errors.New("svm: kernel matrix not symmetric")
	// ErrOneClass: the labels contain a single class.
	ErrOneClass = errors.New("svm: training data in only one class")
	// ErrSingletonClass: a class has exactly one training point (allowed
	// with Classifier.AllowSingleton).
	ErrSingletonClass = errors.New("svm: class with a single training point")
	// ErrBadLabel: a negative label (dataset.Unlabeled is -1).
	ErrBadLabel = errors.New("svm: bad label")
	// ErrNoKernel: Predict/Decision on points for a model trained on a
	// precomputed Gram matrix (use the Gram variants), or the reverse
	// situation of a point model without stored support vectors.
	ErrNoKernel = errors.New("svm: model has no point kernel")
	// ErrNoProbability: Probabilities on a model fitted without
	// Probability.
	ErrNoProbability = errors.New("svm: model has no probability estimates")
	// ErrNotConverged: a solve stopped at MaxIter (reported in
	// Model.Warnings, not returned).
	ErrNotConverged = errors.New("svm: not converged")
	// ErrFormat: Load met a malformed or unsupported model file, or Save a
	// kernel it cannot describe.
	ErrFormat = errors.New("svm: model format")
)
