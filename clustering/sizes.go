package clustering

import (
	"fmt"
	"io"
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

// WriteSummary writes two lines on the tree r fitted with s: the linkage
// on its distances (with the graph and its component joins for Graph
// distances), then the range of merge heights and, when s asks for it,
// the cophenetic correlation.
func (r *Result) WriteSummary(w io.Writer, s Settings) error {
	dist := s.Distance
	if dist == "" {
		dist = Euclidean
	}
	fmt.Fprintf(w, "linkage    %s on %s distances", s.Linkage, dist)
	if r.Joins >= 0 {
		fmt.Fprintf(w, " (%s graph, %d component joins)", s.graphSpec(), r.Joins)
	}
	m := r.Tree.Merges
	fmt.Fprintf(w, "\nheights    %.6g … %.6g", m[0].Height, m[len(m)-1].Height)
	if s.Cophenetic {
		fmt.Fprintf(w, "; cophenetic correlation %.4f", r.Cophenetic)
	}
	_, err := fmt.Fprintln(w)
	return err
}
