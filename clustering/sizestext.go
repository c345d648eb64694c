package clustering

import (
	"fmt"
	"slices"
	"strings"
)

// SizesText writes cluster sizes for a summary line: all of them up to 12
// clusters, else the 10 largest and how many more (a support vector
// clustering at a large q has hundreds of clusters, most of one row).
func SizesText(sizes []int) string {
	if len(sizes) <= 12 {
		return fmt.Sprint(sizes)
	}
	s := slices.Clone(sizes)
	slices.SortFunc(s, func(a, b int) int { return b - a })
	return fmt.Sprintf("%s … %d more]", strings.TrimSuffix(fmt.Sprint(s[:10]), "]"), len(s)-10)
}
