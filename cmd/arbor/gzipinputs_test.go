package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipMembers compresses text as two gzip members, split at a line
// boundary near its middle (as `cat a.gz b.gz` makes).
func gzipMembers(t *testing.T, text []byte) []byte {
	t.Helper()
	half := len(text) / 2
	for half > 0 && text[half-1] != '\n' {
		half--
	}
	var b bytes.Buffer
	for _, part := range [][]byte{text[:half], text[half:]} {
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(part); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// Every file a command reads is read through one opener: a gzip file
// (two members), named NAME.gz or with the plain file's own name (found
// by its magic bytes), gives the bytes of the plain file on stdout,
// stderr and the output file; so does a gzip model on standard input.
// A .gz file cut short is an error naming it, with no output written.
func TestGzipEveryInput(t *testing.T) {
	setup := t.TempDir()
	var test strings.Builder
	test.WriteString("f1,f2,f3,f4\n")
	for i := range 12 {
		fmt.Fprintf(&test, "%.1f,%.1f,%.1f,%.1f\n", 4.5+0.3*float64(i), 3.4-0.1*float64(i), 1.2+0.45*float64(i), 0.1+0.2*float64(i))
	}
	testCSV := writeFile(t, setup, "test.csv", test.String())
	model := filepath.Join(setup, "m.arbor")
	mustArbor(t, "classify", "--data", "iris", "--test", testCSV, "--kernel", "linear", "--learner", "knn", "--k", "3", "--save-model", model, "--out", filepath.Join(setup, "p.csv"), "--quiet")
	lmModel := filepath.Join(setup, "lm.arbor")
	mustArbor(t, "classify", "--data", "iris", "--test", testCSV, "--kernel", "rbf:scale", "--learner", "svm", "--landmarks", "20", "--seed", "1", "--save-model", lmModel, "--out", filepath.Join(setup, "p.csv"), "--quiet")
	modelBytes, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	lmBytes, err := os.ReadFile(lmModel)
	if err != nil {
		t.Fatal(err)
	}
	var edges strings.Builder
	for _, c := range []int{0, 6} { // two 6-cliques joined by the edge 5 6
		for u := c; u < c+6; u++ {
			for v := u + 1; v < c+6; v++ {
				fmt.Fprintf(&edges, "%d %d\n", u, v)
			}
		}
	}
	edges.WriteString("5 6\n")

	for _, c := range []struct {
		name, file string
		text       []byte
		args       []string // IN is the file, OUT an output file in its directory
	}{
		{"--graph-edges", "edges.txt", []byte(edges.String()), []string{"treelets", "--graph-edges", "IN", "--clusters", "2", "--out", "OUT"}},
		{"eval --splits", "splits.csv", []byte("0,1,2,50,51,52,100,101,102\n3,4,5,53,54,55,103,104,105\n"),
			[]string{"eval", "--data", "iris", "--splits", "IN", "--kernel", "linear", "--learner", "knn", "--k", "1"}},
		{"search --folds", "folds.csv", []byte(foldLines(150, 3)),
			[]string{"search", "--data", "iris", "--folds", "IN", "--kernel", "linear", "--learner", "knn", "--k", "1,3"}},
		{"classify --test", "test.csv", []byte(test.String()),
			[]string{"classify", "--data", "iris", "--test", "IN", "--kernel", "linear", "--learner", "knn", "--k", "3", "--out", "OUT"}},
		{"--data", "two_moons.csv", readExample(t, "two_moons_10_labels.csv"),
			[]string{"classify", "--data", "IN", "--label", "moon", "--id", "id", "--kernel", "linear", "--learner", "knn", "--k", "1", "--out", "OUT"}},
		{"predict --model", "m.arbor", modelBytes, []string{"predict", "--model", "IN", "--data", testCSV, "--out", "OUT"}},
		{"features --model", "lm.arbor", lmBytes, []string{"features", "--model", "IN", "--data", testCSV, "--out", "OUT"}},
	} {
		z := gzipMembers(t, c.text)
		plain := runWith(t, c.args, c.file, c.text, nil)
		for _, v := range []struct {
			name string
			data []byte
		}{{c.file + ".gz", z}, {c.file, z}} {
			if got := runWith(t, c.args, v.name, v.data, nil); got != plain {
				t.Errorf("%s: gzip file %s:\n%s\nwant (the plain file):\n%s", c.name, v.name, got, plain)
			}
		}
		if strings.HasSuffix(c.name, "--model") {
			if got := runWith(t, c.args, "", nil, z); got != plain {
				t.Errorf("%s: gzip on standard input:\n%s\nwant (the plain file):\n%s", c.name, got, plain)
			}
		}

		// cut inside the compressed data of the first member
		dir := t.TempDir()
		in := filepath.Join(dir, c.file+".gz")
		if err := os.WriteFile(in, z[:len(z)/4], 0o644); err != nil {
			t.Fatal(err)
		}
		args := fill(c.args, in, filepath.Join(dir, "out.csv"))
		_, _, err := arbor(t, args...)
		want := in + ": bad compressed file: truncated gzip stream: the file ends inside the compressed data, after line "
		if err == nil || !strings.HasPrefix(err.Error(), want) || exitCode(err) != 1 {
			t.Errorf("%s: cut .gz: error %v (exit status %d), want %q… (1)", c.name, err, exitCode(err), want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
			t.Errorf("%s: cut .gz: output written", c.name)
		}
	}
}

// foldLines returns k folds of the rows 0..n-1 of the --folds format,
// row i in fold i mod k.
func foldLines(n, k int) string {
	var b strings.Builder
	for f := range k {
		sep := ""
		for i := f; i < n; i += k {
			fmt.Fprintf(&b, "%s%d", sep, i)
			sep = ","
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// readExample returns the bytes of examples/name.
func readExample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fill returns args with IN and OUT replaced.
func fill(args []string, in, out string) []string {
	a := append([]string{}, args...)
	for i := range a {
		switch a[i] {
		case "IN":
			a[i] = in
		case "OUT":
			a[i] = out
		}
	}
	return a
}

// runWith runs arbor with args in a new directory holding data as the
// file name (IN), or with stdin on standard input (IN is then -), and
// returns stdout, stderr and the output file (OUT) as one text, with the
// directory, the input's name and the times taken made the same for
// every run.
func runWith(t *testing.T, args []string, name string, data, stdin []byte) string {
	t.Helper()
	dir := t.TempDir()
	in := "-"
	ctx := context.Background()
	if stdin != nil {
		ctx = withStdin(ctx, bytes.NewReader(stdin))
	} else {
		in = filepath.Join(dir, name)
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out.csv")
	args = fill(args, in, out)
	var stdout, stderr bytes.Buffer
	if err := run(ctx, args, &stdout, &stderr); err != nil {
		t.Fatalf("arbor %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	written, _ := os.ReadFile(out)
	var lines []string
	for _, l := range strings.SplitAfter(stdout.String()+"\n--\n"+stderr.String(), "\n") {
		if !strings.HasPrefix(l, "done in ") && !strings.HasPrefix(l, "predict: ") && !strings.HasPrefix(l, "features: ") {
			lines = append(lines, l)
		}
	}
	text := fitSeconds.ReplaceAllString(strings.Join(lines, ""), " T") + "\n--\n" + string(written) // eval's fit seconds (stdin_test.go)
	if stdin != nil {
		return strings.ReplaceAll(strings.ReplaceAll(text, "standard input", "IN"), dir, "DIR")
	}
	text = strings.ReplaceAll(text, in, "IN")
	text = strings.ReplaceAll(text, dir, "DIR")
	return strings.ReplaceAll(text, filepath.Base(name), strings.TrimSuffix(filepath.Base(name), ".gz"))
}
