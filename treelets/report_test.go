package treelets

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
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// twoCliques is a graph of two 4-cliques on the nodes 10..13 and 20..23
// joined by the edge 13–20.
func twoCliques(t *testing.T) *kernel.GraphKernel {
	t.Helper()
	var b strings.Builder
	for _, base := range []int{10, 20} {
		for i := range 4 {
			for j := i + 1; j < 4; j++ {
				fmt.Fprintf(&b, "%d %d\n", base+i, base+j)
			}
		}
	}
	b.WriteString("13 20\n")
	g, err := kernel.ReadEdges(strings.NewReader(b.String()), "cliques")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sizes(s []int) string { return fmt.Sprint(s) }

// On two cliques joined by one edge, treelets put each clique together
// before joining them: two clusters of 4, and the pairwise ROC against the
// edges through all levels (12 edges within cliques, 1 across; 28 − 13 =
// 15 non-edges) ranks every edge within a clique above every non-edge, an
// AUC of at least 12/13 whatever the bridge's rank.
func TestRunReportGraph(t *testing.T) {
	ctx := context.Background()
	g := twoCliques(t)
	s := Sample{M: g.Len(), Seed: 1, Clusters: 2}
	res, k, err := s.FitGap(ctx, g, 50)
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{SampleModel: res, Sample: s, Graph: g, K: k}
	var w strings.Builder
	if err := r.WriteReport(&w, true, "graph", sizes); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if len(lines) != 3 || lines[0] != res.Summary(s, 8) || lines[1] != "clusters   2, sizes [4 4]" ||
		!strings.HasSuffix(lines[2], ": pairwise ROC through all 7 levels against graph (13 positive, 15 negative pairs)") {
		t.Errorf("report:\n%s", w.String())
	}
	if r.ROC.Positive != 13 || r.ROC.Negative != 15 || r.ROC.AUC() < 12.0/13 {
		t.Errorf("ROC %d positive, %d negative, AUC %g", r.ROC.Positive, r.ROC.Negative, r.ROC.AUC())
	}

	// The files: the labels by node id, a linkage matrix of 7 rows, the
	// levels, and a Newick tree whose leaves are the node ids.
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	var stdout strings.Builder
	o := Outputs{Labels: "-", Stdout: &stdout, Linkage: path("Z.csv"), Levels: path("levels.csv"), Newick: path("t.nwk"),
		Dendrogram: path("d.svg"), ROC: path("roc.svg"), Title: "cliques"}
	if err := r.Write(ctx, o); err != nil {
		t.Fatal(err)
	}
	var labels strings.Builder
	g.WriteLabels(&labels, r.Labels)
	if stdout.String() != labels.String() || !strings.HasPrefix(stdout.String(), "node,cluster\n10,") {
		t.Errorf("labels on stdout:\n%s", stdout.String())
	}
	read := func(name string) string {
		b, err := os.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if z := read("Z.csv"); strings.Count(z, "\n") != 7 {
		t.Errorf("Z.csv:\n%s", z)
	}
	if l := read("levels.csv"); !strings.HasPrefix(l, "level,sum,diff,similarity,cos,sin\n") || strings.Count(l, "\n") != 8 {
		t.Errorf("levels.csv:\n%s", l)
	}
	nwk := read("t.nwk")
	for _, id := range []string{"10", "13", "20", "23"} {
		if !strings.Contains(nwk, id) {
			t.Errorf("Newick without leaf %s: %s", id, nwk)
		}
	}
	for _, svg := range []string{"d.svg", "roc.svg"} {
		if s := read(svg); !strings.Contains(s, "cliques") {
			t.Errorf("%s has no title naming the data", svg)
		}
	}
}

// A ROC against labels needs a label on every sampled row: a *LabelError
// names the first row without one, or −1 when no row has one; the report's
// lines before the AUC are written all the same.
func TestRunReportLabels(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	ds := &dataset.Dataset{Name: "six", X: X, Y: []int{0, 0, 0, 1, 1, 1}, Classes: []string{"a", "b"}}
	s := Sample{M: 6, Seed: 1, Clusters: 2}
	res, k, err := s.FitGap(ctx, kernel.Points{X: X, K: kernel.RBF{Gamma: 1}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{SampleModel: res, Sample: s, Data: ds, K: k}
	var w strings.Builder
	if err := r.WriteReport(&w, true, "labels", sizes); err != nil {
		t.Fatal(err)
	}
	if want := "clusters   2, sizes [3 3]\nvs labels  ARI 1.0000 (6 labelled rows)\nAUC 1.000: pairwise ROC through all 5 levels against labels (6 positive, 9 negative pairs)\n"; !strings.HasSuffix(w.String(), want) {
		t.Errorf("report:\n%s\nwant it to end:\n%s", w.String(), want)
	}
	for _, c := range []struct {
		y   []int
		row int
	}{{[]int{0, 0, -1, 1, -1, 1}, 2}, {[]int{-1, -1, -1, -1, -1, -1}, -1}} {
		ds.Y = c.y
		w.Reset()
		var le *LabelError
		if err := r.WriteReport(&w, true, "labels", sizes); !errors.As(err, &le) || le.Row != c.row {
			t.Errorf("labels %v: %v, want row %d", c.y, err, c.row)
		}
		if !strings.HasPrefix(w.String(), "treelets ") || strings.Contains(w.String(), "AUC") {
			t.Errorf("labels %v: report %q", c.y, w.String())
		}
	}
}

// MemoryAdvice: a sample of m of n rows is two m×m float64 matrices; the
// advice is the largest sample whose two matrices fit the budget.
func TestMemoryAdvice(t *testing.T) {
	what, hint := MemoryAdvice(1000, 1000, 16*100*100)
	if what != "kernel treelets on 1000 rows" || hint != "use --sample 100 --clusters K (about 157 KiB; the other rows labelled by --extend)" {
		t.Errorf("%q, %q", what, hint)
	}
	if math.Abs(Bytes(1000, 100)-160000) > 0 {
		t.Errorf("Bytes(1000, 100) = %g", Bytes(1000, 100))
	}
	what, hint = MemoryAdvice(1000, 500, 16)
	if what != "kernel treelets on a sample of 500 of 1000 rows" || hint != "even a sample of 2 rows does not fit" {
		t.Errorf("%q, %q", what, hint)
	}
}
