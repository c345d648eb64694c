package main

import (
	"fmt"
	"slices"
	"strings"
)

// sizesText prints cluster sizes for a summary line: all of them up to 12
// clusters, else the 10 largest and how many more (an svc run at a large q
// printed 228 sizes, 226 of them 1, on one line).
func sizesText(sizes []int) string {
	if len(sizes) <= 12 {
		return fmt.Sprint(sizes)
	}
	s := slices.Clone(sizes)
	slices.SortFunc(s, func(a, b int) int { return b - a })
	return fmt.Sprintf("%s … %d more]", strings.TrimSuffix(fmt.Sprint(s[:10]), "]"), len(s)-10)
}
