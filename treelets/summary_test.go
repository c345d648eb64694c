package treelets

import "testing"

// TestSummary: every item, then a sample of 5 of 8.
func TestSummary(t *testing.T) {
	s := Sample{Settings: Settings{Lambda: 0.5, Similarity: Signed}, Seed: 3, Extend: ExtendKNN}
	all := &SampleModel{Rows: []int{0, 1, 2, 3, 4}, Model: &Model{Levels: make([]Level, 4)}}
	if got, want := all.Summary(s, 5), "treelets   signed similarity, λ = 0.5; 4 levels"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	if got, want := all.Summary(s, 8), "treelets   signed similarity, λ = 0.5; 4 levels on a sample of 5 (seed 3), knn extension to the other 3"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}
