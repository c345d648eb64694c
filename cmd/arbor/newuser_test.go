package main

// Findings of a new user's pass over the CLI with files it had not seen
// (notes/newuser.md): each test failed before its fix.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// --quiet silences the data-reading notice, keeps its warnings, and never
// hides an error.
func TestQuietSilencesDataNotice(t *testing.T) {
	dir := t.TempDir()
	// An ID-like first column (warned about), a class column, 24 rows.
	var b strings.Builder
	b.WriteString("n,x1,x2,label\n")
	for i := 0; i < 24; i++ {
		lab := []string{"a", "b", "?"}[i%3]
		b.WriteString(strings.Join([]string{strconv.Itoa(i + 1), strconv.Itoa(i % 5), strconv.Itoa((i * 7) % 11), lab}, ",") + "\n")
	}
	data := writeFile(t, dir, "d.csv", b.String())
	out := filepath.Join(dir, "p.csv")
	for _, cmd := range [][]string{
		{"classify", "--data", data, "--kernel", "linear", "--learner", "knn", "--out", out},
		{"cluster", "--data", data, "--clusters", "2", "--out", out},
		{"kernel", "--data", data, "--kernel", "linear", "--out", filepath.Join(dir, "K.csv")},
	} {
		_, stderr, err := arbor(t, append(cmd, "--quiet")...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd[0], err, stderr)
		}
		if strings.Contains(stderr, "data: ") || strings.Contains(stderr, "features  ") {
			t.Errorf("%s --quiet printed the data notice:\n%s", cmd[0], stderr)
		}
		if !strings.Contains(stderr, `warning: feature column "n" looks like a row ID`) {
			t.Errorf("%s --quiet dropped the ID-column warning:\n%s", cmd[0], stderr)
		}
		_, loud, err := arbor(t, cmd...)
		if err != nil || !strings.Contains(loud, "data: "+data) {
			t.Errorf("%s without --quiet: no data notice (%v):\n%s", cmd[0], err, loud)
		}
	}
	// Errors still reach the user.
	bad := writeFile(t, dir, "bad.csv", "x1,x2,label\n1,2,a\n3,oops,b\n4,5,a\n")
	_, _, err := arbor(t, "cluster", "--data", bad, "--clusters", "2", "--out", out, "--quiet")
	if err == nil || !strings.Contains(err.Error(), `bad.csv:3: column "x2"`) {
		t.Errorf("--quiet on a bad file: %v, want the file, line and column", err)
	}
}

// kNN with a point kernel labels the rows from the query × labelled kernel
// values only (knnpoints.go) and gives the Gram path's labels, ties
// included: an integer grid makes many equal distances and tied votes.
func TestKNNOnPointsEqualsGram(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,y,label\n")
	n := 0
	var X []float64
	var y []int
	for i := 0; i < 9; i++ {
		for j := 0; j < 7; j++ {
			lab, c := "?", learner.Unlabeled
			if (i*7+j)%4 == 0 {
				c = (i/3 + j/4) % 3
				lab = strconv.Itoa(c)
			}
			fmt.Fprintf(&b, "%d,%d,%s\n", i, j, lab)
			X = append(X, float64(i), float64(j))
			y = append(y, c)
			n++
		}
	}
	data := writeFile(t, dir, "grid.csv", b.String())
	Xm := mat.NewDense(n, 2, X)
	ctx := context.Background()
	for _, kern := range []string{"linear", "rbf:0.3", "laplacian:0.5", "poly:0.5:1:2"} {
		specs, err := kernel.ParseSpecs(kern)
		if err != nil {
			t.Fatal(err)
		}
		built, err := kernel.BuildAll(ctx, Xm, specs, kernel.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 4} {
			for _, w := range []string{"uniform", "distance", "similarity"} {
				want, _, err := ssl.Transduce(ctx, learner.Adapt("knn", knn.Classifier{K: k, Weights: w}), ssl.Problem{X: Xm, K: built[0].K, Y: y})
				if err != nil {
					t.Fatal(err)
				}
				out := mustArbor(t, "classify", "--data", data, "--scale", "none", "--kernel", kern, "--learner", "knn",
					"--k", strconv.Itoa(k), "--weights", w, "--quiet")
				lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
				if len(lines) != n {
					t.Fatalf("%d prediction lines, want %d", len(lines), n)
				}
				for i, l := range lines {
					f := strings.Split(l, ",")
					if f[2] != strconv.Itoa(want[i]) {
						t.Errorf("%s k=%d %s: row %d labelled %s, Gram path %d", kern, k, w, i, f[2], want[i])
						break
					}
				}
			}
		}
	}
}

