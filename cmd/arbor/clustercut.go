package main

import (
	"flag"
	"math"

	"github.com/arbor-ml/arbor/hclust"
)

const clusterCriterionUsage = "how the tree is cut into flat clusters, as SciPy's fcluster criterion: " +
	"nclusters (exactly --clusters N: the last N-1 merges undone, tied heights split in linkage order; the default with --clusters), " +
	"maxclust (at most --clusters N: the lowest height that gives no more, fewer where heights tie), " +
	"distance (no merge above --height H; the default with --height), " +
	"inconsistent (no inconsistency coefficient above --threshold T, statistics over --depth levels), " +
	"maxclust_monocrit (at most --clusters N by the largest inconsistency coefficient in each subtree), " +
	"monocrit (that largest coefficient at most --threshold T)"

// clusterCut turns the cut flags into a cut, or nil when none is asked for.
func clusterCut(fs *flag.FlagSet, criterion string, k int, height, threshold float64, depth int) (*hclust.Cut, error) {
	var c hclust.Criterion
	switch {
	case criterion != "":
		var err error
		if c, err = hclust.ParseCriterion(criterion); err != nil {
			return nil, usageError("--criterion: %v", err)
		}
	case k > 0:
		c = hclust.NClusters
	case !math.IsNaN(height):
		c = hclust.Distance
	case !math.IsNaN(threshold):
		return nil, usageError("--threshold is the cut of --criterion inconsistent or monocrit: give one of them")
	default:
		if flagGiven(fs, "depth") {
			return nil, usageError("--depth needs --criterion inconsistent, monocrit or maxclust_monocrit")
		}
		return nil, nil
	}
	cut := &hclust.Cut{Criterion: c, K: k, T: math.NaN(), Depth: depth}
	usesDepth := c == hclust.Inconsistent || c == hclust.Monocrit || c == hclust.MaxClustMonocrit
	if flagGiven(fs, "depth") && !usesDepth {
		return nil, usageError("--depth is the inconsistency statistics' depth: --criterion %s does not use it", c)
	}
	if depth < 1 {
		return nil, usageError("--depth must be at least 1, got %d", depth)
	}
	switch {
	case c.Counted():
		if k <= 0 {
			return nil, usageError("--criterion %s needs --clusters N", c)
		}
		if !math.IsNaN(height) || !math.IsNaN(threshold) {
			return nil, usageError("--criterion %s cuts into --clusters N: --height and --threshold do not apply", c)
		}
	case c == hclust.Distance:
		if math.IsNaN(height) {
			return nil, usageError("--criterion distance needs --height H")
		}
		if k > 0 || !math.IsNaN(threshold) {
			return nil, usageError("--criterion distance cuts at --height H: --clusters and --threshold do not apply")
		}
		cut.T = height
	default:
		if math.IsNaN(threshold) {
			return nil, usageError("--criterion %s needs --threshold T (an inconsistency coefficient)", c)
		}
		if k > 0 || !math.IsNaN(height) {
			return nil, usageError("--criterion %s cuts at --threshold T: --clusters and --height do not apply", c)
		}
		cut.T = threshold
	}
	return cut, nil
}
