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
	learner string
	fs      *flag.FlagSet
	seed    uint64 // the command's --seed
}

// register defines --learner (usage: classify takes one learner, eval a
// list) and the learner settings on fs.
func (l *learnerFlags) register(fs *flag.FlagSet, usage string) {
	fs.StringVar(&l.learner, "learner", "svm", usage)
	learner.AddFlags(fs)
	l.fs = fs
}

// values are the learner settings of the flags.
func (l *learnerFlags) values() learner.Values { return learner.FlagValues(l.fs, l.seed) }

// learners builds the learners the flags name (pipeline.BuildLearners:
// one when one is set, as classify runs; tree and dendrogram are hibust's
// output flags; landmarks is --landmarks M).
func (l *learnerFlags) learners(one bool, landmarks int) ([]learner.Learner, error) {
	var given []string
	l.fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) })
	outputs := map[string][]string{"tree": {"hibust"}, "dendrogram": {"hibust"}}
	ls, err := pipeline.BuildLearners(l.learner, l.values(), given, outputs, one, landmarks)
	return ls, settingsError(err)
}

// settingsError makes a learner settings error (learner.ErrSettings) a
// usage error.
func settingsError(err error) error {
	if errors.Is(err, learner.ErrSettings) {
		return usageError("%v", err)
	}
	return err
}
