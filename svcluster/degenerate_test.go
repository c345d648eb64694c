package svcluster

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDegenerateData: identical points, two points and a line never panic
// and give sensible clusters.
func TestDegenerateData(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		want int
	}{
		{"identical", mat.NewDense(5, 2, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}), 1},
		{"two points", mat.NewDense(2, 2, []float64{0, 0, 10, 10}), 2},
		{"two copies", mat.NewDense(2, 3, []float64{1, 2, 3, 1, 2, 3}), 1},
	} {
		for _, lab := range []Labelling{Naive, Complete, SVGraph, KNNGraph, Cone} {
			r, err := Clusterer{Q: 1, C: 1, Labelling: lab}.Fit(ctx, tc.X)
			if err != nil {
				t.Errorf("%s %v: %v", tc.name, lab, err)
				continue
			}
			if r.NClusters != tc.want {
				t.Errorf("%s %v: %d clusters, want %d", tc.name, lab, r.NClusters, tc.want)
			}
		}
		h, err := Sweep{MaxLevels: 20}.Fit(ctx, tc.X)
		if err != nil {
			t.Errorf("%s sweep: %v", tc.name, err)
		} else if len(h.Levels) == 0 || h.Newick() == "" {
			t.Errorf("%s sweep: empty hierarchy", tc.name)
		}
	}
}
