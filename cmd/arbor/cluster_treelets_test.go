package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClusterTreelets: `arbor cluster --method treelets` writes the very
// labels `arbor treelets` writes with the same settings: every row and a
// sample with both extensions, a point kernel and the missing-data kernel;
// its linkage matrix is the same too.
func TestClusterTreelets(t *testing.T) {
	dir := t.TempDir()
	moons := "two_moons" // embedded: 400 rows
	// a small CSV with missing cells: two groups
	miss := filepath.Join(dir, "m.csv")
	var b strings.Builder
	b.WriteString("a,b,c,class\n")
	for i := 0; i < 40; i++ {
		g := i % 2
		a, bb, c := itoa(g*6+i%3), itoa(g*6+(i+1)%3), itoa(g*6)
		switch i % 5 {
		case 1:
			a = ""
		case 2:
			bb = "NA"
		}
		b.WriteString(a + "," + bb + "," + c + ",k" + itoa(g) + "\n")
	}
	os.WriteFile(miss, []byte(b.String()), 0o644)
	cases := []struct {
		name string
		data []string // data and column flags
		opts []string // shared treelets settings
	}{
		{"moons-full", []string{"--data", moons, "--scale", "std"}, []string{"--kernel", "rbf:20", "--clusters", "2"}},
		{"moons-svm", []string{"--data", moons, "--scale", "std"}, []string{"--kernel", "rbf:20", "--sample", "120", "--seed", "3", "--clusters", "2"}},
		{"moons-knn-default-seed", []string{"--data", moons, "--scale", "std"}, []string{"--kernel", "poly:0.5:1:3", "--sample", "90", "--extend", "knn", "--clusters", "3", "--similarity", "raw"}},
		{"missing", []string{"--data", miss, "--label", "class"}, []string{"--kernel", "rbf-missing:2", "--clusters", "2", "--lambda", "0.1", "--similarity", "signed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lt, lc := filepath.Join(dir, c.name+"-t.csv"), filepath.Join(dir, c.name+"-c.csv")
			zt, zc := filepath.Join(dir, c.name+"-zt.csv"), filepath.Join(dir, c.name+"-zc.csv")
			args := append(append([]string{"treelets"}, c.data...), c.opts...)
			mustArbor(t, append(args, "--out", lt, "--linkage-out", zt, "--quiet")...)
			args = append(append([]string{"cluster", "--method", "treelets"}, c.data...), c.opts...)
			out := mustArbor(t, append(args, "--out", lc, "--linkage-out", zc, "--quiet")...)
			if !strings.Contains(out, "ARI ") {
				t.Errorf("no ARI against the labels:\n%s", out)
			}
			for _, f := range [][2]string{{lt, lc}, {zt, zc}} {
				bt, _ := os.ReadFile(f[0])
				bc, _ := os.ReadFile(f[1])
				if len(bt) == 0 || !bytes.Equal(bt, bc) {
					t.Errorf("%s and %s differ (or are empty)", filepath.Base(f[0]), filepath.Base(f[1]))
				}
			}
		})
	}
	// a cut by height on every row: the K of the same height
	out := mustArbor(t, "cluster", "--method", "treelets", "--data", moons, "--scale", "std", "--kernel", "rbf:20", "--height", "0.9999", "--quiet")
	if !strings.Contains(out, "clusters   2,") {
		t.Errorf("--height 0.9999:\n%s", out)
	}
}

// TestClusterTreeletsBadFlags: each method's flags are refused with the
// other, and the treelets settings are checked before any work.
func TestClusterTreeletsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--data", "iris", "--method", "treelets", "--linkage", "ward", "--kernel", "linear", "--clusters", "2"},
		{"--data", "iris", "--method", "treelets", "--clusters", "2"},
		{"--data", "iris", "--kernel", "linear", "--clusters", "2"},
		{"--data", "iris", "--method", "kmeans", "--clusters", "2"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--lambda", "-1", "--clusters", "2"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--sample", "1", "--clusters", "2"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--sample", "151", "--clusters", "2"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--sample", "50"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--sample", "50", "--height", "0.5"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--clusters", "151"},
		{"--data", "iris", "--method", "treelets", "--kernel", "linear", "--similarity", "cos", "--clusters", "2"},
		{"--data", "iris", "--method", "treelets", "--kernel", "hck:average", "--clusters", "2"},
	} {
		_, _, err := arbor(t, append([]string{"cluster"}, args...)...)
		if !errors.Is(err, errUsage) {
			t.Errorf("cluster %s: err = %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}
