package main

import (
	"strings"
	"testing"
)

// TestLandmarksGraphSingleAllRows: hckg:single with --landmarks takes the
// single-linkage tree of ALL rows on the 7-NN graph joined by Eq. 4 (its
// minimum spanning tree: single linkage on geodesics is single linkage on
// the edges), so with the labelled rows among 20 or 60 landmarks of 200
// the SVM and kNN label every row as the exact N×N kernel does, on a graph
// of several components.
func TestLandmarksGraphSingleAllRows(t *testing.T) {
	dir := t.TempDir()
	trainPath, _ := splitMoonsFiles(t, dir)
	for _, learner := range [][]string{{"--learner", "svm"}, {"--learner", "svm", "--C", "100"}, {"--learner", "knn", "--k", "3"}} {
		args := append([]string{"classify", "--data", trainPath, "--kernel", "hckg:single:knn:7", "--scale", "none", "--out", "-"}, learner...)
		exact := mustArbor(t, append(args, "--quiet")...)
		for _, m := range []string{"20", "60"} {
			got, stderr, err := arbor(t, append(args, "--landmarks", m, "--seed", "5")...)
			if err != nil {
				t.Fatal(err)
			}
			if got != exact {
				t.Errorf("%v, %s landmarks: labels differ from the exact kernel's", learner, m)
			}
			if !strings.Contains(stderr, "single-linkage tree of all") || !strings.Contains(stderr, "joined by paper 000 Eq. 4") {
				t.Errorf("stderr does not name the tree of all rows and the joins:\n%s", stderr)
			}
		}
	}
}
