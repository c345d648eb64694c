package main

import (
	"errors"
	"flag"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
)

// learnerFlags select and configure learners: --learner and every
// registered learner family's flags (learner.AddFlags).
type learnerFlags struct {
	learnerUsage string // classify takes one learner, eval a list
	learner      string
	fs           *flag.FlagSet
	seed         uint64 // the command's --seed
}

func (l *learnerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.learner, "learner", "svm", l.learnerUsage)
	learner.AddFlags(fs)
	l.fs = fs
}

// values are the learner settings of the flags.
func (l *learnerFlags) values() learner.Values { return learner.FlagValues(l.fs, l.seed) }

// learners builds the learners the flags name through the registry and
// refuses, in this order: other than one learner when one is set
// (classify), flags given that they would ignore (pipeline.CheckGiven;
// tree and dendrogram are hibust's output flags), and learners that need
// landmarks when there are none (landmarks: --landmarks M).
func (l *learnerFlags) learners(one bool, landmarks int) ([]learner.Learner, error) {
	ls, err := learner.Build(l.learner, l.values())
	if err != nil {
		return nil, settingsError(err)
	}
	if one && len(ls) != 1 {
		return nil, usageError("classify runs one learner; got %d (use arbor eval to compare)", len(ls))
	}
	var given []string
	l.fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) })
	if err := pipeline.CheckGiven(l.learner, ls, given, map[string][]string{"tree": {"hibust"}, "dendrogram": {"hibust"}}); err != nil {
		return nil, settingsError(err)
	}
	return ls, settingsError(pipeline.NeedLandmarks(ls, landmarks))
}

// settingsError makes a learner settings error (learner.ErrSettings) a
// usage error.
func settingsError(err error) error {
	if errors.Is(err, learner.ErrSettings) {
		return usageError("%v", err)
	}
	return err
}
