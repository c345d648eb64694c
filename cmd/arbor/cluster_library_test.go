package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
)

// TestClusterLibraryEqualsCommandLine: clustering.Fit with the settings of
// arbor cluster's flags gives the labels and linkage matrix the command
// writes, on every path (matrix, graph, float32, landmarks, without the
// matrix under --max-memory).
func TestClusterLibraryEqualsCommandLine(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir)
	ds, err := dataset.Load(train, dataset.CSVOptions{Label: "label"})
	if err != nil {
		t.Fatal(err)
	}
	cut := &hclust.Cut{Criterion: hclust.NClusters, K: 4, Depth: 2}
	for i, c := range []struct {
		flags []string
		s     clustering.Settings
	}{
		{[]string{"--linkage", "average"}, clustering.Settings{Linkage: hclust.Average}},
		{[]string{"--linkage", "complete", "--distance", "graph", "--graph", "knn:5"}, clustering.Settings{Linkage: hclust.Complete, Distance: "graph", Graph: "knn:5"}},
		{[]string{"--linkage", "weighted", "--float32"}, clustering.Settings{Linkage: hclust.Weighted, Float32: true}},
		{[]string{"--linkage", "ward", "--landmarks", "50", "--seed", "3"}, clustering.Settings{Linkage: hclust.Ward, Landmarks: 50, Seed: 3}},
		{[]string{"--linkage", "median", "--max-memory", "100K"}, clustering.Settings{Linkage: hclust.Median, Budget: 100 << 10}},
	} {
		lab, z := filepath.Join(dir, fmt.Sprint(i, "labels.csv")), filepath.Join(dir, fmt.Sprint(i, "Z.csv"))
		mustArbor(t, append([]string{"cluster", "--data", train, "--label", "label", "--clusters", "4", "--out", lab, "--linkage-out", z, "--quiet"}, c.flags...)...)
		c.s.Cut, c.s.Cophenetic = cut, true
		r, err := clustering.Fit(context.Background(), c.s, ds.X)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		if err := ds.WriteLabels(&want, "cluster", r.Labels); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(lab)
		if string(got) != want.String() {
			t.Errorf("%v: the labels differ from clustering.Fit", c.flags)
		}
		zw := filepath.Join(dir, fmt.Sprint(i, "Zlib.csv"))
		f, _ := os.Create(zw)
		if err := dataset.WriteMatrix(context.Background(), f, r.Tree.Matrix(), dataset.MatrixCSV); err != nil {
			t.Fatal(err)
		}
		f.Close()
		a, _ := os.ReadFile(z)
		b, _ := os.ReadFile(zw)
		if string(a) != string(b) {
			t.Errorf("%v: the linkage matrix differs from clustering.Fit", c.flags)
		}
	}
}
