package pipeline

import (
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
)

// CheckTraining refuses a training set a fit can learn nothing from or
// has nothing to do for: no labelled row, fewer than two classes among
// the labelled rows (Dataset.CheckTwoClasses), or, unless newPoints (new
// points to label, a pipeline to save for them, or the model's
// probabilities or decision values for the labelled rows), every row
// labelled.
func CheckTraining(ds *dataset.Dataset, newPoints bool) error {
	lab := len(ds.Labeled())
	if lab == 0 {
		return fmt.Errorf("%s: no labelled rows (label column %q): nothing to learn from", ds.Name, ds.LabelName)
	}
	if err := ds.CheckTwoClasses(); err != nil {
		return err
	}
	if lab == ds.Len() && !newPoints {
		return fmt.Errorf("%s: every row is labelled and there is no --test: nothing to predict", ds.Name)
	}
	return nil
}
