package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// svgTexts returns the text nodes of an SVG file.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`>([^<>]+)</text>`).FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDendrogramPicture: a dendrogram of a file given by path has a title
// without the path, leaf names and axis labels, and is truncated (SciPy's
// lastp) when the data has many rows, as --dendrogram-leaves says.
func TestDendrogramPicture(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "sub", "points.csv")
	os.MkdirAll(filepath.Dir(data), 0o755)
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 120; i++ {
		b.WriteString(strings.Repeat("1", 1+i%7) + "," + strings.Repeat("2", 1+i%5) + "\n")
	}
	os.WriteFile(data, []byte(b.String()), 0o644)
	for _, c := range []struct {
		leaves string
		want   int
	}{{"0", 30}, {"12", 12}, {"-1", 120}} {
		svg := filepath.Join(dir, "d"+c.leaves+".svg")
		mustArbor(t, "cluster", "--data", data, "--linkage", "average", "--k", "3", "--dendrogram", svg, "--dendrogram-leaves", c.leaves, "--quiet")
		texts := svgTexts(t, svg)
		title := ""
		leaves := 0
		for _, s := range texts {
			if strings.Contains(s, "linkage") {
				title = s
			}
			if regexp.MustCompile(`^(\(\d+\)|\d+)$`).MatchString(s) && !strings.Contains(s, ".") {
				leaves++
			}
		}
		if title == "" || strings.Contains(title, "/") || !strings.HasPrefix(title, "points:") {
			t.Errorf("leaves %s: title %q", c.leaves, title)
		}
		if !strings.Contains(strings.Join(texts, "|"), "height") {
			t.Errorf("leaves %s: no height axis label in %q", c.leaves, texts)
		}
		// Leaf names plus the height axis's whole-number tick labels.
		if leaves < c.want || leaves > c.want+12 {
			t.Errorf("leaves %s: %d leaf-like names, want %d (+ tick labels)", c.leaves, leaves, c.want)
		}
	}
}

// TestSVCPicture: the support vector clustering figure calls its groups
// clusters, labels its axes, and puts the number of clusters and the
// support-vector fractions on separate axes.
func TestSVCPicture(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "svc.svg")
	mustArbor(t, "svc", "--data", "iris", "--pca", "2", "--sweep", "--clusters", "3", "--out", filepath.Join(t.TempDir(), "l.csv"), "--plot", svg, "--quiet")
	all := strings.Join(svgTexts(t, svg), "|")
	for _, s := range []string{"cluster 1", "cluster 2", "cluster 3", "principal component 1", "principal component 2", "clusters", "fraction of the N points"} {
		if !strings.Contains(all, s) {
			t.Errorf("SVC figure lacks %q", s)
		}
	}
	for _, s := range []string{"class 0", "10·n_sv/N"} {
		if strings.Contains(all, s) {
			t.Errorf("SVC figure still has %q", s)
		}
	}
}

