package main

import (
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
