package dataset_test

import (
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
)

// The USPS benchmark with its first official 10-label split, as papers 000
// and 002 use it.
func ExampleEmbeddedSplits() {
	usps, err := dataset.Embedded("usps")
	if err != nil {
		panic(err)
	}
	splits, err := dataset.EmbeddedSplits("usps", 10)
	if err != nil {
		panic(err)
	}
	semi := usps.WithLabeled(splits[0])
	fmt.Println(usps.Len(), usps.Dim(), usps.Classes, usps.ClassCounts())
	fmt.Println(len(splits), "splits; labelled rows", semi.Labeled())
	fmt.Println("unlabelled:", len(semi.UnlabeledRows()))
	// Output:
	// 1500 241 [0 1] [1200 300]
	// 12 splits; labelled rows [240 250 259 319 447 472 717 880 990 1171]
	// unlabelled: 1490
}

func ExampleStandardize() {
	iris, err := dataset.Embedded("iris")
	if err != nil {
		panic(err)
	}
	Z := dataset.Standardize(iris.X)
	fmt.Printf("%.4f %.4f\n", iris.X.At(0, 0), Z.At(0, 0))
	// Output:
	// 5.1000 -0.9007
}
