package clustering_test

import (
	"context"
	"os"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
)

// ExampleResult_WriteSummary prints the summary lines of arbor cluster
// --data two_moons --linkage average --distance graph --height 2.
func ExampleResult_WriteSummary() {
	ds, err := dataset.Embedded("two_moons")
	if err != nil {
		panic(err)
	}
	s := clustering.Settings{Linkage: hclust.Average, Distance: clustering.Graph, Cophenetic: true}
	r, err := clustering.Fit(context.Background(), s, ds.X)
	if err != nil {
		panic(err)
	}
	if err := r.WriteSummary(os.Stdout, s); err != nil {
		panic(err)
	}
	// Output:
	// linkage    average on graph distances (knn:7 graph, 0 component joins)
	// heights    0.00350551 … 2.50704; cophenetic correlation 0.7343
}
