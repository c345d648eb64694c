package pipeline_test

import (
	"fmt"
	"log"

	"github.com/arbor-ml/arbor/pipeline"
)

// ExampleCost is the memory check of arbor classify --max-memory 2G, made
// from the data's shape alone before any work: an exact hierarchical
// cluster kernel on 20,000 rows does not fit 2 GiB, and the refusal names
// the settings that would.
func ExampleCost() {
	s := pipeline.Settings{Kernel: "hck:average", MemoryBudget: 2 << 30}
	est, err := pipeline.Cost(s, pipeline.Shape{Rows: 20000, Labeled: 200, Features: 50, Classes: 10})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(est.Err())
	// Output:
	// not enough memory: the exact svm run on 20000 rows needs about 4.5 GiB, more than the budget of 2.0 GiB; --float32 needs about 1.5 GiB; use --landmarks 2000 (about 537 MiB)
}