// kNN with a point kernel needs no N×N matrix: under a budget the N×N
// Gram matrix would exceed (3,000 rows: 72 MB), classify still runs.
func TestKNNOnPointsMemory(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,c,label\n")
	for i := 0; i < 3000; i++ {
		lab := "?"
		if i%50 == 0 {
			lab = strconv.Itoa(i % 3)
		}
		fmt.Fprintf(&b, "%d,%d,%d,%s\n", i%17, i%13, i%11, lab)
	}
	data := writeFile(t, dir, "big.csv", b.String())
	out := filepath.Join(dir, "p.csv")
	if _, stderr, err := arbor(t, "classify", "--data", data, "--kernel", "rbf", "--learner", "knn", "--k", "3",
		"--max-memory", "20M", "--out", out, "--quiet"); err != nil {
		t.Fatalf("knn under a 20 MB budget: %v\n%s", err, stderr)
	}
	// The exact path's budget check still holds: an N×N kernel does not fit.
	if _, _, err := arbor(t, "classify", "--data", data, "--kernel", "hck:average", "--learner", "knn",
		"--max-memory", "20M", "--out", out, "--quiet"); err == nil || !strings.Contains(err.Error(), "not enough memory") {
		t.Errorf("hck knn under a 20 MB budget: %v, want not enough memory", err)
	}
}

// classify --kernel rbf --learner svm resolves rbf:scale on the labelled
// rows, as scikit-learn's SVC(gamma="scale").fit(X_l, y_l) and arbor eval
// do: labelled (0,0) (2,0) (0,2) (2,2) have Var = 1, so γ = 1/(2·1) = 0.5;
// over all rows (with the unlabelled ±10s) it would be 1/(2·Var) ≈ 0.0196.
func TestClassifySVMScaleGammaFromLabelled(t *testing.T) {
	data := writeFile(t, t.TempDir(), "g.csv", "x,y,label\n0,0,a\n2,0,b\n0,2,a\n2,2,b\n10,10,?\n-10,-10,?\n10,-10,?\n-10,10,?\n")
	_, info, err := arbor(t, "classify", "--data", data, "--scale", "none", "--kernel", "rbf", "--learner", "svm")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info, "kernel   rbf:scale (gamma 0.5)\n") {
		t.Errorf("want gamma 0.5 (labelled rows):\n%s", info)
	}
}

// A file with an ID, a date, a note and a class column names all four in
// one error (it took four runs), with roles to try; roles already given
// are not suggested again.
func TestTextColumnsNamedAtOnce(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "p.csv", "patient id,visit date,x1,note,x2,diagnosis\n"+
		"P1,2020-01-01,1,\"ok, checked\",2,benign\nP2,2020-01-02,3,seen,4,malignant\nP3,2020-01-03,5,x,1,benign\n")
	out := filepath.Join(dir, "o.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, `p.csv:2: column "patient id": not a number "P1"; columns "patient id", "visit date", "note" and "diagnosis" hold text on that line: ` +
			`give each a role (--id NAME keeps one as row IDs, --ignore A,B skips columns, --label NAME makes one the classes), e.g. --id 'patient id' --ignore 'visit date,note' --label diagnosis`},
		{[]string{"--id", "patient id", "--label", "diagnosis"}, `e.g. --ignore 'visit date,note'`},
	} {
		_, _, err := arbor(t, append([]string{"cluster", "--data", data, "--clusters", "2", "--out", out}, c.args...)...)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%q: %v\nwant suffix %s", c.args, err, c.want)
		}
	}
	// The suggestion works.
	mustArbor(t, "cluster", "--data", data, "--clusters", "2", "--out", out, "--quiet",
		"--id", "patient id", "--ignore", "visit date,note", "--label", "diagnosis")
}

