package clustering

import "testing"

// TestSizesText: up to 12 sizes as they are; more, the 10 largest and
// how many more.
func TestSizesText(t *testing.T) {
	if got := SizesText([]int{3, 1, 2}); got != "[3 1 2]" {
		t.Errorf("3 sizes: %s", got)
	}
	sizes := make([]int, 228)
	for i := range sizes {
		sizes[i] = 1
	}
	sizes[5], sizes[100] = 2772, 2
	if got := SizesText(sizes); got != "[2772 2 1 1 1 1 1 1 1 1 … 218 more]" {
		t.Errorf("228 sizes: %s", got)
	}
	if got := SizesText(sizes[:12]); got != "[1 1 1 1 1 2772 1 1 1 1 1 1]" {
		t.Errorf("12 sizes: %s", got)
	}
}
