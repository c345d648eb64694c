package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failsCleanly runs arbor with args, expecting a one-line error with exit
// status 1 that contains every one of want, and no file at out.
func failsCleanly(t *testing.T, out string, want []string, args ...string) {
	t.Helper()
	_, stderr, err := arbor(t, args...)
	if err == nil {
		t.Fatalf("arbor %s: no error", strings.Join(args, " "))
	}
	msg := err.Error()
	if code := exitCode(err); code != 1 {
		t.Errorf("exit status %d, want 1 (%s)", code, msg)
	}
	if strings.Contains(msg, "\n") || len(msg) > 600 {
		t.Errorf("not one short line (%d bytes): %.600s", len(msg), msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
	if strings.Contains(stderr, "goroutine ") {
		t.Errorf("stderr has a dump:\n%s", stderr)
	}
	if out != "" {
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s written", out)
		}
	}
}

// baseCSV writes the 40-row base.csv (x1, x2, x3, label a/b alternating)
// of the input-hardening tests to dir.
func baseCSV(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,x2,x3,label\n")
	for i := range 40 {
		c := i % 2
		x := float64(i%7)/7 + 2*float64(c)
		b.WriteString(ftoa(x) + "," + ftoa(float64(c)+float64(i%5)/5) + "," + ftoa(float64(i%3)/3) + "," + string(rune('a'+c)) + "\n")
	}
	return writeFile(t, dir, "base.csv", b.String())
}

// treelets --graph-edges: node ids far beyond the number of nodes are the
// nodes' names, not a size; the labels file names each node by its id.
func TestGraphEdgesLargeIDs(t *testing.T) {
	dir := t.TempDir()
	for _, big := range []string{"2147483645", "1000000000"} {
		e := writeFile(t, dir, "e.txt", "0 1\n1 2\n0 "+big+"\n")
		out := filepath.Join(dir, "t.csv")
		mustArbor(t, "treelets", "--graph-edges", e, "--clusters", "2", "--out", out, "--quiet")
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// the path 2-1-0-big: the end node big is its own cluster
		if want := "node,cluster\n0,0\n1,0\n2,0\n" + big + ",1\n"; string(got) != want {
			t.Errorf("%s: labels\n%s\nwant\n%s", big, got, want)
		}
	}
	e := writeFile(t, dir, "e.txt", "0 1\n1 2\n0 99999999999999999999\n")
	out := filepath.Join(dir, "u.csv")
	failsCleanly(t, out, []string{"e.txt:3:", `node id "99999999999999999999" is out of range`},
		"treelets", "--graph-edges", e, "--clusters", "2", "--out", out, "--quiet")
}

// Damaged and foreign data files give the same one-line error, naming the
// file and the line, in every command that reads data: a 20 MB cell is
// quoted by its start, one bad LIBSVM line is reported as such, damaged
// .gz files and UTF-16 text say what they are.
func TestBadDataFilesEveryCommand(t *testing.T) {
	dir := t.TempDir()
	base := baseCSV(t, dir)
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", base, "--kernel", "rbf", "--test", base, "--out", filepath.Join(dir, "p.csv"), "--save-model", model, "--quiet")
	raw, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	huge := append([]string(nil), rows...)
	huge[5] = strings.Repeat("1", 20<<20) + ",1,1,a"
	var svm []string
	for i, r := range rows[1:] {
		f := strings.Split(r, ",")
		line := map[bool]string{true: "1", false: "-1"}[f[3] == "a"] + " 1:" + f[0] + " 2:" + f[1] + " 3:" + f[2]
		if i == 10 {
			line = "1 1:2.0 3:"
		}
		svm = append(svm, line)
	}
	u16 := []byte{0xff, 0xfe}
	for _, c := range string(raw) {
		u16 = append(u16, byte(c), 0)
	}
	gzText := gzipBytes(t, raw)
	files := []struct {
		name string
		data []byte
		want []string
	}{
		{"huge.csv", []byte(strings.Join(huge, "\n") + "\n"), []string{"huge.csv:6:", `column "x1"`, `"11111111111111111111111111111111"… (20971520 bytes)`}},
		{"bad.libsvm", []byte(strings.Join(svm, "\n") + "\n"), []string{"bad.libsvm:11:", `token "3:" has no value`}},
		{"empty.csv.gz", nil, []string{"empty.csv.gz:", "empty file (0 bytes), no gzip data"}},
		{"trail.csv.gz", append(gzText, "garbage!!"...), []string{"trail.csv.gz:", "after line 41", "trailing garbage"}},
		{"u16.csv", u16, []string{"u16.csv:1:", "UTF-16", "iconv -f UTF-16 -t UTF-8"}},
	}
	out := filepath.Join(dir, "out.csv")
	for _, f := range files {
		p := writeFile(t, dir, f.name, string(f.data))
		for _, args := range [][]string{
			{"classify", "--data", p, "--kernel", "rbf", "--out", out},
			{"cluster", "--data", p, "--clusters", "2", "--out", out},
			{"kernel", "--data", p, "--kernel", "rbf", "--out", out},
			{"svc", "--data", p, "--q", "1", "--C", "1", "--out", out},
			{"treelets", "--data", p, "--kernel", "rbf", "--out", out},
			{"eval", "--data", p, "--kernel", "rbf", "--labeled-per-class", "2"},
			{"predict", "--model", model, "--data", p, "--out", out},
		} {
			want := f.want
			if args[0] == "predict" && f.name == "bad.libsvm" {
				want = []string{"bad.libsvm: unknown data format: the file is LIBSVM text"}
			}
			t.Run(f.name+"/"+args[0], func(t *testing.T) {
				failsCleanly(t, out, want, append(args, "--quiet")...)
			})
		}
	}
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// New points hold to the training data's rule: a cell too large for the
// kernel's sums of squares (1e300) is an error naming the file, the line
// and the column, in arbor predict for every learner and in classify
// --test.
func TestNewPointsMagnitude(t *testing.T) {
	dir := t.TempDir()
	base := baseCSV(t, dir)
	raw, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	semi := append([]string(nil), rows...)
	for i := 31; i < len(semi); i++ {
		semi[i] = strings.TrimSuffix(strings.TrimSuffix(semi[i], "a"), "b") + "?"
	}
	rows[4] = "1e300,1,1,a"
	big := writeFile(t, dir, "big.csv", strings.Join(rows, "\n")+"\n")
	train := writeFile(t, dir, "semi.csv", strings.Join(semi, "\n")+"\n")
	want := []string{"big.csv:5:", `column "x1"`, "value too large: 1e+300"}
	out := filepath.Join(dir, "p.csv")
	for _, ln := range [][]string{
		{"--learner", "svm", "--kernel", "rbf"},
		{"--learner", "knn", "--kernel", "rbf"},
		{"--learner", "lp", "--affinity", "rbf:1"},
		{"--learner", "hibust", "--kernel", "rbf"},
	} {
		model := filepath.Join(dir, ln[1]+".arbor")
		mustArbor(t, append([]string{"classify", "--data", train, "--out", filepath.Join(dir, "fit.csv"), "--save-model", model, "--quiet"}, ln...)...)
		t.Run(ln[1], func(t *testing.T) {
			failsCleanly(t, out, want, "predict", "--model", model, "--data", big, "--out", out, "--quiet")
			if ln[1] != "lp" { // transductive: no --test
				failsCleanly(t, out, want, append([]string{"classify", "--data", train, "--test", big, "--out", out, "--quiet"}, ln...)...)
			}
		})
	}
}

// eval with a class whose one row cannot be labelled: the split and the
// class are named by the data's names, not internal class numbers.
func TestEvalOneClassSplit(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(baseCSV(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if !strings.HasSuffix(r, ",b") {
			rows = append(rows, r)
		}
	}
	one := writeFile(t, dir, "one.csv", strings.Join(append(rows, "0.5,0.5,0.5,b"), "\n")+"\n")
	failsCleanly(t, "", []string{`one.csv, split 0 (seed 1): `, `labelled rows are all of class "a" and none of class "b" (1 row)`},
		"eval", "--data", one, "--kernel", "rbf", "--learner", "svm", "--labeled-per-class", "2", "--repeats", "2", "--seed", "1", "--quiet")
	splits := writeFile(t, dir, "s.txt", "0,1,2\n")
	failsCleanly(t, "", []string{`one.csv, split 0 of ` + splits + `: `, `its 3 labelled rows are all of class "a"`},
		"eval", "--data", one, "--kernel", "rbf", "--learner", "knn", "--splits", splits, "--quiet")
}