// Summary lines list at most 12 cluster sizes: cluster --clusters 40 on 60
// rows printed all 40.
func TestSizesElided(t *testing.T) {
	if got := sizesText([]int{3, 1, 2}); got != "[3 1 2]" {
		t.Errorf("3 sizes: %s", got)
	}
	sizes := make([]int, 228)
	for i := range sizes {
		sizes[i] = 1
	}
	sizes[5], sizes[100] = 2772, 2
	if got := sizesText(sizes); got != "[2772 2 1 1 1 1 1 1 1 1 … 218 more]" {
		t.Errorf("228 sizes: %s", got)
	}
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i*i, i%7)
	}
	data := writeFile(t, t.TempDir(), "s.csv", b.String())
	out := mustArbor(t, "cluster", "--data", data, "--clusters", "40", "--quiet")
	if !strings.Contains(out, "clusters   40, sizes [") || !strings.Contains(out, " … 30 more]") {
		t.Errorf("cluster summary:\n%s", out)
	}
}

// classify --ties lowest gives scikit-learn's KNeighborsClassifier labels
// (knn/testdata/ties_sklearn.py), the default the reference pipeline's.
func TestClassifyTiesLowest(t *testing.T) {
	fix := filepath.Join("..", "..", "knn", "testdata", "ties_sklearn.csv")
	b, err := os.ReadFile(fix)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	for _, c := range []struct {
		ties string
		col  int // uniform4
		same bool
	}{{"lowest", 5, true}, {"nearest", 5, false}} {
		out := mustArbor(t, "classify", "--data", fix, "--features", "x1..x3", "--label", "y", "--unlabeled-marker", "-1",
			"--scale", "none", "--learner", "knn", "--k", "4", "--ties", c.ties, "--quiet")
		lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
		differ := 0
		for i, l := range lines {
			f, want := strings.Split(l, ","), strings.Split(rows[i], ",")
			if want[3] == "-1" && f[2] != want[c.col] {
				differ++
			}
		}
		if (differ == 0) != c.same {
			t.Errorf("--ties %s: %d unlabelled rows differ from scikit-learn", c.ties, differ)
		}
	}
	if _, _, err := arbor(t, "classify", "--data", fix, "--label", "y", "--learner", "svm", "--ties", "lowest"); err == nil {
		t.Error("--ties with svm: no error")
	}
}

// lp and spreading on the default kNN affinity are sparse: 3,000 rows run
// under a 20 MB budget (they were estimated at 2·8N² = 144 MB and
// refused); the dense rbf affinity is still refused.
func TestPropagationKNNMemory(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,c,label\n")
	for i := 0; i < 3000; i++ {
		lab := "?"
		if i%50 == 0 {
			lab = strconv.Itoa(i % 3)
		}
		fmt.Fprintf(&b, "%g,%g,%d,%s\n", float64(i%17)+float64(i)/7000, float64(i%13), i%11, lab)
	}
	data := writeFile(t, dir, "big.csv", b.String())
	out := filepath.Join(dir, "p.csv")
	for _, l := range []string{"lp", "spreading"} {
		if _, stderr, err := arbor(t, "classify", "--data", data, "--learner", l, "--max-memory", "20M", "--out", out, "--quiet"); err != nil {
			t.Errorf("%s on knn:10 under 20 MB: %v\n%s", l, err, stderr)
		}
		if _, _, err := arbor(t, "classify", "--data", data, "--learner", l, "--affinity", "rbf:1", "--max-memory", "20M", "--out", out, "--quiet"); err == nil || !strings.Contains(err.Error(), "not enough memory") {
			t.Errorf("%s on rbf:1 under 20 MB: %v, want not enough memory", l, err)
		}
	}
}

// The iterative propagation's "not converged" warning says what to do.
func TestNotConvergedWarningHint(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,label\n")
	for i := 0; i < 30; i++ {
		lab := "?"
		if i == 0 {
			lab = "a"
		} else if i == 29 {
			lab = "b"
		}
		fmt.Fprintf(&b, "%d,%s\n", i, lab)
	}
	data := writeFile(t, t.TempDir(), "chain.csv", b.String())
	_, stderr, err := arbor(t, "classify", "--data", data, "--learner", "lp", "--affinity", "knn:3", "--max-iter", "3", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "not converged: MaxIter = 3 reached") || !strings.Contains(stderr, "--method closed") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
