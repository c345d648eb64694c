package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// arborIn runs the CLI in-process with stdin as its standard input, read
// once (no Seek: a command that went back to its start would see nothing),
// and returns stdout, stderr and the error.
func arborIn(t *testing.T, stdin []byte, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(withStdin(context.Background(), io.MultiReader(bytes.NewReader(stdin))), args, &out, &errb)
	return out.String(), errb.String(), err
}

func mustArborIn(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	out, stderr, err := arborIn(t, stdin, args...)
	if err != nil {
		t.Fatalf("arbor %s < input: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withArg returns args with every "@" replaced by a.
func withArg(args []string, a string) []string {
	out := make([]string, len(args))
	for i, s := range args {
		out[i] = strings.ReplaceAll(s, "@", a)
	}
	return out
}

// fitSeconds matches the seconds column of an eval table and the time of
// kernel's "built in 0.01s".
var fitSeconds = regexp.MustCompile(`(?m)  +[0-9.]+( +fit s)?$| in [0-9.]+s$`)

// `--data -` (and classify's `--test -`, eval's `--splits -`, search's
// `--folds -`, treelets' `--graph-edges -`) writes byte for byte what the file gives, plain or
// gzip on standard input; the commands that load the data whole name it
// "standard input" where they name the file.
func TestStdinSameOutput(t *testing.T) {
	dir := t.TempDir()
	moons := "../../examples/two_moons_10_labels.csv"
	newPoints := "../../examples/new_points.csv"
	model := filepath.Join(dir, "m.arbor")
	lm := filepath.Join(dir, "lm.arbor")
	mustArbor(t, "classify", "--data", moons, "--label", "moon", "--id", "id", "--kernel", "hck:average", "--learner", "svm",
		"--proba", "--save-model", model, "--out", filepath.Join(dir, "fit.csv"), "--quiet")
	mustArbor(t, "classify", "--data", moons, "--label", "moon", "--id", "id", "--kernel", "rbf", "--learner", "svm",
		"--landmarks", "50", "--save-model", lm, "--out", filepath.Join(dir, "fit.csv"), "--quiet")
	irisR, err := dataset.OpenData("iris")
	if err != nil {
		t.Fatal(err)
	}
	irisText, err := io.ReadAll(irisR)
	if err != nil {
		t.Fatal(err)
	}
	iris := filepath.Join(dir, "iris.csv")
	if err := os.WriteFile(iris, irisText, 0o644); err != nil {
		t.Fatal(err)
	}
	// two 5-cliques joined by one edge, ids from 10
	var el strings.Builder
	for c := 0; c < 2; c++ {
		for u := 0; u < 5; u++ {
			for v := u + 1; v < 5; v++ {
				fmt.Fprintf(&el, "%d %d\n", 10+5*c+u, 10+5*c+v)
			}
		}
	}
	el.WriteString("14 15\n")
	edges := filepath.Join(dir, "edges.txt")
	if err := os.WriteFile(edges, []byte(el.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	splits := filepath.Join(dir, "splits.csv")
	if err := os.WriteFile(splits, []byte("0,1,50,51,100,101\n2,3,52,53,102,103\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	folds := filepath.Join(dir, "folds.csv")
	if err := os.WriteFile(folds, []byte("0,1,2,50,51,52,100,101,102\n3,4,5,53,54,55,103,104,105\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	kfile := filepath.Join(dir, "K.csv")
	// output is what a run wrote: stdout, and kfile (kernel, graph); eval's
	// last column and kernel's build time (seconds) are left out.
	output := func(stdout string) string {
		stdout = fitSeconds.ReplaceAllString(stdout, "")
		if b, err := os.ReadFile(kfile); err == nil {
			stdout += string(b)
			os.Remove(kfile)
		}
		return stdout
	}
	for _, tc := range []struct {
		file string   // the file given as @, or its text on standard input
		args []string // @ is the file or -
	}{
		{moons, []string{"predict", "--model", model, "--data", "@", "--chunk", "37", "--quiet"}},
		{moons, []string{"predict", "--model", model, "--data", "@", "--proba", "--decision", "--quiet"}},
		{newPoints, []string{"predict", "--model", model, "--data", "@", "--id", "id", "--quiet"}},
		{moons, []string{"features", "--model", lm, "--data", "@", "--chunk", "100", "--quiet"}},
		{moons, []string{"classify", "--data", "@", "--label", "moon", "--id", "id", "--kernel", "hck:average", "--learner", "svm", "--quiet"}},
		{newPoints, []string{"classify", "--data", moons, "--label", "moon", "--id", "id", "--kernel", "linear", "--learner", "knn", "--k", "3", "--test", "@", "--quiet"}},
		{iris, []string{"cluster", "--data", "@", "--linkage", "average", "--clusters", "3", "--out", "-", "--quiet"}},
		{iris, []string{"eval", "--data", "@", "--labeled-per-class", "5", "--repeats", "2", "--kernel", "rbf,hck:average", "--learner", "svm,knn", "--quiet"}},
		{iris, []string{"kernel", "--data", "@", "--kernel", "rbf", "--gamma", "0.5", "--out", kfile, "--quiet"}},
		{iris, []string{"graph", "--data", "@", "--k", "4", "--out", kfile, "--quiet"}},
		{iris, []string{"svc", "--data", "@", "--pca", "2", "--q", "2", "--C", "1", "--out", "-", "--quiet"}},
		{iris, []string{"treelets", "--data", "@", "--kernel", "rbf:1", "--clusters", "3", "--out", "-", "--quiet"}},
		{splits, []string{"eval", "--data", "iris", "--splits", "@", "--kernel", "rbf", "--learner", "knn", "--quiet"}},
		{folds, []string{"search", "--data", "iris", "--folds", "@", "--kernel", "rbf:0.1,rbf:1", "--C", "1,10", "--json", "--quiet"}},
		{edges, []string{"treelets", "--graph-edges", "@", "--clusters", "2", "--out", "-"}},
		{iris, []string{"search", "--data", "@", "--kernel", "rbf:0.1,rbf:1", "--C", "1,10", "--json", "--quiet"}},
	} {
		want := output(mustArbor(t, withArg(tc.args, tc.file)...))
		want = strings.ReplaceAll(want, tc.file, dataset.StdinName)
		text := readFile(t, tc.file)
		for _, in := range [][]byte{text, gzipBytes(t, text)} {
			got := output(mustArborIn(t, in, withArg(tc.args, "-")...))
			if got != want {
				t.Errorf("arbor %s: standard input gives\n%.600s\nthe file\n%.600s", strings.Join(tc.args, " "), got, want)
			}
		}
	}
}

// The --model of predict and features can come from standard input too.
func TestStdinModel(t *testing.T) {
	dir := t.TempDir()
	moons := "../../examples/two_moons_10_labels.csv"
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", moons, "--label", "moon", "--id", "id", "--kernel", "rbf", "--learner", "knn",
		"--save-model", model, "--out", filepath.Join(dir, "fit.csv"), "--quiet")
	want := mustArbor(t, "predict", "--model", model, "--data", moons, "--quiet")
	if got := mustArborIn(t, readFile(t, model), "predict", "--model", "-", "--data", moons, "--quiet"); got != want {
		t.Errorf("predict --model - gives\n%.300s\nthe file\n%.300s", got, want)
	}
}

// Errors of standard input name it with the line and the column, as they
// name a file; an empty standard input is an error, not an empty output;
// two inputs from standard input are a usage error naming both flags.
func TestStdinErrors(t *testing.T) {
	dir := t.TempDir()
	moons := "../../examples/two_moons_10_labels.csv"
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", moons, "--label", "moon", "--id", "id", "--kernel", "linear", "--learner", "svm",
		"--save-model", model, "--out", filepath.Join(dir, "fit.csv"), "--quiet")
	bad := []byte("id,x,y\n1,0.5,0.25\n2,0.5,1,5\n3,abc,1\n")
	for _, tc := range []struct {
		in    []byte
		args  []string
		want  string
		usage bool
	}{
		{bad, []string{"predict", "--model", model, "--data", "-", "--quiet"}, `standard input:3: ragged row`, false},
		{bad[:len(bad)-len("3,abc,1\n")-len("2,0.5,1,5\n")] /* one good row */, []string{"predict", "--model", model, "--data", "-", "--quiet"}, "", false},
		{[]byte("id,x,y\n1,0.5,0.25\n3,abc,1\n"), []string{"predict", "--model", model, "--data", "-", "--quiet"}, `standard input:3: column "x": not a number "abc"`, false},
		{gzipBytes(t, []byte("id,x,y\n1,0.5,0.25\n3,abc,1\n")), []string{"predict", "--model", model, "--data", "-", "--quiet"}, `standard input:3: column "x": not a number "abc"`, false},
		{[]byte("x,y,moon\n1,2,0\n3,4,1\n5,x6,1\n"), []string{"classify", "--data", "-", "--label", "moon", "--kernel", "linear", "--learner", "svm", "--quiet"}, `standard input:4: column "y": not a number "x6"`, false},
		{[]byte("id,x,y\n1,1,2\n2,3,4\n3,5,x6\n"), []string{"classify", "--data", moons, "--label", "moon", "--id", "id", "--learner", "knn", "--test", "-", "--quiet"}, `standard input:4: column "y": not a number "x6"`, false},
		{nil, []string{"predict", "--model", model, "--data", "-", "--quiet"}, "standard input: empty input: nothing was read (0 bytes)", false},
		{nil, []string{"features", "--model", model, "--data", "-", "--quiet"}, "", false},
		{nil, []string{"cluster", "--data", "-", "--clusters", "2", "--quiet"}, "standard input: empty input: nothing was read (0 bytes)", false},
		{nil, []string{"classify", "--data", moons, "--label", "moon", "--id", "id", "--learner", "knn", "--test", "-", "--quiet"}, "standard input: empty input: nothing was read (0 bytes)", false},
		{[]byte("0 1\n1 2\n2 2\n"), []string{"treelets", "--graph-edges", "-", "--out", "-"}, "standard input:3: kernel: bad edge list: self loop on node 2", false},
		{nil, []string{"classify", "--data", "-", "--test", "-", "--learner", "knn"}, "usage: --data - and --test - both read standard input", true},
		{nil, []string{"eval", "--data", "-", "--splits", "-", "--learner", "knn"}, "usage: --data - and --splits - both read standard input", true},
		{[]byte("0,1,50,51,100,101\n2,3,52,53,102,x\n"), []string{"eval", "--data", "iris", "--splits", "-", "--learner", "knn"}, "standard input:2: ", false},
		{nil, []string{"search", "--data", "-", "--folds", "-"}, "usage: --data - and --folds - both read standard input", true},
		{nil, []string{"predict", "--model", "-", "--data", "-"}, "usage: --model - and --data - both read standard input", true},
		{nil, []string{"features", "--model", "-", "--data", "-"}, "usage: --model - and --data - both read standard input", true},
	} {
		out, stderr, err := arborIn(t, tc.in, tc.args...)
		switch {
		case tc.want == "" && tc.args[0] == "features":
			// features refuses the model before it reads its input
			if err == nil {
				t.Errorf("arbor %s: no error", strings.Join(tc.args, " "))
			}
		case tc.want == "":
			if err != nil || strings.Count(out, "\n") != 2 {
				t.Errorf("arbor %s: %v, %q\n%s", strings.Join(tc.args, " "), err, out, stderr)
			}
		case err == nil || !strings.HasPrefix(err.Error(), tc.want):
			t.Errorf("arbor %s: error %v\nwant  %s…", strings.Join(tc.args, " "), err, tc.want)
		case tc.usage != errors.Is(err, errUsage):
			t.Errorf("arbor %s: usage error %v, want %v", strings.Join(tc.args, " "), errors.Is(err, errUsage), tc.usage)
		case strings.HasPrefix(tc.args[0], "predict") && out != "":
			t.Errorf("arbor %s: wrote %q before the error", strings.Join(tc.args, " "), out)
		}
	}
}

// The help of every input flag that takes "-" says so.
func TestStdinHelp(t *testing.T) {
	for cmd, flags := range map[string][]string{
		"predict":  {"data", "model"},
		"features": {"data", "model"},
		"classify": {"data", "test"},
		"cluster":  {"data"},
		"eval":     {"data", "splits"},
		"kernel":   {"data"},
		"graph":    {"data"},
		"svc":      {"data"},
		"treelets": {"data", "graph-edges"},
		"search":   {"data", "folds"},
	} {
		_, stderr, err := arbor(t, cmd, "--help")
		if !errors.Is(err, flag.ErrHelp) && err != nil {
			t.Fatalf("%s --help: %v", cmd, err)
		}
		for _, f := range flags {
			i := strings.Index(stderr, "\n  --"+f+" ")
			if i < 0 {
				t.Errorf("%s --help: no --%s", cmd, f)
				continue
			}
			line := stderr[i+1:]
			if j := strings.Index(line, "\n  -"); j >= 0 {
				line = line[:j+1]
			}
			if !strings.Contains(line, "- is standard input") {
				t.Errorf("%s --help: --%s does not say - is standard input:\n%s", cmd, f, line)
			}
		}
	}
}
