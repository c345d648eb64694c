package hibust

import "errors"

// Sentinel errors, usable with errors.Is. Returned errors wrap them with a
// message that says what and where.
var (
	// ErrBadParam: a setting out of range (Restarts < 1, θ outside (0, 1],
	// MaxIter < 0, RouterC ≤ 0, a nil kernel for Fit).
	ErrBadParam = errors.New("hibust: bad parameter")
	// ErrShape: K not square, len(y) ≠ n, Kt with the wrong column count.
	ErrShape = errors.New("hibust: shape mismatch")
	// ErrEmpty: no rows.
	ErrEmpty = errors.New("hibust: empty input")
	// ErrNonFinite: NaN or ±Inf in K or Kt.
	ErrNonFinite = errors.New("hibust: non-finite value")
	// ErrBadLabel: fewer than two classes among the labelled rows, a label
	// below Unlabeled, or (for Classes given explicitly) a class without a
	// labelled row.
	ErrBadLabel = errors.New("hibust: bad labels")
	// ErrFormat: Load met a malformed or unsupported model file.
	ErrFormat = errors.New("hibust: model format")
	// ErrNotConverged: an MCCK run stopped at MaxIter (reported in
	// Model.Warnings, not returned).
	ErrNotConverged = errors.New("hibust: MCCK not converged")
)
