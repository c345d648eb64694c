package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLandmarksScaleGamma: rbf:scale resolves gamma = 1/(d·Var) on the
// labelled rows in the landmark path as in the exact SVM path (and
// scikit-learn's SVC(gamma="scale") fitted on the labelled points). The
// file makes the two variances differ by a factor of ~100 (8 labelled rows
// in a small cluster, 200 unlabelled spread wide), so gamma on all rows
// labels the rows differently (before the fix: 81/119 against 185/15).
// With the labelled rows among the landmarks the landmark SVM and kNN then
// label every row as the exact ones, and classify reports the same gamma.
func TestLandmarksScaleGamma(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var b, full strings.Builder // full: every row labelled (by the sign of f1), for eval
	b.WriteString("f1,f2,label\n")
	full.WriteString("f1,f2,label\n")
	for i := 0; i < 200; i++ {
		x, y := 3*rng.NormFloat64(), 3*rng.NormFloat64()
		fmt.Fprintf(&b, "%.4f,%.4f,\n", x, y)
		c := 0
		if x > 0 {
			c = 1
		}
		fmt.Fprintf(&full, "%.4f,%.4f,%d\n", x, y, c)
	}
	for c, cx := range []float64{-0.3, 0.3} {
		for j := 0; j < 4; j++ {
			row := fmt.Sprintf("%.4f,%.4f,%d\n", cx+0.1*rng.NormFloat64(), 0.1*rng.NormFloat64(), c)
			b.WriteString(row)
			full.WriteString(row)
		}
	}
	data, fullData := filepath.Join(dir, "d.csv"), filepath.Join(dir, "full.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fullData, []byte(full.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	gammaRe := regexp.MustCompile(`gamma ([0-9.e+-]+)`)
	for _, learner := range [][]string{{"--learner", "svm"}, {"--learner", "knn", "--k", "3"}} {
		args := append([]string{"classify", "--data", data, "--kernel", "rbf:scale", "--scale", "none"}, learner...)
		exact, lm := filepath.Join(dir, "exact.csv"), filepath.Join(dir, "lm.csv")
		outE := mustArbor(t, append(args, "--out", exact)...)
		outL := mustArbor(t, append(args, "--out", lm, "--landmarks", "30")...)
		a, err := os.ReadFile(exact)
		if err != nil {
			t.Fatal(err)
		}
		c, err := os.ReadFile(lm)
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(c) {
			t.Errorf("%v rbf:scale: landmark predictions differ from the exact ones", learner)
		}
		if learner[1] != "svm" {
			continue // exact kNN resolves rbf:scale on all rows; its neighbours do not depend on gamma
		}
		ge, gl := gammaRe.FindStringSubmatch(outE), gammaRe.FindStringSubmatch(outL)
		if ge == nil || gl == nil || ge[1] != gl[1] {
			t.Errorf("%v rbf:scale: gamma exact %v, landmarks %v\n%s\n%s", learner, ge, gl, outE, outL)
		}
	}
	// eval: the same split (the 8 labelled rows), both learners in one run.
	splits := filepath.Join(dir, "splits.csv")
	if err := os.WriteFile(splits, []byte("200,201,202,203,204,205,206,207\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", "--data", fullData, "--splits", splits, "--kernel", "rbf:scale", "--scale", "none", "--learner", "svm,knn", "--k", "3", "--json", "--quiet"}
	accs := func(out string) []string {
		return regexp.MustCompile(`"accuracy": ?([0-9.e+-]+)`).FindAllString(out, -1)
	}
	ae, al := accs(mustArbor(t, args...)), accs(mustArbor(t, append(args, "--landmarks", "30")...))
	if len(ae) != 2 || fmt.Sprint(ae) != fmt.Sprint(al) {
		t.Errorf("eval rbf:scale svm,knn: exact accuracies %v, landmarks %v", ae, al)
	}
}
