package main

import (
	"github.com/arbor-ml/arbor/learner"
)

// withClasses tells the learners that take them (s4vm, hibust) that the
// data have classes 0..c−1, so that a split leaving a class without a
// labelled row is an error (s4vm.ErrNoLabel) instead of a class that can
// never be predicted.
func withClasses(ls []learner.Learner, c int) {
	all := make([]int, c)
	for i := range all {
		all[i] = i
	}
	for i, l := range ls {
		ls[i] = learner.WithRun(l, learner.Run{Classes: all})
	}
}

// withProgress hands the command's progress display (stderr; nil with
// --quiet) to the learners that report progress (s4vm: its candidates;
// hibust: its MCCK runs, tree nodes and each node's S4VM candidates).
func withProgress(ls []learner.Learner, p func(stage string, done, total int)) {
	if p == nil {
		return
	}
	for i, l := range ls {
		ls[i] = learner.WithRun(l, learner.Run{Progress: p})
	}
}
