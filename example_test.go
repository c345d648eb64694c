package arbor_test

import (
	"context"
	"fmt"
	"log"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// The library from a fresh program: data with a few labels, a cluster kernel
// over every row, a learner, labels for every row and for new points. The
// body of this function is the README's library snippet, verbatim
// (TestREADMESnippet keeps them identical).
func Example() {
	ctx := context.Background()
	d, err := dataset.Embedded("two_moons") // or dataset.Load("points.csv", dataset.CSVOptions{})
	if err != nil {
		log.Fatal(err)
	}
	labeled, _ := ssl.PerClass(d.Y, 5, 0) // keep 5 labels per class (seed 0), hide the rest
	semi := d.WithLabeled(labeled)

	// The hierarchical cluster kernel on 7-NN graph distances, built from all rows.
	specs, _ := kernel.ParseSpecs("hckg:average")
	built, err := kernel.BuildAll(ctx, d.X, specs, kernel.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// An SVM (C = 1) on the kernel: labels for every row.
	m, err := ssl.Fit(ctx, learner.Adapt("svm", svm.Classifier{AllowSingleton: true}), ssl.Problem{X: d.X, K: built[0].K, Y: semi.Y})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first rows:", m.Transduction()[:8], "truth:", d.Y[:8])

	// New points enter through their kernel rows against the N rows.
	Xnew := mat.NewDense(2, 2, []float64{-1, 0.1, 2, 0.4})
	Kt, _, err := built[0].Extend(ctx, d.X, Xnew, "")
	if err != nil {
		log.Fatal(err)
	}
	pred, err := m.Predict(ctx, nil, Kt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("new points:", pred)
	// Output:
	// first rows: [0 1 1 0 1 0 0 1] truth: [0 1 1 0 1 0 0 1]
	// new points: [0 1]
}
