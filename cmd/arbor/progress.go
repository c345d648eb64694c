package main

import (
	"fmt"

	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/internal/progress"
	"github.com/arbor-ml/arbor/kernel"
)

// progress returns a Progress callback printing to stderr
// (internal/progress), or nil when quiet.
func (e *env) progress(quiet bool) func(stage string, done, total int) {
	if quiet {
		return nil
	}
	return progress.New(e.stderr).Report
}

// announceCubic tells, before an O(N³) step on n points starts, how long
// it should take here (eigen.Notice; nothing below n = 1500).
func (e *env) announceCubic(quiet bool, what string, n int) {
	if !quiet {
		fmt.Fprint(e.stderr, eigen.Notice(what, n))
	}
}

// announceSpecs announces the O(N³) eigendecompositions the kernels of
// specs need (ISOMAP's and the multi-type kernel's) on n points.
func (e *env) announceSpecs(quiet bool, specs []kernel.Spec, n int) {
	for _, s := range specs {
		if s.Kind == kernel.KindISOMAP || s.Kind == kernel.KindMultiType {
			e.announceCubic(quiet, "kernel "+s.String()+": eigendecomposition", n)
		}
	}
}
