package figure_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/ssl"
)

// TestHiBUSTTree draws a fitted tree (iris, 10 labelled per class) in
// both formats.
func TestHiBUSTTree(t *testing.T) {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	l, _ := ssl.PerClass(ds.Y, 10, 0)
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = hibust.Unlabeled
	}
	for _, i := range l {
		y[i] = ds.Y[i]
	}
	m, err := hibust.Classifier{Node: hibust.SVMNode{}, Seed: 1}.Fit(context.Background(), dataset.MinMax(ds.X), y)
	if err != nil {
		t.Fatal(err)
	}
	f, err := figure.HiBUSTTree(m, figure.HiBUSTOptions{Classes: ds.Classes})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if d := os.Getenv("HIBUST_FIG"); d != "" {
		dir = d
	}
	for _, name := range []string{"tree.png", "tree.svg"} {
		if err := f.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(filepath.Join(dir, "tree.pdf")); err == nil {
		t.Error("tree.pdf saved; want ErrFormat")
	}
}
