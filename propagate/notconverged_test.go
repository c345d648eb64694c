package propagate

import (
	"errors"
	"strings"
	"testing"
)

func TestNotConvergedMessage(t *testing.T) {
	for _, c := range []struct {
		change float64
		want   string
	}{
		{0.5, "Σ|ΔF| = 0.5 ≥ Tol = 0.001"},
		{0, "below Tol = 0.001"},
	} {
		err := notConverged(30, c.change, 1e-3)
		if !errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("change %g: %v, want ErrNotConverged containing %q", c.change, err, c.want)
		}
		if c.change < 1e-3 && strings.Contains(err.Error(), "≥") {
			t.Errorf("change %g: %v claims ≥ Tol", c.change, err)
		}
	}
}
