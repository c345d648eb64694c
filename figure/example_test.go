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
