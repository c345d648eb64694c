package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLandmarksAllRowsExact: with every row a landmark the Nyström features
// reproduce the kernel (Z·Zᵀ = K up to rounding and the clipped null
// space), and the landmark learners are the exact learners on Z·Zᵀ: the
// C-SVC with the linear kernel on Z (same C, loss, one-versus-one and
// intercept as the exact SVM) and kNN on Z (the kernel-induced distance).
// So classify --landmarks N labels every row as the exact classify does,
// for point kernels and for the cluster kernels (whose tree on N landmarks
// is the exact tree). With linsvm on Z (LIBLINEAR's problem) this failed for
// the linear kernel.
func TestLandmarksAllRowsExact(t *testing.T) {
	dir := t.TempDir()
	trainPath, testPath := moonsFiles(t, dir)
	for _, kern := range []string{"linear", "rbf:2", "poly:1:1:3", "hck:average", "hck:single", "hckg:average:knn:7", "connectivity"} {
		for _, learner := range [][]string{{"--learner", "svm"}, {"--learner", "svm", "--C", "100"}, {"--learner", "knn", "--k", "3"}} {
			for _, test := range []bool{false, true} {
				args := append([]string{"classify", "--data", trainPath, "--kernel", kern, "--scale", "none", "--quiet"}, learner...)
				if test {
					if kern == "hckg:average:knn:7" {
						continue // the exact graph kernel's rule for new points reads the training graph; the landmark one the landmark graph
					}
					args = append(args, "--test", testPath)
				}
				exact := filepath.Join(dir, "exact.csv")
				lm := filepath.Join(dir, "lm.csv")
				mustArbor(t, append(args, "--out", exact)...)
				mustArbor(t, append(args, "--out", lm, "--landmarks", "200")...)
				a, err := os.ReadFile(exact)
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(lm)
				if err != nil {
					t.Fatal(err)
				}
				if string(a) != string(b) {
					t.Errorf("%s %v test=%v: all rows as landmarks: predictions differ from the exact ones", kern, learner, test)
				}
			}
		}
	}
}

// TestLandmarksLabelledExact: the labelled rows are landmarks, and a
// Nyström kernel value against a landmark is the kernel's own (z(x)·z(l) =
// k_L(x)·K_LL⁻¹·k_L(l)ᵀ = k(x, l)). The SVM reads only such values
// (labelled × labelled to train, any row × labelled to predict), and so
// does kNN's ranking (‖z(x) − z(y)‖² = ‖z(x)‖² + k(y, y) − 2·k(x, y)), so
// with a point kernel the landmark learners label every row, and every
// --test row, as the exact ones do, with 30 landmarks for 200 rows.
func TestLandmarksLabelledExact(t *testing.T) {
	dir := t.TempDir()
	trainPath, testPath := moonsFiles(t, dir)
	for _, kern := range []string{"linear", "rbf:2", "poly:1:1:3", "laplacian:1"} {
		for _, learner := range [][]string{{"--learner", "svm"}, {"--learner", "svm", "--C", "100"}, {"--learner", "knn", "--k", "3"}} {
			for _, method := range []string{"kmeans", "random"} {
				args := append([]string{"classify", "--data", trainPath, "--test", testPath, "--kernel", kern, "--scale", "none", "--quiet"}, learner...)
				exact := filepath.Join(dir, "exact.csv")
				lm := filepath.Join(dir, "lm.csv")
				mustArbor(t, append(args, "--out", exact)...)
				_, stderr, err := arbor(t, append(args, "--out", lm, "--landmarks", "30", "--landmark-method", method, "--seed", "3")...)
				if err != nil {
					t.Fatal(err)
				}
				a, err := os.ReadFile(exact)
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(lm)
				if err != nil {
					t.Fatal(err)
				}
				if string(a) != string(b) {
					t.Errorf("%s %v %s: 30 landmarks with the 8 labelled rows: predictions differ from the exact ones", kern, learner, method)
				}
				if want := "landmarks 30 (the 8 labelled rows and 22 by " + method; !strings.Contains(stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr)
				}
			}
		}
	}
}
