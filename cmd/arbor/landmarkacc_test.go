package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/graph"
	"gonum.org/v1/gonum/mat"
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
//
// The graph variants (hckg) take their geodesics from the landmarks over
// the graph of all rows, its components joined by paper 000 Eq. 4 as the
// exact kernel joins them: the second data set (moons with a third of the
// rows moved away) has a disconnected 7-NN graph, and new points (jittered
// rows) enter through their graph neighbours as in the exact rule.
func TestLandmarksAllRowsExact(t *testing.T) {
	dir := t.TempDir()
	trainPath, testPath := moonsFiles(t, dir)
	splitTrain, splitTest := splitMoonsFiles(t, dir)
	type set struct{ train, test string }
	for _, kern := range []string{"linear", "rbf:2", "poly:1:1:3", "hck:average", "hck:ward", "hck:single", "hckg:average:knn:7", "connectivity", "split hckg:average:knn:7", "split hckg:single:knn:7"} {
		files := set{trainPath, testPath}
		if k, ok := strings.CutPrefix(kern, "split "); ok {
			kern, files = k, set{splitTrain, splitTest}
		}
		for _, learner := range [][]string{{"--learner", "svm"}, {"--learner", "svm", "--C", "100"}, {"--learner", "knn", "--k", "3"}} {
			for _, test := range []bool{false, true} {
				args := append([]string{"classify", "--data", files.train, "--kernel", kern, "--scale", "none", "--quiet"}, learner...)
				if test {
					args = append(args, "--test", files.test)
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
					t.Errorf("%s %s %v test=%v: all rows as landmarks: predictions differ from the exact ones", files.train, kern, learner, test)
				}
			}
		}
	}
}

// splitMoonsFiles writes two moons (200 rows, 4 labelled per class) with
// every third row moved by (6, 4), so that the 7-NN graph has several
// components, and as test rows the rows moved by 0.01·(sin i, cos i).
func splitMoonsFiles(t *testing.T, dir string) (string, string) {
	t.Helper()
	ds := dataset.Moons(200, 0.1, 5)
	var train, test strings.Builder
	train.WriteString("f1,f2,label\n")
	test.WriteString("f1,f2\n")
	seen := map[int]int{}
	X := mat.NewDense(ds.Len(), 2, nil)
	for i := 0; i < ds.Len(); i++ {
		r := ds.X.RawRowView(i)
		x, y := r[0], r[1]
		if i%3 == 0 {
			x, y = x+6, y+4
		}
		X.Set(i, 0, x)
		X.Set(i, 1, y)
		lab := ""
		if seen[ds.Y[i]] < 4 {
			seen[ds.Y[i]]++
			lab = fmt.Sprint(ds.Y[i])
		}
		fmt.Fprintf(&train, "%v,%v,%s\n", x, y, lab)
		fmt.Fprintf(&test, "%v,%v\n", x+0.01*math.Sin(float64(i)), y+0.01*math.Cos(float64(i)))
	}
	trainPath := filepath.Join(dir, "split.csv")
	testPath := filepath.Join(dir, "split-test.csv")
	for p, s := range map[string]string{trainPath: train.String(), testPath: test.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if g, err := graph.KNN(context.Background(), X, 7); err != nil {
		t.Fatal(err)
	} else if nc, _ := g.Components(); nc < 2 {
		t.Fatalf("split moons: the 7-NN graph has %d component, want several", nc)
	}
	return trainPath, testPath
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
	for _, kern := range []string{"linear", "rbf:2", "rbf:scale", "poly:1:1:3", "laplacian:1"} {
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
