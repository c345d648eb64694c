package dataset_test

import (
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
)

// TestUnlabeledIsLearners: the data's mark of an unlabelled row is the
// learners' (label vectors pass unchanged).
func TestUnlabeledIsLearners(t *testing.T) {
	if dataset.Unlabeled != learner.Unlabeled {
		t.Errorf("dataset.Unlabeled = %d, learner.Unlabeled = %d", dataset.Unlabeled, learner.Unlabeled)
	}
}
