package hibust

import (
	"context"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// The learner contract (package learner).
var (
	_ learner.Model   = (*Model)(nil)
	_ learner.Learner = Learner{}
)

// Name is the learner's short name, "hibust".
func (c Classifier) Name() string { return "hibust" }

// Learner adapts Classifier to learner.Learner (FitGram returning the
// learner.Model interface).
type Learner struct{ Classifier }

// FitGram is Classifier.FitGram.
func (l Learner) FitGram(ctx context.Context, K mat.Symmetric, y []int) (learner.Model, error) {
	m, err := l.Classifier.FitGram(ctx, K, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}
