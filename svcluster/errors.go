package svcluster

import "errors"

// Sentinel errors, usable with errors.Is. Returned errors wrap them with a
// message saying which value was wrong and where.
var (
	ErrBadQ         = errors.New("svcluster: kernel width q must be positive and finite")
	ErrBadC         = errors.New("svcluster: soft margin C must lie in [1/N, 1]")
	ErrTooFewRows   = errors.New("svcluster: need at least 2 points")
	ErrNonFinite    = errors.New("svcluster: data contain NaN or Inf")
	ErrEmpty        = errors.New("svcluster: empty data")
	ErrBadParam     = errors.New("svcluster: invalid setting")
	ErrAllOutliers  = errors.New("svcluster: every point is a bounded support vector (C = 1/N): no cluster interior")
	ErrBadKernel    = errors.New("svcluster: unknown kernel")
	ErrBadLabelling = errors.New("svcluster: unknown labelling")
)
