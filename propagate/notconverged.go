package propagate

import "fmt"

// notConverged is the warning of an iteration stopped by MaxIter. The
// tolerance is tested before each step, as scikit-learn does, so the last
// step's change can already be below Tol: the warning then says so rather
// than claiming Σ|ΔF| ≥ Tol.
func notConverged(maxIter int, change, tol float64) error {
	if change < tol {
		return fmt.Errorf("%w: MaxIter = %d reached before the test of the last step (its Σ|ΔF| = %.3g is below Tol = %g)", ErrNotConverged, maxIter, change, tol)
	}
	return fmt.Errorf("%w: MaxIter = %d reached with Σ|ΔF| = %.3g ≥ Tol = %g", ErrNotConverged, maxIter, change, tol)
}
