package main

import (
	"strings"
	"testing"
)

// TestLandmarksSingleAllRows: with --landmarks, hck:single and
// connectivity take the single-linkage tree of all rows (Prim, O(N)
// memory), so with the labelled rows among the landmarks the SVM and kNN
// label every row exactly as the exact N×N kernel does.
func TestLandmarksSingleAllRows(t *testing.T) {
	dir := t.TempDir()
	trainPath, _ := moonsFiles(t, dir)
	for _, kern := range []string{"hck:single", "connectivity"} {
		for _, learner := range [][]string{{"--learner", "svm"}, {"--learner", "svm", "--C", "100"}, {"--learner", "knn", "--k", "3"}} {
			args := append([]string{"classify", "--data", trainPath, "--kernel", kern, "--scale", "none", "--quiet", "--out", "-"}, learner...)
			exact := mustArbor(t, args...)
			for _, m := range []string{"20", "60"} {
				noQuiet := append([]string{}, args...)
				for i, a := range noQuiet {
					if a == "--quiet" {
						noQuiet = append(noQuiet[:i], noQuiet[i+1:]...)
						break
					}
				}
				got, stderr, err := arbor(t, append(noQuiet, "--landmarks", m, "--seed", "5")...)
				if err != nil {
					t.Fatal(err)
				}
				if got != exact {
					t.Errorf("%s %v, %s landmarks: labels differ from the exact kernel's", kern, learner, m)
				}
				if !strings.Contains(stderr, "single-linkage tree of all") {
					t.Errorf("stderr does not name the tree of all rows:\n%s", stderr)
				}
			}
		}
	}
}
