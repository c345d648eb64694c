package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/svcluster"
	"github.com/arbor-ml/arbor/treelets"
)

// TestTreeletsLibraryEqualsCommandLine: treelets.Sample.FitGap gives the
// labels and levels arbor treelets writes, with K chosen by the gap and
// with a sample extended by kNN.
func TestTreeletsLibraryEqualsCommandLine(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	g := kernel.Points{K: kernel.RBF{Gamma: 0.5}, X: ds.X}
	for _, c := range []struct {
		flags []string
		s     treelets.Sample
	}{
		{nil, treelets.Sample{M: 150, Seed: 1}},
		{[]string{"--sample", "60", "--extend", "knn", "--seed", "4"}, treelets.Sample{M: 60, Seed: 4, Extend: treelets.ExtendKNN}},
	} {
		dir := t.TempDir()
		lab, lev := filepath.Join(dir, "labels.csv"), filepath.Join(dir, "levels.csv")
		mustArbor(t, append([]string{"treelets", "--data", "iris", "--kernel", "rbf:0.5", "--out", lab, "--levels-out", lev, "--quiet"}, c.flags...)...)
		r, _, err := c.s.FitGap(ctx, g, 50)
		if err != nil {
			t.Fatal(err)
		}
		var want, wantLev strings.Builder
		ds.WriteLabels(&want, "cluster", r.Labels)
		r.Model.WriteLevels(&wantLev, func(i int) int64 { return int64(r.Rows[i]) })
		got, _ := os.ReadFile(lab)
		gotLev, _ := os.ReadFile(lev)
		if string(got) != want.String() || string(gotLev) != wantLev.String() {
			t.Errorf("%v: labels or levels differ from treelets.Sample.FitGap", c.flags)
		}
	}
}

// TestSVCLibraryEqualsCommandLine: svcluster.Clusterer on the landmark rows
// and svcluster.Extend give the labels arbor svc --landmarks writes.
func TestSVCLibraryEqualsCommandLine(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	X, err := svcluster.PCA(nil, ds.X, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, noise := range []bool{false, true} {
		lab := filepath.Join(t.TempDir(), "labels.csv")
		args := []string{"svc", "--data", "iris", "--pca", "2", "--q", "2", "--C", "0.1", "--landmarks", "60", "--seed", "2", "--out", lab, "--quiet"}
		if noise {
			args = append(args, "--noise")
		}
		mustArbor(t, args...)
		rows, err := landmark.Choose(ctx, X, 60, landmark.KMeans, 2)
		if err != nil {
			t.Fatal(err)
		}
		res, err := svcluster.Clusterer{Q: 2, C: 0.1, Unassigned: noise}.Fit(ctx, clustering.Rows(X, rows))
		if err != nil {
			t.Fatal(err)
		}
		all, _, err := svcluster.Extend(ctx, res, X, rows, noise)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		ds.WriteLabels(&want, "cluster", all.Labels)
		if got, _ := os.ReadFile(lab); string(got) != want.String() {
			t.Errorf("--noise %v: labels differ from svcluster.Extend", noise)
		}
	}
}
