package clustering

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

func sizesText(s []int) string { return fmt.Sprint(s) }

// Iris cut into its three classes by their own labels: sizes 50 each and
// ARI = NMI = 1; with fewer than two labelled rows there is no comparison.
func TestWriteClusters(t *testing.T) {
	y := make([]int, 150)
	for i := range y {
		y[i] = i / 50
	}
	var w strings.Builder
	if err := WriteClusters(&w, y, y, sizesText); err != nil {
		t.Fatal(err)
	}
	if want := "clusters   3, sizes [50 50 50]\nvs labels  ARI 1.0000, NMI 1.0000 (150 labelled rows)\n"; w.String() != want {
		t.Errorf("got\n%s\nwant\n%s", w.String(), want)
	}
	truth := make([]int, 150)
	for i := range truth {
		truth[i] = -1
	}
	truth[7] = 0
	w.Reset()
	if err := WriteClusters(&w, truth, y, sizesText); err != nil || w.String() != "clusters   3, sizes [50 50 50]\n" {
		t.Errorf("one labelled row: %q, %v", w.String(), err)
	}
}

// Advice: the landmarks that fit a quarter of the rows (at most 2000);
// float32 when it fits the budget; fewer landmarks with landmarks; the
// run named by its path.
func TestAdvice(t *testing.T) {
	const n = 10000
	for _, c := range []struct {
		s          Settings
		what, hint string
	}{
		{Settings{Linkage: hclust.Ward, Budget: 500 << 20}, "clustering 10000 rows without the N×N matrix",
			"--float32 needs about 381 MiB; use --landmarks 2000 (the tree on 2000 landmarks, every row in its nearest landmark's cluster)"},
		{Settings{Linkage: hclust.Ward, Budget: 100 << 20}, "clustering 10000 rows without the N×N matrix",
			"use --landmarks 2000 (the tree on 2000 landmarks, every row in its nearest landmark's cluster)"},
		{Settings{Linkage: hclust.Ward, Landmarks: 3000, Budget: 1 << 20}, "clustering 10000 rows", "use fewer --landmarks"},
		{Settings{Linkage: hclust.Average, Float32: true, Budget: 100 << 20}, "clustering 10000 rows (--float32)",
			"without --float32, average linkage clusters without the N×N matrix (O(N·k + K²) memory for the K clusters of the exact tree, checked once K is known); use --landmarks 2000 (the tree on 2000 landmarks, every row in its nearest landmark's cluster)"},
	} {
		cost, err := c.s.Cost(n, 4)
		if err != nil {
			t.Fatal(err)
		}
		if what, hint := c.s.Advice(n, cost); what != c.what || hint != c.hint {
			t.Errorf("%+v:\n got %q, %q\nwant %q, %q", c.s, what, hint, c.what, c.hint)
		}
	}
	if _, hint := (Settings{}).Advice(5, Cost{}); hint != "cluster a sample of the rows" {
		t.Errorf("5 rows: %q", hint)
	}
	s := Settings{Linkage: hclust.Ward, Budget: 100 << 20}
	c, _ := s.Cost(n, 4)
	want := "ward linkage: the N×N matrix needs about 763 MiB, more than the budget of 100 MiB (--max-memory); " + LowMemoryNote(hclust.Ward)
	if got := s.LowMemoryNotice(c, "--max-memory"); !c.LowMemory || got != want {
		t.Errorf("notice %q, want %q", got, want)
	}
}

// Outputs.Write writes every file asked for or none: labels on standard
// output, the linkage matrix of N−1 rows, a Newick tree naming the
// landmark rows by ID; a plot without a cut or of features the data do
// not have is an ErrOutput, one of data it cannot project a *PlotError,
// and none leaves a file behind.
func TestOutputsWrite(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	ds.IDs = make([]string, ds.Len())
	for i := range ds.IDs {
		ds.IDs[i] = fmt.Sprintf("r%d", i)
	}
	lm := []int{0, 1, 50, 51, 100, 101}
	tree, err := hclust.FromPoints(ctx, Rows(ds.X, lm), hclust.Average)
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, ds.Len())
	for i := range labels {
		labels[i] = i / 50
	}
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	var stdout strings.Builder
	o := Outputs{Labels: "-", Stdout: &stdout, Linkage: path("Z.csv"), Newick: path("t.nwk"), Dendrogram: path("d.svg"), Height: math.NaN(),
		Plot: path("p.svg"), PlotTitle: "iris"}
	if err := o.Write(ctx, ds, tree, labels, lm); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	ds.WriteLabels(&want, "cluster", labels)
	if stdout.String() != want.String() {
		t.Errorf("labels:\n%s", stdout.String())
	}
	for name, check := range map[string]func(string) bool{
		"Z.csv": func(s string) bool { return strings.Count(s, "\n") == 5 },
		"t.nwk": func(s string) bool {
			return strings.Contains(s, "r100") && strings.Contains(s, "r51") && !strings.Contains(s, "r2")
		},
		"d.svg": func(s string) bool { return strings.Contains(s, "<svg") },
		"p.svg": func(s string) bool { return strings.Contains(s, "iris, 3 clusters") },
	} {
		b, err := os.ReadFile(path(name))
		if err != nil || !check(string(b)) {
			t.Errorf("%s: %v\n%s", name, err, b)
		}
	}

	bad := t.TempDir()
	for _, c := range []struct {
		o      Outputs
		labels []int
		is     error
	}{
		{Outputs{Linkage: filepath.Join(bad, "Z.csv"), Plot: filepath.Join(bad, "p.svg")}, nil, ErrNoCut},
		{Outputs{Linkage: filepath.Join(bad, "Z.csv"), Plot: filepath.Join(bad, "p.svg"), PlotFeatures: "nosuch,x"}, labels, ErrOutput},
	} {
		if err := c.o.Write(ctx, ds, tree, c.labels, lm); !errors.Is(err, c.is) {
			t.Errorf("%+v: %v, want %v", c.o, err, c.is)
		}
	}
	one := &dataset.Dataset{Name: "one", X: mat.NewDense(3, 1, []float64{0, 1, 5}), Y: []int{-1, -1, -1}}
	oneTree, err := hclust.FromPoints(ctx, one.X, hclust.Average)
	if err != nil {
		t.Fatal(err)
	}
	var pe *PlotError
	err = Outputs{Linkage: filepath.Join(bad, "Z.csv"), Plot: filepath.Join(bad, "p.svg")}.Write(ctx, one, oneTree, []int{0, 0, 1}, nil)
	if !errors.As(err, &pe) || !errors.Is(err, figure.ErrInput) {
		t.Errorf("a plot of one feature: %v, want a *PlotError of figure.ErrInput", err)
	}
	if left, _ := os.ReadDir(bad); len(left) != 0 {
		t.Errorf("files left after a failed Write: %v", left)
	}
}
