package clustering

import (
	"slices"
	"testing"
)

// TestSizes counts each cluster, largest first, and skips negative labels;
// an empty cluster below the largest label counts 0.
func TestSizes(t *testing.T) {
	for _, c := range []struct{ labels, want []int }{
		{[]int{0, 1, 1, 2, 1, -1}, []int{3, 1, 1}},
		{[]int{3, 0}, []int{1, 1, 0, 0}},
		{[]int{-1, -1}, []int{}},
		{nil, []int{}},
	} {
		if got := Sizes(c.labels); !slices.Equal(got, c.want) {
			t.Errorf("Sizes(%v) = %v, want %v", c.labels, got, c.want)
		}
	}
}
