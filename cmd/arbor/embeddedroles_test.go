package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// An embedded set has its column roles: every command that loads data
// refuses a --label that names another column, no column or none, and the
// options of data files, as usage errors (exit status 2) naming the set
// and its columns, before any work.
func TestEmbeddedLabelRefused(t *testing.T) {
	const irisF9 = "usage: --label f9: the embedded set iris (columns f1, f2, f3, f4, label) has its labels in column label (5): --label can name only that column"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"classify", "--label", "f9"}, irisF9},
		{[]string{"cluster", "--clusters", "3", "--label", "f9"}, irisF9},
		{[]string{"eval", "--labeled-per-class", "5", "--label", "f9"}, irisF9},
		{[]string{"search", "--label", "f9"}, irisF9},
		{[]string{"kernel", "--kernel", "linear", "--out", "K.csv", "--label", "f9"}, irisF9},
		{[]string{"graph", "--k", "5", "--out", "g.csv", "--label", "f9"}, irisF9},
		{[]string{"svc", "--q", "1", "--C", "1", "--out", "s.csv", "--label", "f9"}, irisF9},
		{[]string{"treelets", "--kernel", "linear", "--out", "t.csv", "--label", "f9"}, irisF9},
		{[]string{"classify", "--label", "f2"},
			"usage: --label f2: the embedded set iris (columns f1, f2, f3, f4, label) has its labels in column label (5): --label can name only that column"},
		{[]string{"classify", "--label", "none"},
			"usage: --label none: the embedded set iris (columns f1, f2, f3, f4, label) has its labels in column label (5): --label can name only that column"},
		{[]string{"classify", "--label", "6"},
			"usage: --label 6: the embedded set iris (columns f1, f2, f3, f4, label) has its labels in column label (5): --label can name only that column"},
		{[]string{"classify", "--data", "embedded:wine", "--label", "my class"},
			"usage: --label 'my class': the embedded set embedded:wine (columns f1, f2, …, f13, label) has its labels in column label (14): --label can name only that column"},
		{[]string{"eval", "--data", "reuters10", "--splits", "reuters10:626", "--metric", "bep", "--learner", "knn", "--label", "1"},
			"usage: --label 1: the embedded set reuters10 (LIBSVM text, features f1, f2, …, f499, f500) has its labels at the start of each line, not in a column: --label cannot name them"},
		{[]string{"classify", "--features", "f1,f2"}, "usage: --features applies to data files, not the embedded set iris"},
		{[]string{"classify", "--no-header"}, "usage: --no-header applies to data files, not the embedded set iris"},
		{[]string{"classify", "--sep", "comma"}, "usage: --sep applies to data files, not the embedded set iris"},
		{[]string{"classify", "--unlabeled-marker", "0"}, "usage: --unlabeled-marker applies to data files, not the embedded set iris"},
	} {
		args := c.args
		if !strings.Contains(strings.Join(args, " "), "--data") {
			args = append([]string{args[0], "--data", "iris"}, args[1:]...)
		}
		dir := t.TempDir()
		for i, a := range args {
			if strings.HasSuffix(a, ".csv") {
				args[i] = filepath.Join(dir, a)
			}
		}
		out, stderr, err := arbor(t, args...)
		if err == nil || err.Error() != c.want || exitCode(err) != 2 {
			t.Errorf("arbor %s: error %v (exit status %d), want %q (2)", strings.Join(args, " "), err, exitCode(err), c.want)
		}
		if out != "" || stderr != "" {
			t.Errorf("arbor %s: output before the refusal:\n%s%s", strings.Join(args, " "), out, stderr)
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("arbor %s: wrote %s", strings.Join(args, " "), ents[0].Name())
		}
	}
}

// A --label that names an embedded set's own label column (by name, in
// any case, or by position) changes nothing: stdout, stderr and the files
// written are those of the run without it.
func TestEmbeddedLabelAccepted(t *testing.T) {
	r, err := dataset.OpenData("wine")
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	wine := writeFile(t, t.TempDir(), "wine.csv", string(text))
	for _, c := range []struct {
		args   []string
		labels []string
	}{
		{[]string{"cluster", "--data", "iris", "--clusters", "3", "--out", "OUT"}, []string{"label", "LABEL", "5"}},
		{[]string{"classify", "--data", "embedded:wine", "--test", wine, "--kernel", "linear", "--learner", "knn", "--k", "1", "--out", "OUT"}, []string{"Label", "14"}},
		{[]string{"eval", "--data", "two_moons", "--labeled-per-class", "3", "--repeats", "2", "--kernel", "linear", "--learner", "knn"}, []string{"label", "3"}},
	} {
		plainOut, plainErr, plainFile := runInDir(t, c.args)
		for _, l := range c.labels {
			args := append(append([]string{}, c.args...), "--label", l)
			out, stderr, file := runInDir(t, args)
			if out != plainOut || stderr != plainErr || file != plainFile {
				t.Errorf("arbor %s differs from the run without --label:\nstdout %q\nwant   %q\nstderr %q\nwant   %q\nfile differs: %v",
					strings.Join(args, " "), out, plainOut, stderr, plainErr, file != plainFile)
			}
		}
	}
}

