package ssl

import (
	"context"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

// Propagation is label propagation (paper 002 §3) on its own affinity over
// the points, or, with OnKernel, on the kernel matrix as affinity.
type Propagation struct {
	Settings propagate.Propagation
	OnKernel bool // use Problem.K (FitGram) instead of the points
	// UnreachableFirst gives points no label can reach the first class, as
	// scikit-learn does (its all-zero label distributions argmax to
	// classes_[0]); a warning counts them (Settings.Unreachable =
	// propagate.UnreachableFirst).
	UnreachableFirst bool
}

func (l Propagation) settings() propagate.Propagation {
	s := l.Settings
	if l.UnreachableFirst {
		s.Unreachable = propagate.UnreachableFirst
	}
	return s
}

func (l Propagation) Name() string       { return "lp_" + l.Settings.Affinity.String() }
func (l Propagation) UsesKernel() bool   { return l.OnKernel }
func (l Propagation) Transductive() bool { return true }
func (l Propagation) Validate() error    { return l.settings().Validate() }
func (l Propagation) FitGram(ctx context.Context, K mat.Symmetric, y []int) (learner.Model, error) {
	return propagate.PropagationLearner{Propagation: l.settings()}.FitGram(ctx, K, y)
}
func (l Propagation) Fit(ctx context.Context, X *mat.Dense, y []int) (learner.Model, error) {
	m, err := l.settings().Fit(ctx, X, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Transduce is the package-level Transduce without the model.
func (l Propagation) Transduce(ctx context.Context, p Problem) ([]int, error) {
	return labels(ctx, l, p)
}

// Spreading is label spreading (Zhou et al. 2004), scikit-learn's
// LabelSpreading.
type Spreading struct {
	Settings         propagate.Spreading
	OnKernel         bool
	UnreachableFirst bool // as Propagation.UnreachableFirst
}

func (l Spreading) settings() propagate.Spreading {
	s := l.Settings
	if l.UnreachableFirst {
		s.Unreachable = propagate.UnreachableFirst
	}
	return s
}

func (l Spreading) Name() string       { return "spreading_" + l.Settings.Affinity.String() }
func (l Spreading) UsesKernel() bool   { return l.OnKernel }
func (l Spreading) Transductive() bool { return true }
func (l Spreading) Validate() error    { return l.settings().Validate() }
func (l Spreading) FitGram(ctx context.Context, K mat.Symmetric, y []int) (learner.Model, error) {
	return propagate.SpreadingLearner{Spreading: l.settings()}.FitGram(ctx, K, y)
}
func (l Spreading) Fit(ctx context.Context, X *mat.Dense, y []int) (learner.Model, error) {
	m, err := l.settings().Fit(ctx, X, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Transduce is the package-level Transduce without the model.
func (l Spreading) Transduce(ctx context.Context, p Problem) ([]int, error) {
	return labels(ctx, l, p)
}
