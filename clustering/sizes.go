package clustering

import (
	"slices"
)

// Sizes returns the number of rows in each cluster of labels, largest
// first: K entries for the clusters 0..K−1, K the largest label plus one
// (0 when no label is ≥ 0); a negative label is no cluster.
func Sizes(labels []int) []int {
	k := 0
	for _, c := range labels {
		k = max(k, c+1)
	}
	s := make([]int, k)
	for _, c := range labels {
		if c >= 0 {
			s[c]++
		}
	}
	slices.SortFunc(s, func(a, b int) int { return b - a })
	return s
}
