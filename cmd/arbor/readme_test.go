package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// manualCommand is one arbor command of the manual: its arguments and the
// file it came from.
type manualCommand struct {
	args []string
	file string
}

func (c manualCommand) line() string { return strings.Join(c.args, " ") }

// readmeCommands returns every arbor command of a Markdown text's ```sh
// blocks, as argument lists (backslash continuations joined, comments
// dropped; "go run ./cmd/arbor ARGS" counts as "arbor ARGS"). Lines that run
// other programs (go run ./bench/..., python scripts) are not arbor
// commands and are left out.
func readmeCommands(t *testing.T, text string) [][]string {
	t.Helper()
	var out [][]string
	for _, b := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(text, -1) {
		joined := strings.ReplaceAll(b[1], "\\\n", " ")
		for _, line := range strings.Split(joined, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			if k := strings.Index(line, " #"); k >= 0 {
				line = line[:k]
			}
			f := strings.Fields(line)
			switch {
			case len(f) > 1 && f[0] == "arbor":
				out = append(out, f[1:])
			case len(f) > 3 && f[0] == "go" && f[1] == "run" && f[2] == "./cmd/arbor":
				out = append(out, f[3:])
			}
		}
	}
	return out
}

// manualCommands returns the arbor commands of README.md and then of
// docs/*.md (in name order), each distinct command line once, in order of
// first appearance (a command may read a file an earlier one wrote, such as
// the model arbor predict reads).
func manualCommands(t *testing.T, root string) []manualCommand {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(docs)
	files = append(files, docs...)
	seen := map[string]bool{}
	var out []manualCommand
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, args := range readmeCommands(t, string(b)) {
			c := manualCommand{args: args, file: rel}
			if !seen[c.line()] {
				seen[c.line()] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// readmeCheaper lists the manual's commands the test runs with smaller
// settings, to keep the package's tests fast: the full commands differ only
// in size, not in the code they exercise.
var readmeCheaper = map[string][]string{
	// the tour without the USPS table (the same kernels are run on USPS below)
	"demo": {"demo", "--quick"},
	// paper 000's eight USPS kernels: one Euclidean and one graph cluster
	// kernel; the other linkages build the same distances and trees, and
	// isomap's eigendecomposition on USPS runs in docs/ssl-knn.md's command
	"eval --data usps --splits usps:10 --split-line 1 --scale none --C 1 --kernel linear,hck:single,hck:complete,hck:average,hckg:single,hckg:complete,hckg:average,isomap --learner svm": {
		"eval", "--data", "usps", "--splits", "usps:10", "--split-line", "1", "--scale", "none", "--C", "1",
		"--kernel", "hck:single,hckg:complete", "--learner", "svm"},
	// the same kernels with the SVM and kNN for k = 1..5: two k suffice
	"eval --data usps --splits usps:100 --split-line 1 --scale none --C 1 --kernel linear,hck:average,hckg:average,isomap --learner svm,knn --k 1-5": {
		"eval", "--data", "usps", "--splits", "usps:100", "--split-line", "1", "--scale", "none", "--C", "1",
		"--kernel", "linear,hck:average,hckg:average", "--learner", "svm,knn", "--k", "1,5"},
	// ten repetitions of S4VM / HiBUST on iris: two run the same code
	"eval --data iris --labeled-per-class 10 --repeats 10 --scale minmax --learner svm,s4vm --C 100": {
		"eval", "--data", "iris", "--labeled-per-class", "10", "--repeats", "2", "--scale", "minmax", "--learner", "svm,s4vm", "--C", "100"},
	"eval --data iris --scale minmax --labeled-per-class 10 --repeats 10 --learner s4vm,hibust": {
		"eval", "--data", "iris", "--scale", "minmax", "--labeled-per-class", "10", "--repeats", "2", "--learner", "s4vm,hibust"},
}

// readmeSkip lists the manual's commands the test does not run, each with
// the reason. Every other command must run from a fresh checkout.
var readmeSkip = map[string]string{
	"classify --data g9.csv --scale minmax --learner hibust --seed 1 --out p.csv --dendrogram tree.png":                                                                   "reads g9.csv, which the gzip | awk line before it writes from dataset/data/gauss9.csv.gz, and takes 5 s (docs/outputs.md)",
	"classify --data /tmp/train.csv --label class --ignore truth --kernel hck:average --landmarks 500 --learner svm --save-model /tmp/m.arbor --out /tmp/fit.csv --quiet": "reads the 100,000-row file bench/predictbig writes (docs/performance.md)",
	"classify --data /tmp/lmacc/letter-l50.csv --label label --ignore truth --kernel hck:average --learner svm --save-model exact.arbor --out fit.csv --quiet":            "reads UCI letter, which bench/lmacc/export.R writes with R's mlbench (docs/performance.md)",
	"classify --data /tmp/train.csv --label class --ignore truth --learner spreading --landmarks 500 --save-model /tmp/s.arbor --out /tmp/fit.csv --quiet":                "reads the 100,000-row file bench/predictbig writes (docs/performance.md)",
}

// TestREADMECommands runs every arbor command of README.md and docs/*.md
// through run(), from a scratch directory holding the repository files the
// commands read (so no command needs a file a fresh clone lacks, such as
// ../shared), and fails on any error: the manual's examples stay runnable as
// written.
func TestREADMECommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmds := manualCommands(t, root)
	if len(cmds) < 30 {
		t.Fatalf("found %d arbor commands in README.md and docs/*.md", len(cmds))
	}
	used := map[string]bool{}
	for _, c := range cmds {
		used[c.line()] = true
	}
	for line := range readmeCheaper {
		if !used[line] {
			t.Errorf("readmeCheaper names a command the manual no longer has: arbor %s", line)
		}
	}
	for line := range readmeSkip {
		if !used[line] {
			t.Errorf("readmeSkip names a command the manual no longer has: arbor %s", line)
		}
	}
	dir := t.TempDir()
	t.Chdir(dir)
	start := time.Now()
	for _, c := range cmds {
		line := c.line()
		if why, ok := readmeSkip[line]; ok {
			t.Logf("skip  arbor %s (%s): %s", line, c.file, why)
			continue
		}
		args := c.args
		if cheaper, ok := readmeCheaper[line]; ok {
			args = cheaper
		}
		stageInputs(t, root, args)
		var so, se bytes.Buffer
		t0 := time.Now()
		err := run(context.Background(), append(args, quietFor(args)...), &so, &se)
		t.Logf("%5.1fs arbor %s (%s)", time.Since(t0).Seconds(), strings.Join(args, " "), c.file)
		if err != nil {
			t.Errorf("arbor %s (%s): %v\n%s", line, c.file, err, se.String())
		}
	}
	t.Logf("%d commands in %.1fs", len(cmds), time.Since(start).Seconds())
}

// stageInputs copies the repository files a command of the manual names
// (such as examples/new_points.csv) into the working directory under the
// same relative path; a path outside the repository is an error (such a
// command belongs in readmeSkip, with the reason).
func stageInputs(t *testing.T, root string, args []string) {
	t.Helper()
	for _, a := range args {
		for _, p := range []string{a, strings.TrimPrefix(a, "--data=")} {
			if strings.Contains(p, "..") || filepath.IsAbs(p) {
				t.Errorf("arbor %s: path %q outside the repository (put it in readmeSkip with the reason)", strings.Join(args, " "), p)
				continue
			}
			if st, err := os.Stat(filepath.Join(root, p)); err == nil && !st.IsDir() && filepath.Dir(p) != "." {
				os.MkdirAll(filepath.Dir(p), 0o755)
				data, _ := os.ReadFile(filepath.Join(root, p))
				os.WriteFile(p, data, 0o644)
			}
		}
	}
}

// quietFor adds --quiet where the command has it (progress would only
// clutter the test log).
func quietFor(args []string) []string {
	switch args[0] {
	case "cluster", "kernel", "classify", "eval", "svc":
		for _, a := range args {
			if a == "--quiet" || a == "--json" && args[0] == "eval" {
				return nil
			}
		}
		return []string{"--quiet"}
	}
	return nil
}
