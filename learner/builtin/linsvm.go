package builtin

import (
	"context"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"gonum.org/v1/gonum/mat"
)

// linsvm: LIBLINEAR's linear SVM, scikit-learn's LinearSVC (squared
// hinge, one-versus-rest, a penalised intercept; dual coordinate descent
// in the primal weight space) on landmark features. It costs
// O(passes·ℓ·r) for ℓ labelled rows where the C-SVC with the linear
// kernel on the features grows with ℓ² and more: the choice for many
// labelled rows. With the linear kernel and as many landmarks as the
// data's rank it is LinearSVC on the points themselves (the SVM is
// invariant to that rotation).
func init() {
	learner.Register(learner.Entry{
		Name: "linsvm", Help: "linsvm (LIBLINEAR's linear SVM, scikit-learn's LinearSVC, on the landmark features)", Rank: 70, LandmarksOnly: true,
		Flags: []learner.Flag{learner.CFlag, learner.TolFlag, learner.MaxIterFlag},
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			c, err := learner.PositiveC(v)
			if err != nil {
				return nil, err
			}
			s := linsvm.Classifier{C: c, Tol: v.Float("tol"), MaxIter: v.Int("max-iter")}
			if err := s.Validate(); err != nil {
				return nil, learner.Settingsf("--learner linsvm: %v", err)
			}
			return []learner.Learner{onFeatures{s}}, nil
		},
		Models: map[string]learner.ModelCodec{"linsvm": learner.Codec(linsvm.Load)},
	})
}

// onFeatures is linsvm as a learner.Learner: its settings are found with
// learner.As; FitGram returns linsvm.ErrNoGram.
type onFeatures struct{ c linsvm.Classifier }

func (l onFeatures) Name() string    { return "linsvm" }
func (l onFeatures) Validate() error { return l.c.Validate() }
func (l onFeatures) Unwrap() any     { return l.c }
func (l onFeatures) FitGram(context.Context, mat.Symmetric, []int) (learner.Model, error) {
	return nil, linsvm.ErrNoGram
}
