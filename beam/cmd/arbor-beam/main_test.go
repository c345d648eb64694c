package main

import (
	"bytes"
	"context"
	"flag"
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
