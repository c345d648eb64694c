package dataset_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"

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

// Data piped in, compressed or not: ReadData finds gzip by its first
// bytes and the format by the content, as arbor's --data - does.
func ExampleReadData() {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("x1,x2,class\n0.5,1,a\n1.5,2,b\n2.5,0,?\n"))
	zw.Close()
	ds, err := dataset.ReadData(&gz, dataset.StdinName, dataset.CSVOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(ds.Name, ds.Len(), ds.Dim(), ds.Classes, ds.Source.Format)
	_, err = dataset.ReadData(strings.NewReader("1 1:0.5\n-1 2:2\n1 1:1.5 2:0.5\n-1 1:2\n1 2:x\n"), dataset.StdinName, dataset.CSVOptions{})
	fmt.Println(err)
	// Output:
	// standard input 3 2 [a b] csv
	// standard input:5: column "f2": not a number "x"
}
