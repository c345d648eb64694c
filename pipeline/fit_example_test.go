package pipeline_test

import (
	"context"
	"fmt"
	"log"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// ExampleFit goes from a CSV file with 10 labelled rows to labels for new
// points: the hierarchical cluster kernel (average linkage) with 100
// landmarks and an SVM, as arbor classify --kernel hck:average --learner
// svm --landmarks 100, then arbor predict.
func ExampleFit() {
	ctx := context.Background()
	train, _ := dataset.Load("../examples/two_moons_10_labels.csv", dataset.CSVOptions{Label: "moon", ID: "id"})
	fit, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "hck:average", Learner: "svm", Landmarks: 100}, train, nil)
	if err != nil {
		log.Fatal(err)
	}
	p, _ := fit.Pipeline() // p.Save(w) writes it for arbor predict; pipeline.Load reads it
	points, _ := dataset.Load("../examples/new_points.csv", dataset.CSVOptions{NoLabel: true, ID: "id"})
	X, _ := p.Columns(points)
	pred, err := p.Predict(ctx, X)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(points.IDs, pred)
	// Output: [q0 q1 q2 q3 q4 q5] [0 0 1 1 1 1]
}
