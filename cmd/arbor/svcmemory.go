package main

import (
	"fmt"
	"time"

	"github.com/arbor-ml/arbor/internal/progress"
)

// svcAnnounceRows is the number of fitted rows from which svc says how
// long its O(N²) work takes.
const svcAnnounceRows = 10000

// announceSVC says on stderr, before support vector clustering of n rows,
// what its memory estimate cannot: the work is O(N²) kernel values (the
// SVDD's kernel columns, the labelling's pair tests, each about N²/2 per
// pass over the pairs), how long one such pass takes on this machine
// (pairTime: the nanoseconds of one kernel value, svcluster.PairTime, asked
// only when the notice is printed), and hint,
// the option that fits (--landmarks M with its own time). Nothing below
// svcAnnounceRows rows or when quiet.
func (e *env) announceSVC(quiet bool, pairTime func() float64, n int, hint func(m int) string) {
	if quiet || n < svcAnnounceRows {
		return
	}
	per := pairTime()
	pass := func(m int) string {
		return progress.Duration(time.Duration(per * float64(m) * float64(m-1) / 2))
	}
	m := min(2000, n/4)
	fmt.Fprintf(e.stderr, "svc: support vector clustering of %d rows is O(N²): the SVDD's kernel columns and the labelling's pair tests come to about N²/2 = %.2g kernel values per pass over the pairs, about %s a pass on this machine; %s (about %s a pass)\n",
		n, float64(n)*float64(n-1)/2, pass(n), hint(m), pass(m))
}
