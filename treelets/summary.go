package treelets

import "fmt"

// Summary describes the run of s on n items that gave r, on one line: the
// pair rule, λ and the number of levels and, on a sample, its size and
// seed and the extension to the other items.
func (r *SampleModel) Summary(s Sample, n int) string {
	t := fmt.Sprintf("treelets   %s similarity, λ = %g; %d levels", s.Similarity, s.Lambda, len(r.Model.Levels))
	if m := len(r.Rows); m < n {
		t += fmt.Sprintf(" on a sample of %d (seed %d), %s extension to the other %d", m, s.Seed, s.Extend, n-m)
	}
	return t
}
