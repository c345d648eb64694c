package main

import (
	"fmt"
	"math"
)

// Memory honesty for kernel treelets (arbor treelets, arbor cluster
// --method treelets): the Jacobi rotations work on an M×M float64 kernel
// matrix in place (M = --sample, or every row). With a sample the
// rotations run on a copy while the sample's kernel is kept for the
// extension: two M×M matrices. There is no --float32 here: every rotation
// rewrites two rows and two columns, and float32 storage would round each
// of the N−1 rotations' results (an error that grows with the levels,
// unlike a kernel computed once); the option that fits is --sample.

// treeletsBytes estimates the kernel treelets of m sampled rows of n.
func treeletsBytes(n, m int) float64 {
	mm := 8 * float64(m) * float64(m)
	if m < n {
		return 2 * mm
	}
	return mm
}

// treeletsCheck stops a treelets run whose matrices exceed the budget, with
// the --sample that fits.
func (mf memFlags) treeletsCheck(n, m int) error {
	what := fmt.Sprintf("kernel treelets on %d rows", m)
	if m < n {
		what = fmt.Sprintf("kernel treelets on a sample of %d of %d rows", m, n)
	}
	b, _, err := mf.budget()
	if err != nil {
		return err
	}
	hint := "even a sample of 2 rows does not fit"
	// the largest sample whose two M×M matrices fit, at most 20,000 (the
	// rotations cost O(M²) per level)
	s := min(m-1, 20000)
	if b > 0 {
		s = min(s, int(math.Sqrt(float64(b)/16)))
	}
	if s >= 2 {
		hint = fmt.Sprintf("use --sample %d --clusters K (about %s; the other rows labelled by --extend)", s, humanBytes(treeletsBytes(n, s)))
	}
	return mf.check(treeletsBytes(n, m), what, hint)
}
