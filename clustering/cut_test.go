package clustering

import (
	"math"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
)

// TestCutOptions: the default criteria, the criteria's arguments, and
// each refusal's message.
func TestCutOptions(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		o    CutOptions
		want hclust.Cut
	}{
		{CutOptions{Clusters: 3, Height: nan, Threshold: nan, Depth: 2}, hclust.Cut{Criterion: hclust.NClusters, K: 3, T: nan, Depth: 2}},
		{CutOptions{Height: 1.5, Threshold: nan, Depth: 2}, hclust.Cut{Criterion: hclust.Distance, T: 1.5, Depth: 2}},
		{CutOptions{Criterion: "maxclust", Clusters: 4, Height: nan, Threshold: nan, Depth: 2}, hclust.Cut{Criterion: hclust.MaxClust, K: 4, T: nan, Depth: 2}},
		{CutOptions{Criterion: "inconsistent", Height: nan, Threshold: 0.8, Depth: 3, DepthSet: true}, hclust.Cut{Criterion: hclust.Inconsistent, T: 0.8, Depth: 3}},
	} {
		got, err := c.o.Cut()
		if err != nil || got == nil || got.Criterion != c.want.Criterion || got.K != c.want.K || got.Depth != c.want.Depth ||
			!(got.T == c.want.T || math.IsNaN(got.T) && math.IsNaN(c.want.T)) {
			t.Errorf("%+v: %+v, %v, want %+v", c.o, got, err, c.want)
		}
	}
	if cut, err := (CutOptions{Height: nan, Threshold: nan, Depth: 2}).Cut(); cut != nil || err != nil {
		t.Errorf("no cut asked for: %+v, %v", cut, err)
	}
	for _, c := range []struct {
		o    CutOptions
		want string
	}{
		{CutOptions{Height: nan, Threshold: 1, Depth: 2}, "--threshold is the cut of --criterion inconsistent or monocrit: give one of them"},
		{CutOptions{Height: nan, Threshold: nan, Depth: 2, DepthSet: true}, "--depth needs --criterion inconsistent, monocrit or maxclust_monocrit"},
		{CutOptions{Clusters: 2, Height: nan, Threshold: nan, Depth: 3, DepthSet: true}, "--depth is the inconsistency statistics' depth: --criterion nclusters does not use it"},
		{CutOptions{Criterion: "monocrit", Height: nan, Threshold: 1, Depth: 0}, "--depth must be at least 1, got 0"},
		{CutOptions{Criterion: "maxclust", Height: nan, Threshold: nan, Depth: 2}, "--criterion maxclust needs --clusters N"},
		{CutOptions{Criterion: "maxclust", Clusters: 2, Height: 1, Threshold: nan, Depth: 2}, "--criterion maxclust cuts into --clusters N: --height and --threshold do not apply"},
		{CutOptions{Criterion: "distance", Height: nan, Threshold: nan, Depth: 2}, "--criterion distance needs --height H"},
		{CutOptions{Criterion: "distance", Clusters: 2, Height: 1, Threshold: nan, Depth: 2}, "--criterion distance cuts at --height H: --clusters and --threshold do not apply"},
		{CutOptions{Criterion: "monocrit", Height: nan, Threshold: nan, Depth: 2}, "--criterion monocrit needs --threshold T (an inconsistency coefficient)"},
		{CutOptions{Criterion: "monocrit", Height: 1, Threshold: 1, Depth: 2}, "--criterion monocrit cuts at --threshold T: --clusters and --height do not apply"},
	} {
		if _, err := c.o.Cut(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	if _, err := (CutOptions{Criterion: "bogus", Height: nan, Threshold: nan, Depth: 2}).Cut(); err == nil || err.Error()[:13] != "--criterion: " {
		t.Errorf("unknown criterion: %v", err)
	}
}
