package kernel

import "errors"

// Sentinel errors, usable with errors.Is. Returned errors wrap them with a
// message that says what and where.
var (
	// ErrBadParam reports an invalid kernel parameter (gamma ≤ 0, degree < 1, ...).
	ErrBadParam = errors.New("kernel: bad parameter")
	// ErrShape reports inconsistent matrix shapes (feature counts, dst size, ...).
	ErrShape = errors.New("kernel: shape mismatch")
	// ErrEmpty reports a matrix with no rows or no columns.
	ErrEmpty = errors.New("kernel: empty input")
	// ErrNonFinite reports a NaN or ±Inf entry in an input.
	ErrNonFinite = errors.New("kernel: non-finite value")
	// ErrNotSymmetric reports a matrix that should be symmetric but is not.
	ErrNotSymmetric = errors.New("kernel: matrix not symmetric")
	// ErrEigen reports that the symmetric eigendecomposition did not converge.
	ErrEigen = errors.New("kernel: eigendecomposition failed")
	// ErrUnknownKernel reports a kernel specification that does not parse.
	ErrUnknownKernel = errors.New("kernel: unknown kernel specification")
)
