package learner

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// GramFitter is a learner's settings value: it checks itself and fits its
// own concrete model M from the kernel over all training rows.
type GramFitter[M Model] interface {
	Validate() error
	FitGram(ctx context.Context, K mat.Symmetric, y []int) (M, error)
}

// PointFitter is a learner that fits on the points themselves (its own
// affinity, such as label propagation on a kNN graph) instead of a kernel.
type PointFitter interface {
	FitPoints(ctx context.Context, X *mat.Dense, y []int) (Model, error)
}

// Warner is a model that reports the non-fatal problems of its fit
// (non-convergence, points no label reaches).
type Warner interface {
	FitWarnings() []error
}

// LabeledFitter is a learner that reads only the labelled rows' kernel
// values (and those of other rows against them): a kernel whose
// parameters come from the data, such as rbf:scale, is then resolved from
// the labelled rows, as scikit-learn's SVC(gamma="scale") fitted on them.
type LabeledFitter interface {
	FitsLabeledRows()
}

// Transductive is a learner whose fit labels its training rows from all
// of them (label propagation and spreading); its model labels new points
// by an out-of-sample rule from their kernel (affinity) rows, without
// refitting.
type Transductive interface {
	LabelsTrainingRowsOnly()
}

// Adapter is the one adapter from a settings value S (whose FitGram
// returns its concrete model M) to Learner. Its capabilities are those of
// S: As finds them.
type Adapter[M Model, S GramFitter[M]] struct {
	Label    string // the learner's name in tables, e.g. "svm", "knn3"
	Settings S
}

// Adapt returns settings s as a Learner named name.
func Adapt[M Model, S GramFitter[M]](name string, s S) Adapter[M, S] {
	return Adapter[M, S]{Label: name, Settings: s}
}

// Name returns the learner's name.
func (a Adapter[M, S]) Name() string { return a.Label }

// Validate checks the settings.
func (a Adapter[M, S]) Validate() error { return a.Settings.Validate() }

// FitGram fits the settings on K and y.
func (a Adapter[M, S]) FitGram(ctx context.Context, K mat.Symmetric, y []int) (Model, error) {
	m, err := a.Settings.FitGram(ctx, K, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Unwrap returns the settings value.
func (a Adapter[M, S]) Unwrap() any { return a.Settings }

// As returns l, or the settings it adapts, as T when it implements T:
// how consumers find a learner's capabilities (PointFitter,
// LabeledFitter, Transductive, or a package's own).
func As[T any](l Learner) (T, bool) {
	if t, ok := l.(T); ok {
		return t, true
	}
	if u, ok := l.(interface{ Unwrap() any }); ok {
		t, ok := u.Unwrap().(T)
		return t, ok
	}
	var zero T
	return zero, false
}

// Warnings returns the non-fatal problems a model reports (Warner), nil
// when it reports none.
func Warnings(m Model) []error {
	if w, ok := m.(Warner); ok {
		return w.FitWarnings()
	}
	return nil
}

// PointSettings is a settings value that also fits on the points
// themselves (its own affinity over them).
type PointSettings[M Model] interface {
	GramFitter[M]
	Fit(ctx context.Context, X mat.Matrix, y []int) (M, error)
}

// PointAdapter is Adapter for settings that fit on the points: a
// PointFitter, which consumers fit with FitPoints instead of a kernel.
type PointAdapter[M Model, S PointSettings[M]] struct {
	Adapter[M, S]
}

// AdaptPoints returns settings s as a PointFitter Learner named name.
func AdaptPoints[M Model, S PointSettings[M]](name string, s S) PointAdapter[M, S] {
	return PointAdapter[M, S]{Adapt(name, s)}
}

// FitPoints fits the settings on the points X and labels y.
func (a PointAdapter[M, S]) FitPoints(ctx context.Context, X *mat.Dense, y []int) (Model, error) {
	m, err := a.Settings.Fit(ctx, X, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Run are facts of one run that some settings take: the classes the data
// have (so a class without a labelled row is an error rather than a class
// never predicted), a progress display, and whether probabilities will be
// asked for.
type Run struct {
	Classes  []int
	Progress Progress
	// Proba says the caller will ask the model for class probabilities
	// (Prober): settings that fit what they need only on request (the
	// SVM's Platt sigmoids) fit it.
	Proba bool
}

// WithRun returns l with run facts given to its settings when they take
// them (a method WithRun(Run) S of settings S); l unchanged otherwise.
func WithRun(l Learner, r Run) Learner {
	if w, ok := l.(interface{ WithRun(Run) Learner }); ok {
		return w.WithRun(r)
	}
	return l
}

// WithRun returns a with its settings' WithRun(r) applied, if they have it.
func (a Adapter[M, S]) WithRun(r Run) Learner {
	if w, ok := any(a.Settings).(interface{ WithRun(Run) S }); ok {
		a.Settings = w.WithRun(r)
	}
	return a
}

// WithRun returns a with its settings' WithRun(r) applied, if they have it.
func (a PointAdapter[M, S]) WithRun(r Run) Learner {
	if w, ok := any(a.Settings).(interface{ WithRun(Run) S }); ok {
		a.Settings = w.WithRun(r)
	}
	return a
}
