package main

import (
	"fmt"

	"github.com/arbor-ml/arbor/svcluster"
)

// closestLevel says, for a warning, that level best of the sweep, the
// closest to k clusters (svcluster.Result.Closest), has not k, how far it
// is and which option would widen the search: a finer q step when the
// count jumps over k, a longer sweep when it stops short.
func closestLevel(h *svcluster.Hierarchy, best, k int, qfactor, maxErr, pmax float64) string {
	_, below, above := h.Closest(k)
	got := h.Levels[best].NClusters
	how := fmt.Sprintf("%d fewer", k-got)
	if got > k {
		how = fmt.Sprintf("%d more", got-k)
	}
	var hint string
	switch {
	case below && above:
		hint = fmt.Sprintf("the number of clusters jumps over %d between successive q: a finer step, --qfactor closer to 1 (now %g), may reach it", k, qfactor)
	case below:
		hint = fmt.Sprintf("the sweep stopped (%s) before reaching %d clusters: a longer one, a larger --max-error (now %g) or --pmax (now %g), may reach it", h.Stop, k, maxErr, pmax)
	default:
		hint = fmt.Sprintf("every level has more than %d clusters: a smaller --min-cluster or a larger --pmax (now %g) merges small ones into outliers", k, pmax)
	}
	return fmt.Sprintf("svc: no level of the sweep has exactly %d clusters; wrote level %d with %d (%s), the closest; %s", k, best, got, how, hint)
}
