package pipeline_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// Eval is arbor eval: here iris, standardised, 5 labelled rows per class
// on 3 splits, the SVM and 1-NN with an RBF kernel; ssl.Summarize makes
// the table (the numbers of arbor eval --data iris --labeled-per-class 5
// --repeats 3 --kernel rbf:0.5 --learner svm,knn --k 1).
func ExampleEval() {
	ds, _ := dataset.Embedded("iris")
	sc, _ := dataset.FitScaler(ds.X, "std")
	ds.X, _ = sc.Transform(nil, ds.X)
	splits, _ := ssl.PerClassSplits(ds.Y, 5, 3, 0)
	learners, _ := pipeline.Learners("svm,knn", map[string]string{"k": "1"}, 0)
	rbf, _ := kernel.ParseSpec("rbf:0.5")
	res, err := pipeline.Eval(context.Background(), pipeline.EvalSettings{Kernels: []kernel.Spec{rbf}, Learners: learners}, ds, splits)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range ssl.Summarize(res) {
		fmt.Printf("%s %s %.2f ± %.2f over %d splits\n", m.Learner, m.Kernel, m.Mean, m.Std, m.Splits)
	}
	// Output:
	// svm rbf:0.5 91.85 ± 2.22 over 3 splits
	// knn1 rbf:0.5 92.84 ± 1.13 over 3 splits
}
