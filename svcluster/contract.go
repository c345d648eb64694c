package svcluster

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// Learner adapts Clusterer to learner.Learner: FitGram clusters the n rows
// of K (the labels y are not used: clustering is unsupervised) with
// Clusterer.FitGram, so Labelling must be Cone.
type Learner struct{ Clusterer }

var _ learner.Learner = Learner{}

// Name is "svc".
func (Learner) Name() string { return "svc" }

// Validate checks the settings that do not depend on N (C is checked
// against N by FitGram): kernel, labelling (Cone), non-negative Tol,
// CacheMB and MaxIter, C in (0, 1].
func (l Learner) Validate() error {
	c := l.Clusterer
	if !c.Kernel.valid() {
		return fmt.Errorf("%w: %v", ErrBadKernel, c.Kernel)
	}
	if c.Labelling != Cone {
		return fmt.Errorf("%w: the kernel-matrix entry labels by cone labelling only (Labelling: Cone)", ErrBadLabelling)
	}
	if !(c.C > 0 && c.C <= 1) {
		return fmt.Errorf("%w: C = %v", ErrBadC, c.C)
	}
	if c.Tol < 0 || c.CacheMB < 0 || c.MaxIter < 0 || math.IsNaN(c.Tol) || math.IsNaN(c.CacheMB) {
		return fmt.Errorf("%w: negative Tol, CacheMB or MaxIter", ErrBadParam)
	}
	return nil
}

// FitGram clusters the rows of K; y is not used but, if given, must have
// one entry per row.
func (l Learner) FitGram(ctx context.Context, K mat.Symmetric, y []int) (learner.Model, error) {
	if y != nil && K != nil && len(y) != K.SymmetricDim() {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrBadParam, len(y), K.SymmetricDim())
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	m, err := l.Clusterer.FitGram(ctx, K)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// FitWarnings returns the fit's warnings (learner.Warner).
func (m *Model) FitWarnings() []error { return m.Warnings }

var _ learner.Warner = (*Model)(nil)
