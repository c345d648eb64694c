package main

import (
	"errors"
	"strings"

	"github.com/arbor-ml/arbor/propagate"
)

// warnText is a learner warning as printed, with what to do when the
// iterative label propagation or spreading stopped at its iteration limit
// (cov-like data with 70 labels in 30,000 rows scored 14.6 % that way, and
// the warning did not say that --method closed converges).
func warnText(err error) string {
	s := err.Error()
	if errors.Is(err, propagate.ErrNotConverged) && strings.Contains(s, "MaxIter =") && strings.Contains(s, "reached") {
		s += " (raise --max-iter; for lp, --method closed solves for the fixed point directly)"
	}
	return s
}
