package hibust

import (
	"context"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// The learner contract (package learner).
var (
	_ learner.Model   = (*Model)(nil)
	_ learner.Learner = adapter{}
)

// Name is the learner's short name, "hibust".
func (c Classifier) Name() string { return "hibust" }

// Learner adapts the settings to learner.Learner.
func (c Classifier) Learner() learner.Learner { return adapter{c} }

type adapter struct{ c Classifier }

func (a adapter) Name() string    { return a.c.Name() }
func (a adapter) Validate() error { return a.c.Validate() }
func (a adapter) FitGram(ctx context.Context, K mat.Symmetric, y []int) (learner.Model, error) {
	m, err := a.c.FitGram(ctx, K, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}
