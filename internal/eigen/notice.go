package eigen

import (
	"fmt"

	"github.com/arbor-ml/arbor/internal/progress"
)

// Notice is the line to print before an O(N³) step (what) on n points
// starts: how long it should take on this machine (Estimate, measured
// now). Below n = 1500, a second or less, it is "" and nothing is
// measured.
func Notice(what string, n int) string {
	if n < 1500 {
		return ""
	}
	return fmt.Sprintf("%s: O(N³) with N = %d, about %s on this machine\n", what, n, progress.Duration(Estimate(n)))
}
