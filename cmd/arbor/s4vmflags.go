package main

import (
	"math"
	"strings"

	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/ssl"
)

// transFlags are the settings of the transductive SVM learners of paper
// 003: s4vm (safe semi-supervised SVM, one-vs-one beyond two classes) —
// and, beside it, hibust. --seed is registered by the command (eval's
// --seed also seeds the splits).
type transFlags struct {
	C1, C2  float64
	samples int
	lambda  float64
	seed    uint64

	restarts int     // hibust (hibustflags.go)
	theta    float64 // hibust
}

func (t *transFlags) register(fs interface {
	Float64Var(p *float64, name string, value float64, usage string)
	IntVar(p *int, name string, value int, usage string)
}) {
	fs.Float64Var(&t.C1, "C1", 100, "s4vm: SVM penalty of labelled rows")
	fs.Float64Var(&t.C2, "C2", 0.1, "s4vm: SVM penalty of unlabelled rows")
	fs.IntVar(&t.samples, "samples", 100, "s4vm: candidate label assignments (sampleTime); grouped into samples/10")
	fs.Float64Var(&t.lambda, "lambda", 3, "s4vm: weight λ of a loss against the inductive SVM in the safe combination")
	t.registerHibust(fs)
}

// transLearner builds the learner name if it is one of transFlags'; ok is
// false for other names.
func (t *transFlags) transLearner(name string) (ln ssl.Learner, ok bool, err error) {
	switch strings.TrimSpace(strings.ToLower(name)) {
	case "s4vm":
		for _, f := range []struct {
			flag string
			v    float64
		}{{"--C1", t.C1}, {"--C2", t.C2}, {"--lambda", t.lambda}} {
			if !(f.v > 0) || math.IsInf(f.v, 0) {
				return nil, true, usageError("%s must be positive, got %v", f.flag, f.v)
			}
		}
		if t.samples < 10 {
			return nil, true, usageError("--samples must be ≥ 10 (the candidates are grouped into samples/10 ≥ 1; sampleTime < groups otherwise), got %d", t.samples)
		}
		s := s4vm.S4VM{C1: t.C1, C2: t.C2, Samples: t.samples, Lambda: t.lambda, Seed: t.seed}
		if err := s.Validate(); err != nil {
			return nil, true, usageError("%v", err)
		}
		return s4vm.Learner{S4VM: s}, true, nil
	case "hibust":
		ln, err := t.hibust()
		return ln, true, err
	}
	return nil, false, nil
}

// withClasses tells the s4vm learners that the data have classes 0..c−1,
// so that a split leaving a class without a labelled row is an error
// (s4vm.ErrNoLabel) instead of a class that can never be predicted.
func withClasses(ls []ssl.Learner, c int) {
	all := make([]int, c)
	for i := range all {
		all[i] = i
	}
	for i, l := range ls {
		if s, ok := l.(s4vm.Learner); ok {
			s.Classes = all
			ls[i] = s
		}
		if h, ok := l.(hibust.Learner); ok {
			h.Classes = all
			ls[i] = h
		}
	}
}
