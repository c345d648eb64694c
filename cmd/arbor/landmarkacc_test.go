package main

import (
	"os"
	"path/filepath"
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
