package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/internal/npy"
)

// messyTSV is a tab-separated training file of n rows: an ID column, four
// features with a few empty cells, string classes ("setosa-like" names)
// on every row with i%lab == 0, the others empty; and a file of new
// points with the columns in another order.
func messyTSV(t *testing.T, dir string, n, lab int) (train, test string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 9))
	classes := []string{"alpha one", "beta", "gamma-2"}
	var tr, te strings.Builder
	tr.WriteString("sample\tf1\tf2\tclass\tf3\tf4\n")
	te.WriteString("f4,f3,f2,f1,sample\n")
	for i := 0; i < n; i++ {
		c := i % 3
		v := make([]string, 4)
		for j := range v {
			v[j] = ftoa(float64(2*c+j%2) + rng.NormFloat64())
			if (4*i+j)%53 == 7 {
				v[j] = ""
			}
		}
		cls := ""
		if i%lab == 0 {
			cls = classes[c]
		}
		fmt.Fprintf(&tr, "s%03d\t%s\t%s\t%s\t%s\t%s\n", i, v[0], v[1], cls, v[2], v[3])
		if i%5 == 0 {
			fmt.Fprintf(&te, "%s,%s,%s,%s,new%d\n", ftoa(rng.NormFloat64()+1), ftoa(rng.NormFloat64()+3), ftoa(rng.NormFloat64()+2), ftoa(rng.NormFloat64()), i)
		}
	}
	return writeFile(t, dir, "train.tsv", tr.String()), writeFile(t, dir, "new.csv", te.String())
}

// TestFeaturesCommand: arbor features writes, for the rows of the training
// file, the landmark features arbor kernel --landmarks writes for the same
// rows, map and landmarks (bit for bit: the fit's own features); the IDs
// are carried; .npy holds the same numbers; and kNN on the features the
// command writes (the vote shares among the K nearest labelled rows by
// Euclidean distance, computed here) gives the --test rows the
// probabilities classify --learner knn --proba gave them.
func TestFeaturesCommand(t *testing.T) {
	dir := t.TempDir()
	train, test := messyTSV(t, dir, 150, 1)
	model, fit := filepath.Join(dir, "lm.arbor"), filepath.Join(dir, "fit.csv")
	zTrain, zTest, zKernel := filepath.Join(dir, "z.csv"), filepath.Join(dir, "zt.csv"), filepath.Join(dir, "zk.csv")
	common := []string{"--data", train, "--id", "sample", "--landmarks", "20", "--kernel", "rbf:0.4", "--impute", "mean", "--scale", "std", "--quiet"}
	mustArbor(t, append([]string{"classify", "--label", "class", "--learner", "knn", "--k", "5", "--proba", "--test", test,
		"--save-model", model, "--out", fit}, common...)...)
	mustArbor(t, append([]string{"kernel", "--label", "class", "--out", zKernel}, common...)...)
	mustArbor(t, "features", "--model", model, "--data", train, "--out", zTrain, "--quiet")
	mustArbor(t, "features", "--model", model, "--data", test, "--out", zTest, "--quiet")

	got, want := readCSV(t, zTrain), readCSVFile(t, zKernel)
	r := len(want[0])
	head := []string{"row", "sample"}
	for j := 1; j <= r; j++ {
		head = append(head, "z"+strconv.Itoa(j))
	}
	if !slices.Equal(got[0], head) {
		t.Fatalf("header %q, want %q", got[0], head)
	}
	if len(got)-1 != len(want) {
		t.Fatalf("%d rows of features, kernel --landmarks wrote %d", len(got)-1, len(want))
	}
	for i, rec := range got[1:] {
		if rec[0] != strconv.Itoa(i) || rec[1] != fmt.Sprintf("s%03d", i) {
			t.Fatalf("row %d starts %q", i, rec[:2])
		}
		for j := range r {
			if a, b := parse(t, rec[2+j]), parse(t, want[i][j]); a != b {
				t.Fatalf("row %d z%d = %v, kernel --landmarks %v", i, j+1, a, b)
			}
		}
	}

	npyPath := filepath.Join(dir, "z.npy")
	mustArbor(t, "features", "--model", model, "--data", train, "--out", npyPath, "--quiet")
	f, err := os.Open(npyPath)
	if err != nil {
		t.Fatal(err)
	}
	Z, err := npy.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rows, cols := Z.Dims(); rows != len(want) || cols != r {
		t.Fatalf(".npy %d×%d, want %d×%d", rows, cols, len(want), r)
	}
	for i := range want {
		for j := range r {
			if Z.At(i, j) != parse(t, want[i][j]) {
				t.Fatalf(".npy row %d z%d = %v, want %s", i, j+1, Z.At(i, j), want[i][j])
			}
		}
	}

	// kNN by hand on the written features.
	classes := []string{"alpha one", "beta", "gamma-2"}
	label := map[string]int{}
	for _, rec := range readCSV(t, fit)[1:] {
		if rec[0] == "data" {
			label[rec[2]] = slices.Index(classes, rec[3])
		}
	}
	rows := func(recs [][]string) [][]float64 {
		var out [][]float64
		for _, rec := range recs[1:] {
			z := make([]float64, r)
			for j := range r {
				z[j] = parse(t, rec[2+j])
			}
			out = append(out, z)
		}
		return out
	}
	ztr, zte := rows(got), rows(readCSV(t, zTest))
	var fitTest [][]string
	for _, rec := range readCSV(t, fit)[1:] {
		if rec[0] == "test" {
			fitTest = append(fitTest, rec)
		}
	}
	if len(fitTest) != len(zte) {
		t.Fatalf("%d test rows in classify's output, %d rows of features", len(fitTest), len(zte))
	}
	for a, z := range zte {
		idx := make([]int, len(ztr))
		d := make([]float64, len(ztr))
		for i, x := range ztr {
			idx[i] = i
			for j := range r {
				d[i] += (z[j] - x[j]) * (z[j] - x[j])
			}
		}
		sort.SliceStable(idx, func(p, q int) bool { return d[idx[p]] < d[idx[q]] })
		if d[idx[4]] == d[idx[5]] {
			t.Fatalf("test row %d: the 5th and 6th neighbours tie", a)
		}
		votes := make([]float64, 3)
		for _, i := range idx[:5] {
			votes[label[got[1+i][1]]] += 0.2
		}
		for c := range classes {
			p := parse(t, fitTest[a][len(fitTest[a])-3+c])
			if math.Abs(p-votes[c]) > 1e-15 {
				t.Errorf("test row %d p_%s = %v, kNN on the features %v", a, classes[c], p, votes[c])
			}
		}
	}
}

