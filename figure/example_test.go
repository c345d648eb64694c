package figure_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// Draw the average-linkage dendrogram of six points (leaves in SciPy's
// leaves_list order), coloured by the two
// clusters below height 2, and save it as SVG.
func ExampleDendrogram() {
	X := mat.NewDense(6, 2, []float64{0, 0, 0, 1, 1, 0, 5, 5, 5, 6, 6, 5})
	tree, err := hclust.FromPoints(context.Background(), X, hclust.Average)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := figure.Dendrogram(tree, figure.DendrogramOptions{
		Labels: []string{"a", "b", "c", "d", "e", "f"},
		Cut:    2,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "figure")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tree.svg")
	if err := f.Save(path); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("leaves:", tree.Leaves())
	fmt.Println("saved", filepath.Base(path))
	// Output:
	// leaves: [2 0 1 5 3 4]
	// saved tree.svg
}

// A dendrogram over many rows is truncated as SciPy's
// dendrogram(Z, truncate_mode="lastp", p=12): only the last 11 merges are
// drawn; every earlier subtree is one leaf named "(n)" by its size, and
// single rows keep their row number.
func ExampleDendrogram_truncated() {
	X := mat.NewDense(200, 2, nil)
	for i := 0; i < 200; i++ {
		X.Set(i, 0, float64(i%10)+0.01*float64(i))
		X.Set(i, 1, float64(i%7))
	}
	tree, err := hclust.FromPoints(context.Background(), X, hclust.Ward)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := figure.Dendrogram(tree, figure.DendrogramOptions{Leaves: 12, K: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := f.Plots[0][0]
	var names []string
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		names = append(names, t.Label)
	}
	fmt.Println(len(names), "leaves")
	fmt.Println(p.X.Label.Text)
	// Output:
	// 12 leaves
	// row, or (number of rows) of a subtree: 12 of 200 leaves
}
