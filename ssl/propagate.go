package ssl

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/propagate"
)

// Propagation is label propagation (paper 002 §3) on its own affinity over
// the points, or, with OnKernel, on the kernel matrix as affinity.
type Propagation struct {
	Settings propagate.Propagation
	OnKernel bool // use Problem.K (FitGram) instead of the points
	// UnreachableFirst gives points no label can reach the first class, as
	// scikit-learn does (its all-zero label distributions argmax to
	// classes_[0]); a warning lists them. It needs Settings.Unreachable =
	// propagate.UnreachableUnlabeled.
	UnreachableFirst bool
}

func (l Propagation) Name() string {
	return "lp_" + l.Settings.Affinity.String()
}
func (l Propagation) UsesKernel() bool { return l.OnKernel }

func (l Propagation) Transduce(ctx context.Context, p Problem) ([]int, error) {
	if p.Kt != nil {
		return nil, fmt.Errorf("ssl: label propagation is transductive: add new points to the data as unlabelled rows")
	}
	var res *propagate.Result
	var err error
	if l.OnKernel {
		res, err = l.Settings.FitGram(ctx, p.K, p.Y)
	} else {
		res, err = l.Settings.Fit(ctx, p.X, p.Y)
	}
	if err != nil {
		return nil, err
	}
	p.warn(res.Warnings)
	if l.UnreachableFirst && len(res.Unreachable) > 0 {
		p.warn([]error{fmt.Errorf("%d unreachable points given class 0, as scikit-learn does", len(res.Unreachable))})
	}
	return keepGiven(p.Y, res.Transduction, l.UnreachableFirst), nil
}

// Spreading is label spreading (Zhou et al. 2004), scikit-learn's
// LabelSpreading.
type Spreading struct {
	Settings         propagate.Spreading
	OnKernel         bool
	UnreachableFirst bool // as Propagation.UnreachableFirst
}

func (l Spreading) Name() string {
	return "spreading_" + l.Settings.Affinity.String()
}
func (l Spreading) UsesKernel() bool { return l.OnKernel }

func (l Spreading) Transduce(ctx context.Context, p Problem) ([]int, error) {
	if p.Kt != nil {
		return nil, fmt.Errorf("ssl: label spreading is transductive: add new points to the data as unlabelled rows")
	}
	var res *propagate.Result
	var err error
	if l.OnKernel {
		res, err = l.Settings.FitGram(ctx, p.K, p.Y)
	} else {
		res, err = l.Settings.Fit(ctx, p.X, p.Y)
	}
	if err != nil {
		return nil, err
	}
	p.warn(res.Warnings)
	if l.UnreachableFirst && len(res.Unreachable) > 0 {
		p.warn([]error{fmt.Errorf("%d unreachable points given class 0, as scikit-learn does", len(res.Unreachable))})
	}
	return keepGiven(p.Y, res.Transduction, l.UnreachableFirst), nil
}

// keepGiven returns the transduction with the given labels kept as they were
// (label spreading may relabel a labelled point; the papers score only the
// unlabelled rows). With first, rows left unlabelled (unreachable) get
// class 0.
func keepGiven(y, t []int, first bool) []int {
	out := append([]int(nil), t...)
	for i, c := range y {
		if c != dataset.Unlabeled {
			out[i] = c
		} else if first && out[i] == dataset.Unlabeled {
			out[i] = 0
		}
	}
	return out
}
