package ssl

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
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
	// classes_[0]); a warning counts them. It needs Settings.Unreachable =
	// propagate.UnreachableUnlabeled.
	UnreachableFirst bool
}

func (l Propagation) Name() string     { return "lp_" + l.Settings.Affinity.String() }
func (l Propagation) UsesKernel() bool { return l.OnKernel }
func (l Propagation) Transduce(ctx context.Context, p Problem) ([]int, error) {
	return transduce(ctx, p, l.Settings, l.OnKernel, l.UnreachableFirst)
}

// Spreading is label spreading (Zhou et al. 2004), scikit-learn's
// LabelSpreading.
type Spreading struct {
	Settings         propagate.Spreading
	OnKernel         bool
	UnreachableFirst bool // as Propagation.UnreachableFirst
}

func (l Spreading) Name() string     { return "spreading_" + l.Settings.Affinity.String() }
func (l Spreading) UsesKernel() bool { return l.OnKernel }
func (l Spreading) Transduce(ctx context.Context, p Problem) ([]int, error) {
	return transduce(ctx, p, l.Settings, l.OnKernel, l.UnreachableFirst)
}

// graphLearner is what propagate.Propagation and propagate.Spreading share.
type graphLearner interface {
	Fit(ctx context.Context, X mat.Matrix, y []int) (*propagate.Result, error)
	FitGram(ctx context.Context, K mat.Symmetric, y []int) (*propagate.Result, error)
}

func transduce(ctx context.Context, p Problem, g graphLearner, onKernel, first bool) ([]int, error) {
	if p.Kt != nil {
		return nil, fmt.Errorf("ssl: label propagation and spreading are transductive: add new points to the data as unlabelled rows")
	}
	var res *propagate.Result
	var err error
	if onKernel {
		res, err = g.FitGram(ctx, p.K, p.Y)
	} else {
		res, err = g.Fit(ctx, p.X, p.Y)
	}
	if err != nil {
		return nil, err
	}
	p.warn(res.Warnings)
	if first && len(res.Unreachable) > 0 {
		p.warn([]error{fmt.Errorf("%d unreachable points given class 0, as scikit-learn does", len(res.Unreachable))})
	}
	// Keep the given labels (spreading may relabel a labelled point; the
	// papers score only the unlabelled rows); with first, unreachable rows
	// get class 0.
	out := append([]int(nil), res.Transduction...)
	for i, c := range p.Y {
		if c != dataset.Unlabeled {
			out[i] = c
		} else if first && out[i] == dataset.Unlabeled {
			out[i] = 0
		}
	}
	return out, nil
}
