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
	return keepGiven(p.Y, res.Transduction), nil
}

// Spreading is label spreading (Zhou et al. 2004), scikit-learn's
// LabelSpreading.
type Spreading struct {
	Settings propagate.Spreading
	OnKernel bool
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
	return keepGiven(p.Y, res.Transduction), nil
}

// keepGiven returns the transduction with the given labels kept as they were
// (label spreading may relabel a labelled point; the papers score only the
// unlabelled rows).
func keepGiven(y, t []int) []int {
	out := append([]int(nil), t...)
	for i, c := range y {
		if c != dataset.Unlabeled {
			out[i] = c
		}
	}
	return out
}
