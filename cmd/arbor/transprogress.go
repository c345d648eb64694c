package main

import (
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/ssl"
)

// withProgress hands the command's progress display (stderr; nil with
// --quiet) to the s4vm and hibust learners among ls: S4VM reports its
// candidates, HiBUST its MCCK runs, tree nodes and each node's S4VM
// candidates.
func withProgress(ls []ssl.Learner, p func(stage string, done, total int)) {
	if p == nil {
		return
	}
	for i, l := range ls {
		switch v := l.(type) {
		case s4vm.Learner:
			v.Progress = p
			ls[i] = v
		case hibust.Learner:
			v.Progress = p
			ls[i] = v
		}
	}
}
