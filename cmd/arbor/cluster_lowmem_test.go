package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/pipeline"
)

// TestClusterLowMemory: with a --max-memory below the N×N matrix, single,
// ward, centroid and median cluster the points in O(N·d) memory, complete,
// average and weighted on clusters of the exact tree, and they say so; the
// labels, the linkage matrix (heights within 1e-9 relative) and
// the cophenetic correlation equal the matrix path's.
func TestClusterLowMemory(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir) // 200 rows: matrix 320 KB, single 160 KB, points path ~42 KB
	for _, m := range []string{"ward", "centroid", "median", "single", "complete", "average", "weighted"} {
		run := func(tag string, extra ...string) (string, string, []string, [][]float64) {
			lab := filepath.Join(dir, m+tag+"-labels.csv")
			z := filepath.Join(dir, m+tag+"-Z.csv")
			args := append([]string{"cluster", "--data", train, "--linkage", m, "--clusters", "4", "--out", lab, "--linkage-out", z}, extra...)
			out, stderr, err := arbor(t, args...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", args, err, stderr)
			}
			raw, err := os.ReadFile(lab)
			if err != nil {
				t.Fatal(err)
			}
			return out, stderr, strings.Split(string(raw), "\n"), readCSVFloats(t, z)
		}
		outM, errM, labM, zM := run("matrix", "--max-memory", "1G")
		budget := "100K" // below the matrix (313 KiB), above the points path
		if m == "complete" || m == "average" || m == "weighted" {
			budget = "250K" // above the 40-NN lists (160 KB) and the cells' matrix
		}
		outL, errL, labL, zL := run("low", "--max-memory", budget)
		if strings.Contains(errM, "memory instead") || !strings.Contains(errL, m+" linkage: the N×N matrix needs about") || !strings.Contains(errL, "memory instead") {
			t.Fatalf("%s: stderr of the matrix run %q, of the low-memory run %q", m, errM, errL)
		}
		if strings.Join(labL, "\n") != strings.Join(labM, "\n") {
			t.Fatalf("%s: labels differ between the matrix and the low-memory path", m)
		}
		for k := range zM {
			a, b := zM[k], zL[k]
			if a[0] != b[0] || a[1] != b[1] || a[3] != b[3] || math.Abs(a[2]-b[2]) > 1e-9*math.Abs(a[2]) {
				t.Fatalf("%s: linkage row %d: %v on the matrix, %v low-memory", m, k, a, b)
			}
		}
		if line := func(s string) string { return s[strings.Index(s, "heights"):strings.Index(s, "wrote")] }; line(outM) != line(outL) {
			t.Fatalf("%s: output differs:\n%s\nvs\n%s", m, outM, outL)
		}
	}
	// A budget below even the low-memory paths: the memory error stays.
	for _, c := range [][]string{{"--linkage", "average", "--max-memory", "20K"}, {"--linkage", "ward", "--max-memory", "20K"}} {
		_, _, err := arbor(t, append([]string{"cluster", "--data", train, "--clusters", "2"}, c...)...)
		if !errors.Is(err, pipeline.ErrMemory) {
			t.Errorf("%v: err = %v, want the memory error", c, err)
		}
	}
}

func readCSVFloats(t *testing.T, path string) [][]float64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var row []float64
		for _, f := range strings.Split(line, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			row = append(row, v)
		}
		out = append(out, row)
	}
	return out
}