// TestFeaturesCommandErrors: what arbor features refuses, and that a
// failed run leaves no output file.
func TestFeaturesCommandErrors(t *testing.T) {
	dir := t.TempDir()
	train, test := messyTSV(t, dir, 60, 2)
	lm, exact := filepath.Join(dir, "lm.arbor"), filepath.Join(dir, "exact.arbor")
	mustArbor(t, "classify", "--data", train, "--label", "class", "--id", "sample", "--impute", "mean", "--landmarks", "10",
		"--learner", "svm", "--kernel", "rbf:0.5", "--save-model", lm, "--out", filepath.Join(dir, "a.csv"), "--quiet")
	mustArbor(t, "classify", "--data", train, "--label", "class", "--id", "sample", "--impute", "mean",
		"--learner", "svm", "--kernel", "rbf:0.5", "--save-model", exact, "--out", filepath.Join(dir, "b.csv"), "--quiet")
	bad := writeFile(t, dir, "bad.csv", "f1,f2,f3,f4\n1,2,3,4\n1,2,x3,4\n")
	short := writeFile(t, dir, "short.csv", "f1,f2,f4\n1,2,4\n")
	out := filepath.Join(dir, "z.csv")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--model", exact, "--data", test}, []string{exact, "no landmark feature map", "--landmarks"}},
		{[]string{"--model", lm, "--data", bad, "--out", out}, []string{bad + ":3", `"f3"`, `"x3"`}},
		{[]string{"--model", lm, "--data", short, "--out", out}, []string{short, `no column "f3"`}},
		{[]string{"--model", lm}, []string{"--data is required"}},
		{[]string{"--data", test}, []string{"--model is required"}},
		{[]string{"--model", lm, "--data", test, "--scale", "none"}, []string{"--scale", "saved in the model"}},
	} {
		_, _, err := arbor(t, append([]string{"features", "--quiet"}, c.args...)...)
		if err == nil {
			t.Errorf("features %v: no error", c.args)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("features %v: %v, want it to say %s", c.args, err, w)
			}
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Fatalf("features %v failed but wrote %s", c.args, out)
		}
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFeaturesLaterChunkError: a bad cell in the second chunk leaves no
// --out file, while standard output has the first chunk's rows, complete,
// and the error names the file's line, the column and the rows written.
func TestFeaturesLaterChunkError(t *testing.T) {
	dir := t.TempDir()
	train, _ := messyTSV(t, dir, 60, 2)
	lm := filepath.Join(dir, "lm.arbor")
	mustArbor(t, "classify", "--data", train, "--label", "class", "--id", "sample", "--impute", "mean", "--landmarks", "10",
		"--learner", "svm", "--kernel", "rbf:0.5", "--save-model", lm, "--out", filepath.Join(dir, "a.csv"), "--quiet")
	var b strings.Builder
	b.WriteString("f1,f2,f3,f4\n")
	for i := range 5000 {
		f3 := ftoa(float64(i % 7))
		if i == 4500 {
			f3 = "oops"
		}
		fmt.Fprintf(&b, "%d,1,%s,0.5\n", i%5, f3)
	}
	bad := writeFile(t, dir, "big.csv", b.String())
	out := filepath.Join(dir, "z.csv")
	_, _, err := arbor(t, "features", "--quiet", "--model", lm, "--data", bad, "--out", out)
	if err == nil || !strings.Contains(err.Error(), bad+":4502") || !strings.Contains(err.Error(), `"f3"`) {
		t.Errorf("to a file: %v, want %s:4502 and column f3", err, bad)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Errorf("a failed run wrote %s", out)
	}
	stdout, _, err := arbor(t, "features", "--quiet", "--model", lm, "--data", bad)
	if err == nil || !strings.Contains(err.Error(), "4096 rows were already written to standard output") {
		t.Errorf("to standard output: %v, want the rows already written", err)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 4097 || !strings.HasPrefix(lines[4096], "4095,") {
		t.Errorf("standard output has %d lines (last %.20q), want the header and rows 0..4095", len(lines), lines[len(lines)-1])
	}
}
