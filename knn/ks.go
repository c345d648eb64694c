package knn

import (
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/learner"
)

// ParseKs reads a list of neighbour counts: "3", "1,2,5" or "1-5".
// Errors wrap learner.ErrSettings.
func ParseKs(s string) ([]int, error) {
	var ks []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, learner.Settingsf("--k: %q is not a number", f)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, learner.Settingsf("--k: bad range %q", f)
			}
		}
		for k := a; k <= b; k++ {
			if k < 1 {
				return nil, learner.Settingsf("--k must be ≥ 1, got %d", k)
			}
			ks = append(ks, k)
		}
	}
	return ks, nil
}
