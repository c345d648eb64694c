package kernel

import "testing"

// TestCenterBands: the bands of Center's mean pass partition 0..n in
// increasing order, whatever n.
func TestCenterBands(t *testing.T) {
	for _, n := range []int{1, 2, 3, 63, 64, 65, 128, 700, 1000, 8000} {
		b := centerBandsOf(n)
		if b[0] != 0 || b[len(b)-1] != n || len(b) > 17 {
			t.Fatalf("n=%d: bands %v", n, b)
		}
		for k := 1; k < len(b); k++ {
			if b[k] <= b[k-1] {
				t.Fatalf("n=%d: bands not increasing: %v", n, b)
			}
		}
	}
}