// runInDir runs arbor with args, OUT replaced by a file in a new
// directory, and returns stdout, stderr (the directory's name replaced
// by DIR, the time taken left out) and the file's content ("" when args
// name no OUT).
func runInDir(t *testing.T, args []string) (string, string, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	args = append([]string{}, args...)
	hasOut := false
	for i, a := range args {
		if a == "OUT" {
			args[i], hasOut = path, true
		}
	}
	out, stderr, err := arbor(t, args...)
	if err != nil {
		t.Fatalf("arbor %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	var lines []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(l, "done in ") {
			lines = append(lines, l)
		}
	}
	stderr = strings.Join(lines, "")
	out = fitSeconds.ReplaceAllString(out, " T") // eval's fit seconds (stdin_test.go)
	if !hasOut {
		return out, strings.ReplaceAll(stderr, dir, "DIR"), ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out, dir, "DIR"), strings.ReplaceAll(stderr, dir, "DIR"), string(b)
}

// LIBSVM data have no columns to give roles: --label (none included) and
// the options of delimited text are usage errors naming the file, from a
// file or standard input; --unlabeled-marker applies to their labels.
func TestLIBSVMColumnOptionsRefused(t *testing.T) {
	dir := t.TempDir()
	text := "1 1:0.5 2:1.0\n2 1:0.1 2:0.3\n1 1:0.6 2:0.9\n2 1:0.2 2:0.2\n1 1:0.7 2:1.1\n2 1:0.15 2:0.25\n"
	svm := writeFile(t, dir, "s.svm", text)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--label", "f9"}, "usage: --label f9: " + svm + " is LIBSVM text (features f1, f2): its labels are at the start of each line, not in a column, and --label cannot name them"},
		{[]string{"--label", "none"}, "usage: --label none: " + svm + " is LIBSVM text (features f1, f2): its labels are at the start of each line, not in a column, and --label cannot name them"},
		{[]string{"--id", "1"}, "usage: --id applies to delimited text, not to " + svm + ", which is LIBSVM text (features f1, f2)"},
		{[]string{"--features", "f1"}, "usage: --features applies to delimited text, not to " + svm + ", which is LIBSVM text (features f1, f2)"},
		{[]string{"--ignore", "f2"}, "usage: --ignore applies to delimited text, not to " + svm + ", which is LIBSVM text (features f1, f2)"},
		{[]string{"--no-header"}, "usage: --no-header applies to delimited text, not to " + svm + ", which is LIBSVM text (features f1, f2)"},
		{[]string{"--sep", "space"}, "usage: --sep applies to delimited text, not to " + svm + ", which is LIBSVM text (features f1, f2)"},
	} {
		args := append([]string{"cluster", "--data", svm, "--clusters", "2", "--quiet"}, c.args...)
		if _, _, err := arbor(t, args...); err == nil || err.Error() != c.want || exitCode(err) != 2 {
			t.Errorf("%s: error %v (exit status %d), want %q (2)", strings.Join(c.args, " "), err, exitCode(err), c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	err := run(withStdin(context.Background(), strings.NewReader(text)), []string{"cluster", "--data", "-", "--clusters", "2", "--id", "1"}, &stdout, &stderr)
	if want := "usage: --id applies to delimited text, not to standard input, which is LIBSVM text (features f1, f2)"; err == nil || err.Error() != want || exitCode(err) != 2 {
		t.Errorf("standard input: %v, want %q", err, want)
	}
	plain := mustArbor(t, "cluster", "--data", svm, "--clusters", "2", "--quiet")
	if got := mustArbor(t, "cluster", "--data", svm, "--clusters", "2", "--quiet", "--unlabeled-marker", "2"); !strings.Contains(got, "vs labels") || got == plain {
		t.Errorf("--unlabeled-marker 2 left the labels as they were:\n%s", got)
	}
}