// TestEvalBEP: eval --metric bep reads the multi-label reuters10 set and
// reports micro_bep and macro_bep (the NumPy reference of
// ssl/testdata/gen_reuters_bep.py gives 0.858921 / 0.863051 for soft kNN,
// k = 10, on the linear kernel); single-label commands refuse the data.
func TestEvalBEP(t *testing.T) {
	out := mustArbor(t, "eval", "--data", "reuters10", "--splits", "reuters10:626", "--scale", "none", "--metric", "bep",
		"--kernel", "linear", "--learner", "knn", "--k", "10", "--json", "--quiet")
	var rec struct {
		Micro   float64 `json:"micro_bep"`
		Macro   float64 `json:"macro_bep"`
		Learner string  `json:"learner"`
		Total   int     `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if math.Abs(rec.Micro-0.8589211618257261) > 1e-9 || math.Abs(rec.Macro-0.8630511115293723) > 1e-9 || rec.Total != 229 || rec.Learner != "knn10" {
		t.Errorf("record %+v", rec)
	}
	table := mustArbor(t, "eval", "--data", "reuters10", "--splits", "reuters10:626", "--scale", "none", "--metric", "bep",
		"--kernel", "linear", "--learner", "knn,lp", "--affinity", "rbf:1", "--k", "10", "--quiet")
	if !regexp.MustCompile(`knn10 +linear +85.89 +86.31`).MatchString(table) || !strings.Contains(table, "lp_rbf1_z") {
		t.Errorf("table:\n%s", table)
	}
	for _, args := range [][]string{
		{"classify", "--data", "reuters10", "--out", filepath.Join(t.TempDir(), "p.csv")},
		{"eval", "--data", "reuters10", "--splits", "reuters10:626", "--learner", "knn"},
		{"eval", "--data", "reuters10", "--splits", "reuters10:626", "--metric", "bep", "--learner", "svm"},
		{"eval", "--data", "iris", "--labeled-per-class", "3", "--metric", "f1"},
	} {
		if _, _, err := arbor(t, args...); err == nil {
			t.Errorf("arbor %v: no error", args)
		}
	}
}

// TestDendrogramIDs: with --id the dendrogram's leaves carry the IDs.
func TestDendrogramIDs(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "pts.csv")
	os.WriteFile(data, []byte("name,x,y\nann,0,0\nbob,0,1\ncid,5,5\ndan,5,6\neve,9,0\n"), 0o644)
	svg := filepath.Join(dir, "d.svg")
	mustArbor(t, "cluster", "--data", data, "--id", "name", "--clusters", "2", "--dendrogram", svg, "--quiet")
	all := "|" + strings.Join(svgTexts(t, svg), "|") + "|"
	for _, id := range []string{"ann", "bob", "cid", "dan", "eve"} {
		if !strings.Contains(all, "|"+id+"|") {
			t.Errorf("leaf %q not in the dendrogram's text %s", id, all)
		}
	}
}

// TestClusterAndClassifyPlot: cluster --plot draws the principal
// components of iris with a legend of clusters then classes, the same
// bytes on a second run; --plot-features names the axes; classify --plot
// draws the training rows with the labelled ones marked; a bad picture
// flag is a usage error that writes nothing.
func TestClusterAndClassifyPlot(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "c.svg")
	mustArbor(t, "cluster", "--data", "iris", "--clusters", "3", "--plot", svg, "--quiet")
	texts := svgTexts(t, svg)
	all := "|" + strings.Join(texts, "|") + "|"
	for _, s := range []string{"|iris: average linkage, 3 clusters|", "|cluster 0|", "|cluster 2|", "|class 0|", "|class 2|", "principal component 1 (", "% of the variance)"} {
		if !strings.Contains(all, s) {
			t.Errorf("cluster --plot lacks %q in %s", s, all)
		}
	}
	if strings.Index(all, "|cluster 2|") > strings.Index(all, "|class 0|") {
		t.Errorf("legend order: %s", all)
	}
	var pngs [2][]byte
	for i := range pngs {
		p := filepath.Join(dir, "c"+string(rune('0'+i))+".png")
		mustArbor(t, "cluster", "--data", "iris", "--clusters", "3", "--plot", p, "--plot-features", "f3,4", "--quiet")
		pngs[i], _ = os.ReadFile(p)
	}
	if len(pngs[0]) == 0 || string(pngs[0]) != string(pngs[1]) {
		t.Errorf("cluster --plot: two runs give different PNGs (%d and %d bytes)", len(pngs[0]), len(pngs[1]))
	}
	mustArbor(t, "cluster", "--data", "iris", "--clusters", "3", "--plot", svg, "--plot-features", "f3,4", "--quiet")
	if all := strings.Join(svgTexts(t, svg), "|"); !strings.Contains(all, "|f3|") || !strings.Contains(all, "|f4|") {
		t.Errorf("--plot-features f3,4: axes not named f3 and f4 in %s", all)
	}

	lsvg := filepath.Join(dir, "l.svg")
	mustArbor(t, "classify", "--data", "../../examples/two_moons_10_labels.csv", "--label", "moon", "--id", "id", "--learner", "knn", "--out", filepath.Join(dir, "p.csv"), "--plot", lsvg, "--quiet")
	all = "|" + strings.Join(svgTexts(t, lsvg), "|") + "|"
	for _, s := range []string{"|two_moons_10_labels: knn, 10 labelled rows|", "|class 0|", "|class 1|", "|labelled|", "|x|", "|y|"} {
		if !strings.Contains(all, s) {
			t.Errorf("classify --plot lacks %q in %s", s, all)
		}
	}

	for _, args := range [][]string{
		{"cluster", "--data", "iris", "--clusters", "3", "--plot", filepath.Join(dir, "bad.pdf")},
		{"cluster", "--data", "iris", "--clusters", "3", "--plot-features", "1,2"},
		{"cluster", "--data", "iris", "--clusters", "3", "--plot", filepath.Join(dir, "bad.png"), "--plot-features", "f1,f9"},
		{"cluster", "--data", "iris", "--plot", filepath.Join(dir, "bad.png"), "--newick", filepath.Join(dir, "t.nwk")},
	} {
		if _, _, err := arbor(t, append(args, "--quiet")...); err == nil || !strings.Contains(err.Error(), "plot") {
			t.Errorf("%v: err = %v, want a usage error naming --plot", args, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "bad*")); len(left) > 0 {
		t.Errorf("failed runs left %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.nwk")); err == nil {
		t.Error("a refused --plot still wrote --newick")
	}
}

// TestSVCPlotDeterministic: two runs of svc --plot write the same PNG.
func TestSVCPlotDeterministic(t *testing.T) {
	dir := t.TempDir()
	var pngs [2][]byte
	for i := range pngs {
		p := filepath.Join(dir, "s"+string(rune('0'+i))+".png")
		mustArbor(t, "svc", "--data", "two_moons", "--q", "20", "--C", "0.0028", "--out", filepath.Join(dir, "l.csv"), "--plot", p, "--quiet")
		pngs[i], _ = os.ReadFile(p)
	}
	if len(pngs[0]) == 0 || string(pngs[0]) != string(pngs[1]) {
		t.Errorf("svc --plot: two runs give different PNGs (%d and %d bytes)", len(pngs[0]), len(pngs[1]))
	}
}
