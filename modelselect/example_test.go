package modelselect_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/modelselect"
)

// A grid search over C and the RBF kernel's γ with scikit-learn's
// StratifiedKFold(5) folds, as GridSearchCV(SVC(), {"C": …, "gamma": …},
// cv=5) on the raw iris features.
func Example() {
	ds, _ := dataset.Embedded("iris")
	folds, cv, err := modelselect.FoldChoice{K: 5}.Folds(ds.Y)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := modelselect.Search{
		Grids: []modelselect.Grid{{Learner: "svm",
			Params:  map[string][]string{"C": {"1", "10"}},
			Kernels: []string{"rbf:0.1", "rbf:1"}}},
		Folds: folds, CV: cv, Scale: "none",
	}.Run(context.Background(), ds)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rows() {
		fmt.Printf("%d  %-23s %.4f ± %.4f\n", r.Rank, r.Candidate, r.Mean, r.Std)
	}
	fmt.Println("best:", res.Candidates[res.Best], "with", cv)
	// Output:
	// 1  svm C=1 kernel=rbf:0.1  0.9800 ± 0.0163
	// 3  svm C=1 kernel=rbf:1    0.9667 ± 0.0365
	// 1  svm C=10 kernel=rbf:0.1 0.9800 ± 0.0163
	// 4  svm C=10 kernel=rbf:1   0.9533 ± 0.0340
	// best: svm C=1 kernel=rbf:0.1 with stratified:5
}
