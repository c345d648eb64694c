package modelselect

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
)

// newFitter returns how candidate c (learner ln) is fitted and scored.
// Breakeven needs class scores: kNN scores by the soft kNN of its
// neighbours (ssl.SoftKNN), label propagation by its harmonic scores on
// the kernel (ssl.SetPropagation, z-scored per class), as arbor eval
// --metric bep does; other learners are an ErrScoring error.
func newFitter(scoring string, c Candidate, ln learner.Learner) (fitter, error) {
	if scoring == Accuracy {
		return accuracyFit{ln}, nil
	}
	var s ssl.SetScorer
	if k, ok := learner.As[knn.Classifier](ln); ok {
		s = ssl.SoftKNN{Settings: k}
	} else if p, ok := learner.As[propagate.Propagation](ln); ok {
		if p.Affinity.Kind == "" {
			p.Affinity.Kind = propagate.Precomputed
		}
		p.Unreachable = propagate.UnreachableUnlabeled
		s = ssl.SetPropagation{Standardize: true, Settings: p}
	} else {
		return nil, fmt.Errorf("%w: %s has no class scores for %s (knn and lp have)", ErrScoring, c.Learner, scoring)
	}
	return bepFit{s: s, macro: scoring == BreakevenMacro}, nil
}

// scoresNeedKernel reports whether the scoring fits ln on the kernel even
// when it has an affinity of its own (label propagation's breakeven
// scores come from the kernel matrix, its affinity taken on the
// kernel-induced distances).
func scoresNeedKernel(scoring string, ln learner.Learner) bool {
	if scoring == Accuracy {
		return false
	}
	_, ok := learner.As[propagate.Propagation](ln)
	return ok
}

// bepFit scores a learner's class scores by their breakeven point.
type bepFit struct {
	s     ssl.SetScorer
	macro bool
}

func (b bepFit) score(ctx context.Context, t task) (float64, []error, error) {
	if t.K == nil {
		return math.NaN(), nil, fmt.Errorf("%s needs a kernel for its class scores", b.s.Name())
	}
	shown := make([][]int, len(t.Sets))
	for i, c := range t.TrainY {
		if c != learner.Unlabeled {
			shown[i] = t.Sets[i]
		}
	}
	var warns []error
	sc, err := b.s.ScoreSets(ctx, ssl.SetProblem{X: t.X, K: t.K, Sets: shown, Classes: t.Classes, Warn: func(err error) { warns = append(warns, err) }})
	if err != nil {
		return math.NaN(), warns, err
	}
	sub := mat.NewDense(len(t.Fold), t.Classes, nil)
	relevant := make([][]int, len(t.Fold))
	for a, r := range t.Fold {
		copy(sub.RawRowView(a), sc.RawRowView(r))
		relevant[a] = t.Sets[r]
	}
	bep, err := metrics.Breakeven(sub, relevant)
	if err != nil {
		return math.NaN(), warns, err
	}
	if b.macro {
		return bep.Macro, warns, nil
	}
	return bep.Micro, warns, nil
}
