package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// twoBlobs returns n rows per blob of a CSV with the given header and a
// row function.
func twoBlobs(header string, n int, row func(i, c int) string) string {
	var b strings.Builder
	b.WriteString(header)
	for c := 0; c < 2; c++ {
		for i := 0; i < n; i++ {
			b.WriteString(row(i, c))
		}
	}
	return b.String()
}

// blobXY is a point of blob c (two well separated groups).
func blobXY(i, c int) (float64, float64) {
	return float64(10*c) + float64(i%3)*0.1, float64(10*c) + float64(i%5)*0.1
}

// A class column named "target" is the label, not a feature (else the
// clustering would use the true classes); stderr says which columns are
// features.
func TestTargetColumnIsLabel(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "t.csv", twoBlobs("x,target,y\n", 10, func(i, c int) string {
		x, y := blobXY(i, c)
		return fmt.Sprintf("%g,%d,%g\n", x, c, y)
	}))
	out, stderr, err := arbor(t, "cluster", "--data", data, "--k", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "(20 rows, 2 features)") || !strings.Contains(out, "ARI 1.0000") {
		t.Errorf("stdout:\n%s", out)
	}
	for _, want := range []string{`label     column "target" (found by its name`, `features  2: "x", "y"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// A headerless file keeps its first row; --no-header forces it.
func TestHeaderlessFile(t *testing.T) {
	dir := t.TempDir()
	body := twoBlobs("", 10, func(i, c int) string {
		x, y := blobXY(i, c)
		return fmt.Sprintf("%g,%g\n", x+1, y+1)
	})
	data := writeFile(t, dir, "h.csv", body)
	out, stderr, err := arbor(t, "cluster", "--data", data, "--k", "2")
	if err != nil || !strings.Contains(out, "(20 rows, 2 features)") || !strings.Contains(stderr, "no header row") {
		t.Errorf("sniffed: %v\n%s\n%s", err, out, stderr)
	}
	// a first row that would pass for a header is data with --no-header
	data = writeFile(t, dir, "h2.csv", "1,2\n"+body)
	out = mustArbor(t, "cluster", "--data", data, "--k", "2", "--quiet", "--no-header")
	if !strings.Contains(out, "(21 rows, 2 features)") {
		t.Errorf("--no-header:\n%s", out)
	}
}

// A text ID column: an error that says what to do, then --id carries it
// into the outputs of cluster and classify; --ignore skips text columns.
func TestIDColumn(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "id.csv", twoBlobs("sample,x,y,note,label\n", 5, func(i, c int) string {
		x, y := blobXY(i, c)
		lab := ""
		if i == 0 {
			lab = string(rune('a' + c))
		}
		return fmt.Sprintf("s%d-%d,%g,%g,free text,%s\n", c, i, x, y, lab)
	}))
	_, _, err := arbor(t, "cluster", "--data", data, "--k", "2", "--quiet")
	if err == nil || !strings.Contains(err.Error(), `column "sample": not a number "s0-0"`) || !strings.Contains(err.Error(), "--id sample") || !strings.Contains(err.Error(), `columns "sample" and "note" hold text`) || !strings.Contains(err.Error(), "--ignore note") {
		t.Errorf("text column: %v", err)
	}
	out := filepath.Join(dir, "c.csv")
	nwk := filepath.Join(dir, "t.nwk")
	_, stderr, err := arbor(t, "cluster", "--data", data, "--k", "2", "--id", "sample", "--ignore", "note", "--out", out, "--newick", nwk)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(nwk); !strings.Contains(string(raw), "s1-4:") || strings.Contains(string(raw), "(0:") {
		t.Errorf("newick leaves not named by --id: %s", raw)
	}
	raw, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(raw), "row,sample,cluster\n0,s0-0,0\n") || !strings.Contains(string(raw), "\n9,s1-4,1\n") {
		t.Errorf("cluster --out:\n%s", raw)
	}
	if !strings.Contains(stderr, `id        column "sample"`) || !strings.Contains(stderr, `ignored   1: "note"`) {
		t.Errorf("stderr:\n%s", stderr)
	}
	pred := filepath.Join(dir, "p.csv")
	mustArbor(t, "classify", "--data", data, "--id", "sample", "--ignore", "note", "--learner", "knn", "--out", pred, "--quiet")
	raw, _ = os.ReadFile(pred)
	if !strings.HasPrefix(string(raw), "set,row,sample,label,given\ndata,0,s0-0,a,1\ndata,1,s0-1,a,0\n") {
		t.Errorf("classify --out:\n%s", raw)
	}
	// --features picks columns by range
	out2 := mustArbor(t, "cluster", "--data", data, "--k", "2", "--quiet", "--features", "x..y")
	if !strings.Contains(out2, "(10 rows, 2 features)") {
		t.Errorf("--features x..y:\n%s", out2)
	}
}

// TSV saved as .txt, semicolons with decimal commas, blank-separated .dat:
// read from the content (a TSV saved as .txt is not read as LIBSVM).
func TestOtherSeparators(t *testing.T) {
	dir := t.TempDir()
	row := func(sep, dec string) func(i, c int) string {
		return func(i, c int) string {
			x, y := blobXY(i, c)
			lab := "?"
			if i == 0 {
				lab = fmt.Sprint(c)
			}
			return strings.ReplaceAll(fmt.Sprintf("%.2f", x), ".", dec) + sep + strings.ReplaceAll(fmt.Sprintf("%.2f", y), ".", dec) + sep + lab + "\n"
		}
	}
	for name, text := range map[string]string{
		"tab.txt":   twoBlobs("f1\tf2\tlabel\n", 5, row("\t", ".")),
		"semi.csv":  twoBlobs("f1;f2;label\n", 5, row(";", ",")),
		"blank.dat": twoBlobs("f1 f2 label\n", 5, row(" ", ".")),
	} {
		data := writeFile(t, dir, name, text)
		_, stderr, err := arbor(t, "classify", "--data", data, "--learner", "knn")
		out := stderr
		if err != nil || !strings.Contains(out, "(10 rows, 2 labelled, 2 features, 2 classes)") || !strings.Contains(out, "0=4 1=4") {
			t.Errorf("%s: %v\n%s\n%s", name, err, out, stderr)
		}
		if name == "semi.csv" && !strings.Contains(stderr, "decimal comma") {
			t.Errorf("semi.csv: no decimal-comma notice:\n%s", stderr)
		}
	}
}

// -1 marks unlabelled rows when told; the markers are printed; a class
// "-1" among 0, 1 gets a hint.
func TestUnlabeledMarkerFlag(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "m.csv", twoBlobs("x,y,label\n", 5, func(i, c int) string {
		x, y := blobXY(i, c)
		lab := "-1"
		if i == 0 {
			lab = fmt.Sprint(c)
		}
		return fmt.Sprintf("%g,%g,%s\n", x, y, lab)
	}))
	_, stderr, err := arbor(t, "classify", "--data", data, "--learner", "knn")
	if err == nil || !strings.Contains(stderr, "--unlabeled-marker -1") {
		t.Errorf("-1 as a class: %v\n%s", err, stderr)
	}
	out, stderr, err := arbor(t, "classify", "--data", data, "--learner", "knn", "--unlabeled-marker", "-1")
	out = stderr
	if err != nil || !strings.Contains(out, "predicted 8 unlabelled rows: 0=4 1=4") || !strings.Contains(stderr, `unlabelled rows marked by an empty cell or "-1": 8`) {
		t.Errorf("--unlabeled-marker -1: %v\n%s\n%s", err, out, stderr)
	}
}

// classify writes its predictions to standard output without --out or
// with --out - (no file named -), and the summary to stderr.
func TestClassifyStdout(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", "x,y,label\n0,0,a\n0.1,0,\n5,5,b\n5.1,5,\n")
	for _, args := range [][]string{nil, {"--out", "-"}} {
		old, _ := os.Getwd()
		os.Chdir(dir)
		out, stderr, err := arbor(t, append([]string{"classify", "--data", data, "--learner", "knn", "--scale", "none"}, args...)...)
		os.Chdir(old)
		if err != nil {
			t.Fatal(err)
		}
		if want := "set,row,label,given\ndata,0,a,1\ndata,1,a,0\ndata,2,b,1\ndata,3,b,0\n"; out != want {
			t.Errorf("%v: stdout\n%s\nwant\n%s", args, out, want)
		}
		if !strings.Contains(stderr, "predicted 2 unlabelled rows: a=1 b=1") {
			t.Errorf("%v: stderr\n%s", args, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
			t.Errorf("%v: wrote a file named -", args)
		}
	}
}

// Labels are strings: two long numbers stay two classes.
func TestLongNumericLabels(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "l.csv", twoBlobs("x,y,label\n", 5, func(i, c int) string {
		x, y := blobXY(i, c)
		lab := ""
		if i == 0 {
			lab = []string{"12345678901234567", "12345678901234568"}[c]
		}
		return fmt.Sprintf("%g,%g,%s\n", x, y, lab)
	}))
	pred := filepath.Join(dir, "p.csv")
	out := mustArbor(t, "classify", "--data", data, "--learner", "knn", "--quiet", "--out", pred)
	if !strings.Contains(out, "12345678901234567=4 12345678901234568=4") {
		t.Errorf("stdout:\n%s", out)
	}
	raw, _ := os.ReadFile(pred)
	if !strings.Contains(string(raw), "data,9,12345678901234568,0") {
		t.Errorf("predictions:\n%s", raw)
	}
}

func TestZeroBasedLIBSVM(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for c := 0; c < 2; c++ {
		for i := 0; i < 5; i++ {
			x, y := blobXY(i, c)
			fmt.Fprintf(&b, "%d 0:%g 1:%g\n", 2*c-1, x+1, y+1)
		}
	}
	data := writeFile(t, dir, "z.svm", b.String())
	out, stderr, err := arbor(t, "cluster", "--data", data, "--k", "2")
	if err != nil || !strings.Contains(out, "(10 rows, 2 features)") || !strings.Contains(out, "ARI 1.0000") || !strings.Contains(stderr, "indices start at 0") {
		t.Errorf("0-based: %v\n%s\n%s", err, out, stderr)
	}
}

// Missing values: a clear error naming the cells and the method that
// takes them.
func TestMissingValuesError(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "na.csv", "a,b,label\n1,2,x\n3,NA,y\n,6,x\n7,8,y\n")
	for _, cmd := range [][]string{
		{"cluster", "--k", "2"},
		{"classify", "--learner", "knn"},
		{"kernel", "--out", filepath.Join(dir, "K.csv")},
	} {
		_, _, err := arbor(t, append(cmd, "--data", data, "--quiet")...)
		if !errors.Is(err, dataset.ErrMissing) || !strings.Contains(err.Error(), `first at line 3 column "b", line 4 column "a"`) || !strings.Contains(err.Error(), "rbf-missing") {
			t.Errorf("%s: %v", cmd[0], err)
		}
	}
}

// A column of few distinct integers in a file with no label column, and
// a column of distinct integers (an ID), get a warning.
func TestClassOrIDLookalikeWarning(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "w.csv", twoBlobs("n,x,species,y\n", 10, func(i, c int) string {
		x, y := blobXY(i, c)
		return fmt.Sprintf("%d,%g,%d,%g\n", 100+10*c+i, x, c+1, y)
	}))
	_, stderr, err := arbor(t, "cluster", "--data", data, "--k", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`feature column "n" looks like a row ID (20 distinct integers, one per row): --id n`,
		`feature column "species" looks like a class (2 distinct integers in 20 rows): --label species`,
		`label     none`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// The treelets use: the shared mice protein file with explicit roles.
func TestMiceProteinRoles(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "data", "mice_protein.csv")
	if _, err := os.Stat(p); err != nil {
		t.Skip("shared data not here")
	}
	_, stderr, err := arbor(t, "cluster", "--data", p, "--label", "class", "--ignore", "MouseID,Genotype,Treatment,Behavior", "--k", "8")
	if !errors.Is(err, dataset.ErrMissing) || !strings.Contains(err.Error(), "1396 missing values") || !strings.Contains(stderr, "features  77:") {
		t.Errorf("%v\n%s", err, stderr)
	}
}
