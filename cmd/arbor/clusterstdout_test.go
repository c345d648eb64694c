package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cluster, treelets and svc write their labels to standard output with
// --out - and print the summary on stderr, as classify does (a new user:
// "--out - writes a file named -"); the other outputs stay files.
func TestClusterCommandsOutStdout(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // where a file named - would land
	data := writeFile(t, dir, "d.csv", twoBlobs("name,x,y,class\n", 6, func(i, c int) string {
		x, y := blobXY(i, c)
		return fmt.Sprintf("r%d%d,%g,%g,%c\n", c, i, x, y, 'a'+c)
	}))
	edges := writeFile(t, dir, "g.txt", "0 1\n1 2\n0 2\n3 4\n4 5\n3 5\n2 3\n")
	newick := filepath.Join(dir, "t.nwk")
	for _, tc := range []struct {
		args    []string
		summary string // a line of the summary
	}{
		{[]string{"cluster", "--data", data, "--id", "name", "--clusters", "2", "--newick", newick}, "clusters   2, sizes [6 6]\n"},
		{[]string{"cluster", "--data", data, "--id", "name", "--method", "treelets", "--kernel", "rbf:scale", "--clusters", "2"}, "clusters   2, sizes [6 6]\n"},
		{[]string{"treelets", "--data", data, "--id", "name", "--kernel", "rbf:scale", "--clusters", "2", "--newick", newick}, "clusters   2, sizes [6 6]\n"},
		{[]string{"treelets", "--graph-edges", edges, "--clusters", "2"}, "clusters   2, sizes [3 3]\n"},
		{[]string{"svc", "--data", data, "--id", "name", "--q", "0.5", "--C", "1"}, "clusters   2, sizes [6 6]\n"},
		{[]string{"svc", "--data", data, "--id", "name", "--sweep", "--clusters", "2"}, "clusters   2, sizes [6 6]\n"},
	} {
		name := strings.ReplaceAll(strings.Join(tc.args, " "), dir+string(filepath.Separator), "")
		file := filepath.Join(dir, "labels.csv")
		os.Remove(newick)
		toFile, _, err := arbor(t, append(tc.args, "--quiet", "--out", file)...)
		if err != nil {
			t.Fatalf("%s --out FILE: %v", name, err)
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(newick)
		stdout, stderr, err := arbor(t, append(tc.args, "--quiet", "--out", "-")...)
		if err != nil {
			t.Fatalf("%s --out -: %v\n%s", name, err, stderr)
		}
		if stdout != string(want) {
			t.Errorf("%s --out -: stdout\n%s\nwant the labels of --out FILE\n%s", name, stdout, want)
		}
		if !strings.Contains(toFile, tc.summary) || !strings.Contains(stderr, tc.summary) {
			t.Errorf("%s: summary %q missing\n--out FILE stdout:\n%s\n--out - stderr:\n%s", name, tc.summary, toFile, stderr)
		}
		if strings.Contains(stderr, "wrote      -") || strings.Contains(stderr, "wrote      "+file) {
			t.Errorf("%s --out -: stderr\n%s", name, stderr)
		}
		if slices.Contains(tc.args, "--newick") {
			if _, err := os.Stat(newick); err != nil || !strings.Contains(stderr, "wrote      "+newick) {
				t.Errorf("%s --out - --newick: %v\n%s", name, err, stderr)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
			t.Fatalf("%s --out -: wrote a file named -", name)
		}
	}
}

// A headerless file whose first rows are unlabelled still has its last
// column of class names as the label, and the error for a headerless
// file without one says once how to name it.
func TestHeaderlessUnlabelledFirstRow(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoBlobs("", 6, func(i, c int) string {
		x, y := blobXY(i, c)
		lab := "?"
		if i == 3 {
			lab = string(rune('a' + c))
		}
		return fmt.Sprintf("%g,%g,%s\n", x, y, lab)
	}))
	for _, args := range [][]string{{"--no-header"}, nil} {
		stdout, stderr, err := arbor(t, append([]string{"classify", "--data", data, "--learner", "knn", "--scale", "none", "--quiet", "--out", "-"}, args...)...)
		if err != nil || !strings.Contains(stderr, "predicted 10 unlabelled rows: a=5 b=5") || !strings.HasPrefix(stdout, "set,row,label,given\n") {
			t.Errorf("%v: %v\n%s\n%s", args, err, stdout, stderr)
		}
	}
	numbers := writeFile(t, dir, "n.csv", "7,2,?\n4,5,6\n8,8,1\n")
	_, _, err := arbor(t, "classify", "--data", numbers, "--no-header")
	if err == nil || strings.Count(err.Error(), "name") != 1 || !strings.Contains(err.Error(), "--label") {
		t.Errorf("no label column: %v", err)
	}
}
