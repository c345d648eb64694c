package main

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// tiedData writes n rows of small integers: many equal distances, so that
// merge heights tie and SciPy's maxclust gives fewer clusters than asked.
func tiedData(t *testing.T, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 1))
	var b strings.Builder
	b.WriteString("a,b,c\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%d,%d\n", r.IntN(3), r.IntN(3), r.IntN(3))
	}
	p := filepath.Join(t.TempDir(), "tied.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readCSVFile(t *testing.T, p string) [][]string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestClusterCriterion: every --criterion gives the labels of hclust's Cut
// on the tree the command writes with --linkage-out (the cuts themselves
// are checked against SciPy's fcluster in package hclust), and on tied
// heights maxclust gives fewer clusters than nclusters, as fcluster does.
func TestClusterCriterion(t *testing.T) {
	data := tiedData(t, 60)
	dir := t.TempDir()
	cases := []struct {
		args []string
		cut  hclust.Cut
	}{
		{[]string{"--clusters", "6"}, hclust.Cut{Criterion: hclust.NClusters, K: 6}},
		{[]string{"--criterion", "maxclust", "--clusters", "6"}, hclust.Cut{Criterion: hclust.MaxClust, K: 6}},
		{[]string{"--height", "1"}, hclust.Cut{Criterion: hclust.Distance, T: 1}},
		{[]string{"--criterion", "inconsistent", "--threshold", "0.8"}, hclust.Cut{Criterion: hclust.Inconsistent, T: 0.8}},
		{[]string{"--criterion", "inconsistent", "--threshold", "0.8", "--depth", "3"}, hclust.Cut{Criterion: hclust.Inconsistent, T: 0.8, Depth: 3}},
		{[]string{"--criterion", "maxclust_monocrit", "--clusters", "4"}, hclust.Cut{Criterion: hclust.MaxClustMonocrit, K: 4}},
		{[]string{"--criterion", "monocrit", "--threshold", "1.1"}, hclust.Cut{Criterion: hclust.Monocrit, T: 1.1}},
	}
	counts := map[hclust.Criterion]int{}
	for i, c := range cases {
		out := filepath.Join(dir, fmt.Sprintf("labels%d.csv", i))
		z := filepath.Join(dir, fmt.Sprintf("z%d.csv", i))
		args := append([]string{"cluster", "--data", data, "--linkage", "single", "--quiet", "--out", out, "--linkage-out", z}, c.args...)
		mustArbor(t, args...)
		zr := readCSVFile(t, z)
		if len(zr) > 0 && zr[0][0] == "id1" {
			zr = zr[1:]
		}
		zm := mat.NewDense(len(zr), 4, nil)
		for r, rec := range zr {
			for j := 0; j < 4; j++ {
				v, err := strconv.ParseFloat(rec[j], 64)
				if err != nil {
					t.Fatalf("%s: %v", z, err)
				}
				zm.Set(r, j, v)
			}
		}
		tree, err := hclust.FromMatrix(zm)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tree.Cut(c.cut)
		if err != nil {
			t.Fatal(err)
		}
		got := readCSVFile(t, out)[1:]
		if len(got) != len(want) {
			t.Fatalf("%v: %d labels, want %d", c.args, len(got), len(want))
		}
		k := 0
		for r, rec := range got {
			l, err := strconv.Atoi(rec[len(rec)-1])
			if err != nil || l != want[r] {
				t.Fatalf("%v: row %d label %q, want %d", c.args, r, rec[len(rec)-1], want[r])
			}
			k = max(k, l+1)
		}
		counts[c.cut.Criterion] = k
	}
	if counts[hclust.NClusters] != 6 || counts[hclust.MaxClust] >= 6 {
		t.Errorf("nclusters gave %d clusters (want 6), maxclust %d (want fewer on tied heights)", counts[hclust.NClusters], counts[hclust.MaxClust])
	}
}

func TestClusterCriterionErrors(t *testing.T) {
	data := tiedData(t, 20)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--criterion", "maxclusts", "--clusters", "2"}, "--criterion"},
		{[]string{"--criterion", "maxclust"}, "needs --clusters"},
		{[]string{"--criterion", "distance", "--clusters", "2"}, "needs --height"},
		{[]string{"--criterion", "inconsistent", "--clusters", "2"}, "needs --threshold"},
		{[]string{"--criterion", "inconsistent", "--threshold", "1", "--depth", "0"}, "--depth"},
		{[]string{"--threshold", "1"}, "--threshold"},
		{[]string{"--clusters", "2", "--depth", "3"}, "--depth"},
		{[]string{"--criterion", "maxclust", "--clusters", "2", "--height", "1"}, "mutually exclusive"},
	} {
		_, _, err := arbor(t, append([]string{"cluster", "--data", data, "--quiet"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want it to mention %q", c.args, err, c.want)
		}
	}
}
