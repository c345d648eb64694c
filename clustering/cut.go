package clustering

import (
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/hclust"
)

// CutOptions are a flat cut of the tree as arbor cluster takes it: a
// criterion by name (hclust.ParseCriterion; "" for nclusters with
// Clusters, distance with Height) and the arguments given.
type CutOptions struct {
	Criterion string
	// Clusters is the number of clusters of the counted criteria (0: not
	// given).
	Clusters int
	// Height is the cut of distance, Threshold the inconsistency
	// coefficient of inconsistent and monocrit (NaN: not given).
	Height, Threshold float64
	// Depth is the inconsistency statistics' depth (SciPy's); DepthSet
	// says it was given.
	Depth    int
	DepthSet bool
}

// Cut is the cut the options ask for, nil when they ask for none. Its
// errors, which name the options as arbor cluster's flags, refuse an
// unknown criterion, a criterion without its argument, and arguments or
// a depth the criterion does not use.
func (o CutOptions) Cut() (*hclust.Cut, error) {
	var c hclust.Criterion
	switch {
	case o.Criterion != "":
		var err error
		if c, err = hclust.ParseCriterion(o.Criterion); err != nil {
			return nil, fmt.Errorf("--criterion: %w", err)
		}
	case o.Clusters > 0:
		c = hclust.NClusters
	case !math.IsNaN(o.Height):
		c = hclust.Distance
	case !math.IsNaN(o.Threshold):
		return nil, fmt.Errorf("--threshold is the cut of --criterion inconsistent or monocrit: give one of them")
	default:
		if o.DepthSet {
			return nil, fmt.Errorf("--depth needs --criterion inconsistent, monocrit or maxclust_monocrit")
		}
		return nil, nil
	}
	cut := &hclust.Cut{Criterion: c, K: o.Clusters, T: math.NaN(), Depth: o.Depth}
	usesDepth := c == hclust.Inconsistent || c == hclust.Monocrit || c == hclust.MaxClustMonocrit
	if o.DepthSet && !usesDepth {
		return nil, fmt.Errorf("--depth is the inconsistency statistics' depth: --criterion %s does not use it", c)
	}
	if o.Depth < 1 {
		return nil, fmt.Errorf("--depth must be at least 1, got %d", o.Depth)
	}
	switch {
	case c.Counted():
		if o.Clusters <= 0 {
			return nil, fmt.Errorf("--criterion %s needs --clusters N", c)
		}
		if !math.IsNaN(o.Height) || !math.IsNaN(o.Threshold) {
			return nil, fmt.Errorf("--criterion %s cuts into --clusters N: --height and --threshold do not apply", c)
		}
	case c == hclust.Distance:
		if math.IsNaN(o.Height) {
			return nil, fmt.Errorf("--criterion distance needs --height H")
		}
		if o.Clusters > 0 || !math.IsNaN(o.Threshold) {
			return nil, fmt.Errorf("--criterion distance cuts at --height H: --clusters and --threshold do not apply")
		}
		cut.T = o.Height
	default:
		if math.IsNaN(o.Threshold) {
			return nil, fmt.Errorf("--criterion %s needs --threshold T (an inconsistency coefficient)", c)
		}
		if o.Clusters > 0 || !math.IsNaN(o.Height) {
			return nil, fmt.Errorf("--criterion %s cuts at --threshold T: --clusters and --height do not apply", c)
		}
		cut.T = o.Threshold
	}
	return cut, nil
}
