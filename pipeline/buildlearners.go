package pipeline

import (
	"github.com/arbor-ml/arbor/learner"
)

// BuildLearners builds the learners names lists (comma-separated family
// names) with values (learner.Build), and refuses, in this order: other
// than one learner when one is set, settings given (by flag name) that
// the learners would ignore (CheckGiven with outputs), and learners that
// run on landmark features only without landmarks (NeedLandmarks). Its
// errors wrap learner.ErrSettings.
func BuildLearners(names string, values learner.Values, given []string, outputs map[string][]string, one bool, landmarks int) ([]learner.Learner, error) {
	ls, err := learner.Build(names, values)
	if err != nil {
		return nil, err
	}
	if one && len(ls) != 1 {
		return nil, learner.Settingsf("classify runs one learner; got %d (use arbor eval to compare)", len(ls))
	}
	if err := CheckGiven(names, ls, given, outputs); err != nil {
		return nil, err
	}
	if err := NeedLandmarks(ls, landmarks); err != nil {
		return nil, err
	}
	return ls, nil
}
