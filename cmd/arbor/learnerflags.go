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

// learners builds the learners the flags name through the registry.
func (l *learnerFlags) learners() ([]learner.Learner, error) {
	ls, err := learner.Build(l.learner, l.values())
	return ls, settingsError(err)
}

// checkLearnerFlags refuses flags given that the learners would ignore
// (pipeline.CheckGiven); tree and dendrogram are hibust's output flags.
func checkLearnerFlags(fs *flag.FlagSet, names string, ls []learner.Learner) error {
	var given []string
	fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) })
	return settingsError(pipeline.CheckGiven(names, ls, given, map[string][]string{"tree": {"hibust"}, "dendrogram": {"hibust"}}))
}

// settingsError makes a learner settings error (learner.ErrSettings) a
// usage error.
func settingsError(err error) error {
	if errors.Is(err, learner.ErrSettings) {
		return usageError("%v", err)
	}
	return err
}
