package kernel

import (
	"math"
	"testing"
)

// TestExpNeg: expNeg agrees with math.Exp to 1 ulp-level (4e-16 relative)
// on [-750, 0] and passes special values through.
func TestExpNeg(t *testing.T) {
	worst := 0.0
	for i := 0; i <= 3_000_000; i++ {
		x := -float64(i) * 0.00025
		a, b := math.Exp(x), expNeg(x)
		if d := math.Abs(a-b) / a; d > worst {
			worst = d
		}
	}
	if worst > 4.5e-16 {
		t.Errorf("worst relative difference %v", worst)
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -708, -709, -745, -746, math.Inf(-1), 1, math.NaN()} {
		a, b := math.Exp(x), expNeg(x)
		if !(a == b || (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= 4.5e-16*a) {
			t.Errorf("expNeg(%v) = %v, math.Exp %v", x, b, a)
		}
	}
}
