package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJobFlagsBesideBeams: a job flag that Beam also defines (the worker's
// --id) is the job's, Beam's own flags still reach Beam, and a job runs to
// its first real error instead of panicking on a redefined flag.
func TestJobFlagsBesideBeams(t *testing.T) {
	if flag.CommandLine.Lookup("id") == nil {
		t.Skip("this Beam version defines no --id flag")
	}
	for _, name := range []string{"predict", "features", "knngraph"} {
		var stderr bytes.Buffer
		dir := t.TempDir()
		args := []string{name, "--id", "key", "--model", filepath.Join(dir, "missing.arbor"),
			"--data", filepath.Join(dir, "x.csv"), "--out", filepath.Join(dir, "out"), "--runner", "direct"}
		if name == "knngraph" {
			args = []string{name, "--id", "key", "--k", "3", "--data", filepath.Join(dir, "x.csv"),
				"--out", filepath.Join(dir, "out"), "--runner", "direct"}
		}
		code := run(context.Background(), args, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "x.csv") && !strings.Contains(stderr.String(), "missing.arbor") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and the missing file named", name, code, stderr.String())
		}
	}
}

func TestSplitArgs(t *testing.T) {
	jobs := flag.NewFlagSet("job", flag.ContinueOnError)
	jobs.String("id", "", "")
	jobs.Bool("ordered", false, "")
	beams := flag.NewFlagSet("beam", flag.ContinueOnError)
	beams.String("id", "", "")
	beams.String("runner", "", "")
	beams.Bool("async", false, "")
	ours, theirs := splitArgs(jobs, beams, []string{"--id", "key", "--runner", "flink", "--ordered", "--async", "-id=k2", "--endpoint=x:1", "extra"})
	if want := []string{"--id", "key", "--ordered", "-id=k2", "extra"}; !slices.Equal(ours, want) {
		t.Errorf("ours %q, want %q", ours, want)
	}
	if want := []string{"--runner", "flink", "--async", "--endpoint=x:1"}; !slices.Equal(theirs, want) {
		t.Errorf("theirs %q, want %q", theirs, want)
	}
}

// TestEvalEmbeddedRoles: eval on an embedded set refuses a --label other
// than the set's label column and the options of files as arbor eval
// does, as usage errors (exit status 2) before any pipeline runs; its
// label column named (by name or position) gives the table of the run
// without --label.
func TestEvalEmbeddedRoles(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--label", "f9"}, "arbor-beam eval: --label f9: the embedded set iris (columns f1, f2, f3, f4, label) has its labels in column label (5): --label can name only that column\n"},
		{[]string{"--id", "f1"}, "arbor-beam eval: --id applies to data files, not the embedded set iris\n"},
		{[]string{"--unlabeled-marker", "0"}, "arbor-beam eval: --unlabeled-marker applies to data files, not the embedded set iris\n"},
	} {
		var stderr bytes.Buffer
		args := append([]string{"eval", "--data", "iris", "--quiet", "--kernel", "linear", "--learner", "knn", "--labeled-per-class", "3", "--repeats", "1", "--runner", "direct"}, c.args...)
		if code := run(context.Background(), args, &stderr); code != 2 || stderr.String() != c.want {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
	dir := t.TempDir()
	var tables []string
	for i, label := range [][]string{nil, {"--label", "LABEL"}, {"--label", "5"}} {
		var stderr bytes.Buffer
		out := filepath.Join(dir, fmt.Sprintf("table%d.txt", i))
		args := append([]string{"eval", "--data", "embedded:iris", "--quiet", "--out", out, "--kernel", "linear", "--learner", "knn", "--labeled-per-class", "3", "--repeats", "2", "--runner", "direct"}, label...)
		if code := run(context.Background(), args, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(label, " "), code, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, untimed(t, string(b), false))
	}
	if tables[0] == "" || tables[1] != tables[0] || tables[2] != tables[0] {
		t.Errorf("tables differ with --label LABEL, --label 5:\n%s\n%s\n%s", tables[0], tables[1], tables[2])
	}
}

// TestEvalLIBSVMRoles: eval on a LIBSVM file refuses --label and the
// options of delimited text as arbor eval does (exit status 2).
func TestEvalLIBSVMRoles(t *testing.T) {
	svm := filepath.Join(t.TempDir(), "s.svm")
	if err := os.WriteFile(svm, []byte("1 1:0.5 2:1.0\n2 1:0.1 2:0.3\n1 1:0.6 2:0.9\n2 1:0.2 2:0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--label", "f1"}, "arbor-beam eval: --label f1: " + svm + " is LIBSVM text (features f1, f2): its labels are at the start of each line, not in a column, and --label cannot name them\n"},
		{[]string{"--features", "f1"}, "arbor-beam eval: --features applies to delimited text, not to " + svm + ", which is LIBSVM text (features f1, f2)\n"},
	} {
		var stderr bytes.Buffer
		args := append([]string{"eval", "--data", svm, "--quiet", "--kernel", "linear", "--learner", "knn", "--labeled-per-class", "1", "--repeats", "1", "--runner", "direct"}, c.args...)
		if code := run(context.Background(), args, &stderr); code != 2 || stderr.String() != c.want {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
}
