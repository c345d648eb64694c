package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/hibust"
)

// TestHiBUSTCommands: eval names the method hibust_linear; classify prints
// the tree with each node's sub-problem, saves it (hibust.Load reads it
// back with the printed transduction) and draws it; bad flag values and
// bad labels are clear errors.
func TestHiBUSTCommands(t *testing.T) {
	out := mustArbor(t, "eval", "--data", "iris", "--labeled-per-class", "5", "--repeats", "1", "--learner", "hibust",
		"--samples", "10", "--restarts", "3", "--scale", "minmax", "--json", "--quiet")
	var rec struct {
		Method   string  `json:"method"`
		Accuracy float64 `json:"accuracy"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Method != "hibust_linear" || !(rec.Accuracy > 0.7) {
		t.Fatalf("eval record %+v", rec)
	}
	dir := t.TempDir()
	// Fig. 1 of paper 003 in one dimension: a | b | a.
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	for i := range 60 {
		blob := i % 3
		lab := ""
		if i < 9 {
			lab = []string{"a", "b", "a"}[blob]
		}
		b.WriteString(strings.Join([]string{ftoa(float64(blob)*4 + float64(i%5)*0.1), ftoa(float64(i%7) * 0.1), lab}, ","))
		b.WriteString("\n")
	}
	data := writeFile(t, dir, "d.csv", b.String())
	pred := filepath.Join(dir, "p.csv")
	tree := filepath.Join(dir, "tree.json")
	svg := filepath.Join(dir, "tree.svg")
	out = mustArbor(t, "classify", "--data", data, "--learner", "hibust", "--samples", "20", "--seed", "2",
		"--scale", "none", "--out", pred, "--tree", tree, "--dendrogram", svg, "--quiet")
	for _, want := range []string{"learner  hibust", "a=34 b=17", "node 0: ", " vs ", "leaf ", "wrote    " + tree, "wrote    " + svg} {
		if !strings.Contains(out, want) {
			t.Fatalf("classify output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(tree)
	if err != nil {
		t.Fatal(err)
	}
	m, err := hibust.Load(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Classes(), []int{0, 1}) || len(m.Nodes()) != 5 {
		t.Errorf("saved tree: classes %v, %d nodes; want [0 1] and 5 (3 clusters)", m.Classes(), len(m.Nodes()))
	}
	if s, err := os.ReadFile(svg); err != nil || !strings.Contains(string(s), "<svg") {
		t.Errorf("dendrogram: %v", err)
	}
	for _, bad := range [][]string{{"--restarts", "0"}, {"--theta", "1.5"}, {"--theta", "-0.2"}, {"--C1", "0"}, {"--samples", "5"}, {"--dendrogram", filepath.Join(dir, "t.pdf")}} {
		args := append([]string{"classify", "--data", data, "--learner", "hibust", "--quiet"}, bad...)
		if _, _, err := arbor(t, args...); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(bad[0], "--")) {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if _, _, err := arbor(t, "classify", "--data", data, "--learner", "svm", "--tree", tree, "--quiet"); err == nil || !strings.Contains(err.Error(), "hibust") {
		t.Errorf("--tree with svm: %v", err)
	}
	one := writeFile(t, dir, "one.csv", "x1,label\n0,a\n1,a\n2,\n3,\n")
	if _, _, err := arbor(t, "classify", "--data", one, "--learner", "hibust", "--quiet"); err == nil || !strings.Contains(err.Error(), "two classes") {
		t.Errorf("one class: %v", err)
	}
	// An eval split that leaves a class without a labelled row.
	splits := writeFile(t, dir, "s.csv", "0,1,2,50,51,52\n")
	if _, _, err := arbor(t, "eval", "--data", "iris", "--splits", splits, "--learner", "hibust", "--quiet"); err == nil || !strings.Contains(err.Error(), "class 2 has no labelled row") {
		t.Errorf("class without labels: %v", err)
	}
}

// ftoa formats v as the shortest text that reads back to it.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
