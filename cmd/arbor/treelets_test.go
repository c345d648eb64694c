package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTreeletsGraph: two 4-cliques joined by one edge (13 edges, 28 − 13
// = 15 non-edges). The hierarchy completes each clique before joining
// them, so the merges inside the cliques add only edge pairs (FPR stays 0,
// TPR reaches 12/13) and the last merge adds 1 edge and 15 non-edges,
// ending at (1, 1): AUC = (1 − 0)·(12/13 + 1)/2 = 25/26 ≈ 0.962.
func TestTreeletsGraph(t *testing.T) {
	dir := t.TempDir()
	edges := filepath.Join(dir, "g.txt")
	var b strings.Builder
	for _, off := range []int{0, 4} {
		for i := 0; i < 4; i++ {
			for j := i + 1; j < 4; j++ {
				b.WriteString(strings.Join([]string{itoa(off + i), itoa(off + j)}, " ") + "\n")
			}
		}
	}
	b.WriteString("3 4\n")
	os.WriteFile(edges, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "labels.csv")
	z := filepath.Join(dir, "z.csv")
	roc := filepath.Join(dir, "roc.png")
	stdout := mustArbor(t, "treelets", "--graph-edges", edges, "--roc-against", "graph", "--roc", roc,
		"--clusters", "2", "--out", out, "--linkage-out", z, "--newick", filepath.Join(dir, "t.nwk"), "--quiet")
	if !strings.Contains(stdout, "AUC 0.962") {
		t.Errorf("stdout:\n%s", stdout)
	}
	lab, _ := os.ReadFile(out)
	want := "node,cluster\n0,0\n1,0\n2,0\n3,0\n4,1\n5,1\n6,1\n7,1\n"
	if string(lab) != want {
		t.Errorf("labels:\n%s", lab)
	}
	zb, _ := os.ReadFile(z)
	if n := strings.Count(string(zb), "\n"); n != 7 {
		t.Errorf("linkage has %d rows, want 7", n)
	}
	if st, err := os.Stat(roc); err != nil || st.Size() == 0 {
		t.Errorf("roc picture: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestTreeletsMissing: rbf-missing on a CSV with empty, NA and ? cells;
// a sampled run with both extensions.
func TestTreeletsMissing(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "m.csv")
	var b strings.Builder
	b.WriteString("id,a,b,c,class\n")
	for i := 0; i < 30; i++ {
		g := i % 2
		a, bb, c := itoa(g*8+i%3), itoa(g*8+(i+1)%3), itoa(g*8)
		switch i % 5 {
		case 1:
			a = ""
		case 2:
			bb = "NA"
		case 3:
			c = "?"
		}
		b.WriteString("r" + itoa(i%10) + "," + a + "," + bb + "," + c + ",k" + itoa(g) + "\n")
	}
	os.WriteFile(data, []byte(b.String()), 0o644)
	for _, ext := range []string{"svm", "knn"} {
		stdout := mustArbor(t, "treelets", "--data", data, "--ignore", "id", "--kernel", "rbf-missing:1",
			"--sample", "12", "--extend", ext, "--seed", "4", "--clusters", "2", "--roc-against", "labels",
			"--out", filepath.Join(dir, ext+".csv"), "--quiet")
		if !strings.Contains(stdout, "ARI 1.0000") || !strings.Contains(stdout, "AUC ") {
			t.Errorf("%s:\n%s", ext, stdout)
		}
	}
	// the same file without rbf-missing: an error that names the kernel
	_, _, err := arbor(t, "treelets", "--data", data, "--ignore", "id", "--kernel", "rbf:1", "--out", filepath.Join(dir, "x.csv"), "--quiet")
	if err == nil || !strings.Contains(err.Error(), "rbf-missing") {
		t.Errorf("missing values with rbf: %v", err)
	}
}

func TestTreeletsBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	g := write("g.txt", "0 1\n1 2\n2 3\n")
	loop := write("loop.txt", "0 1\n2 2\n")
	dup := write("dup.txt", "0 1\n1 0\n")
	neg := write("neg.txt", "0 1\n-3 1\n")
	allMissing := write("am.csv", "a,b,label\n1,2,0\n,,1\n3,4,1\n")
	data := write("d.csv", "a,b,label\n1,2,0\n2,1,0\n8,9,1\n9,8,1\n")
	out := filepath.Join(dir, "o.csv")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--graph-edges", g, "--clusters", "5"}, "--clusters 5 is larger"},
		{[]string{"--graph-edges", g, "--sample", "9", "--clusters", "2"}, "--sample 9 is larger"},
		{[]string{"--graph-edges", g, "--sample", "1"}, "--sample must be ≥ 2"},
		{[]string{"--graph-edges", g, "--lambda", "-1"}, "--lambda must be ≥ 0"},
		{[]string{"--graph-edges", loop}, "loop.txt:2: kernel: bad edge list: self loop on node 2"},
		{[]string{"--graph-edges", dup}, "dup.txt:2: kernel: bad edge list: edge (1, 0) repeats line 1"},
		{[]string{"--graph-edges", neg}, "neg.txt:2: kernel: bad edge list: negative node id -3"},
		{[]string{"--data", allMissing, "--kernel", "rbf-missing:1"}, "row 1 has every value missing"},
		{[]string{"--data", data, "--kernel", "rbf:1", "--roc-against", "graph"}, "--roc-against graph needs --graph-edges"},
		{[]string{"--data", data, "--kernel", "hck:average"}, "treelets take a point kernel"},
		{[]string{"--data", data}, "--data needs --kernel"},
		{[]string{"--data", data, "--kernel", "rbf:1", "--similarity", "cos"}, "--similarity"},
		{[]string{"--data", data, "--kernel", "rbf:1", "--roc", filepath.Join(dir, "r.png")}, "--roc needs --roc-against"},
	} {
		args := append([]string{"treelets", "--out", out, "--quiet"}, tc.args...)
		_, _, err := arbor(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s", tc.args, out)
			os.Remove(out)
		}
	}
}
