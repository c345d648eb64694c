package metrics

import (
	"slices"
	"testing"
)

// TestLabelled keeps the labelled rows' pairs in row order.
func TestLabelled(t *testing.T) {
	y, p := Labelled([]int{1, -1, 0, 2, -1}, []int{5, 6, 7, 8, 9})
	if !slices.Equal(y, []int{1, 0, 2}) || !slices.Equal(p, []int{5, 7, 8}) {
		t.Errorf("Labelled: %v %v", y, p)
	}
	if y, p := Labelled(nil, nil); y != nil || p != nil {
		t.Errorf("Labelled(nil): %v %v", y, p)
	}
}
