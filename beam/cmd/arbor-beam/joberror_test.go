package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain makes the test binary the arbor-beam command when
// ARBOR_BEAM_MAIN is set, so that a test sees a whole process: its
// standard error (the runner's log lines included) and its exit status.
func TestMain(m *testing.M) {
	if os.Getenv("ARBOR_BEAM_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// arborBeam runs arbor-beam with args in dir and returns its standard
// error and exit status.
func arborBeam(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ARBOR_BEAM_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stderr.String(), 0
	case errors.As(err, &exit):
		return stderr.String(), exit.ExitCode()
	}
	t.Fatalf("arbor-beam %s: %v", strings.Join(args, " "), err)
	return "", 0
}

// TestJobErrors: a job that fails on bad input prints the failing step's
// own error, naming the file, line and column, after Arbor's own progress
// lines and nothing else (no runner log lines, no Beam plan), and exits
// with status 1; a mistake in the command line is one line and status 2.
func TestJobErrors(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"good.csv":   "f1,f2,label\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n1,3,a\n2,2,b\n",
		"bad.csv":    "f1,f2,label\n1,2,a\n3,x,b\n",
		"header.csv": "f1,f2,label\n",
		"nof2.csv":   "f1,label\n1,a\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	arbor := buildArbor(t, t.TempDir())
	build := exec.Command(arbor, "classify", "--data", "good.csv", "--landmarks", "2", "--save-model", "m.arbor", "--quiet")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("arbor classify: %v\n%s", err, out)
	}
	badCell := `bad.csv:3: column "f2": not a number "x"`
	for _, c := range []struct {
		name string
		args []string
		want []string // stderr's lines; "fit: …" stands for fit's own progress line
		code int
	}{
		{"fit-bad-cell", []string{"fit", "--data", "bad.csv", "--label", "label", "--landmarks", "5", "--save-model", "out.arbor"},
			[]string{"fit: …", "arbor-beam fit: " + badCell}, 1},
		{"fit-bad-cell-direct", []string{"fit", "--data", "bad.csv", "--label", "label", "--landmarks", "5", "--save-model", "out.arbor", "--runner", "direct"},
			[]string{"fit: …", "arbor-beam fit: " + badCell}, 1},
		{"fit-missing-column", []string{"fit", "--data", "good.csv", "--label", "label", "--features", "f1,f9", "--landmarks", "5", "--save-model", "out.arbor"},
			[]string{"fit: …", `arbor-beam fit: good.csv:1: column "f9": no such column (feature column; header has "f1", "f2", "label")`}, 1},
		{"fit-header-only", []string{"fit", "--data", "header.csv", "--label", "label", "--landmarks", "5", "--save-model", "out.arbor"},
			[]string{"fit: …", "arbor-beam fit: header.csv:2: header only, no data rows"}, 1},
		{"predict-bad-cell", []string{"predict", "--model", "m.arbor", "--data", "bad.csv", "--out", "p1"},
			[]string{"arbor-beam predict: " + badCell}, 1},
		{"predict-missing-column", []string{"predict", "--model", "m.arbor", "--data", "nof2.csv", "--out", "p2"},
			[]string{`arbor-beam predict: nof2.csv: feature columns do not match the model: no column "f2" (the model's features are "f1", "f2"; the file's columns are "f1", "label")`}, 1},
		{"predict-header-only-direct", []string{"predict", "--model", "m.arbor", "--data", "header.csv", "--out", "p3", "--runner", "direct"},
			[]string{"arbor-beam predict: header.csv:2: header only, no data rows"}, 1},
		{"features-bad-cell", []string{"features", "--model", "m.arbor", "--data", "bad.csv", "--out", "f1"},
			[]string{"arbor-beam features: " + badCell}, 1},
		{"features-header-only", []string{"features", "--model", "m.arbor", "--data", "header.csv", "--out", "f2"},
			[]string{"arbor-beam features: header.csv:2: header only, no data rows"}, 1},
		{"knngraph-bad-cell", []string{"knngraph", "--data", "bad.csv", "--k", "1", "--out", "g1"},
			[]string{"arbor-beam knngraph: " + badCell}, 1},
		{"eval-bad-cell", []string{"eval", "--data", "bad.csv", "--labeled-per-class", "1", "--repeats", "1"},
			[]string{"arbor-beam eval: " + badCell}, 1},
		{"unknown-runner", []string{"predict", "--model", "m.arbor", "--data", "good.csv", "--out", "p5", "--runner", "bogus"},
			[]string{"arbor-beam predict: Runner bogus not registered. Forgot to _ import it?"}, 1},
		{"unknown-flag", []string{"predict", "--model", "m.arbor", "--data", "bad.csv", "--out", "p4", "--bogus", "3"},
			[]string{"arbor-beam predict: flag provided but not defined: -bogus (arbor-beam predict -h lists the flags)"}, 2},
		{"bad-flag-value", []string{"fit", "--data", "good.csv", "--landmarks", "x"},
			[]string{`arbor-beam fit: invalid value "x" for flag -landmarks: parse error (arbor-beam fit -h lists the flags)`}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			stderr, code := arborBeam(t, dir, c.args...)
			got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			ok := code == c.code && len(got) == len(c.want)
			for i := 0; ok && i < len(got); i++ {
				if prefix, progress := strings.CutSuffix(c.want[i], "…"); progress {
					ok = strings.HasPrefix(got[i], prefix)
				} else {
					ok = got[i] == c.want[i]
				}
			}
			if !ok {
				t.Errorf("exit %d, stderr\n%s\nwant exit %d, stderr\n%s", code, stderr, c.code, strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestJobErrorVerbose: with --verbose the runner's log lines and the
// whole Beam error (the plan the failing bundle ran) are on stderr, the
// step's own error last.
func TestJobErrorVerbose(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("f1,f2,label\n1,2,a\n3,x,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr, code := arborBeam(t, dir, "fit", "--data", "bad.csv", "--label", "label", "--landmarks", "5", "--save-model", "out.arbor", "--verbose")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"level=INFO", "level=ERROR", "arbor-beam fit: job ", "DataSource[", "\tcaused by:\n",
		"] failed:\n" + `bad.csv:3: column "f2": not a number "x"` + "\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestStepError: the failing step's own error is the text after the
// innermost "DoFn[…] failed:" line of a job's error; an error without
// such a line (a panic's, with its stack) is kept whole.
func TestStepError(t *testing.T) {
	plan := "job job-001 failed:\nbundle inst001 stage-001 failed:process bundle failed for instruction inst001 using plan stage-001 : while executing Process for Plan[stage-001]:\n" +
		"1: DataSource[S[stage-001_source@localhost:1], i0] Out:2 Coder:W;c0!GWC \n2: ParDo[x.headFn] Out:[] Sig: func([]uint8) error, SideInputs: []\n\tcaused by:\n"
	for _, c := range []struct{ err, want string }{
		{plan + "DoFn[UID:2, PID:e5, Name: github.com/arbor-ml/arbor/beam/arborbeam.headFn] failed:\nb.csv:3: column \"f2\": not a number \"x\"",
			`b.csv:3: column "f2": not a number "x"`},
		{plan + "DoFn[UID:2, PID:e5, Name: outer] failed:\nreading ranges\n\tcaused by:\nDoFn[UID:3, PID:e6, Name: inner[T]] failed:\nf.csv:12: column \"x3\": not a number \"1,5\"\nsecond line\n",
			"f.csv:12: column \"x3\": not a number \"1,5\"\nsecond line"},
		{"job job-001 failed:\nbundle inst001 stage-001 failed:panic: index out of range [3] with length 3\nFull error:\n\tplan\npanic: index out of range [3] with length 3 goroutine 7 [running]:\nruntime/debug.Stack()",
			"job job-001 failed:\nbundle inst001 stage-001 failed:panic: index out of range [3] with length 3\nFull error:\n\tplan\npanic: index out of range [3] with length 3 goroutine 7 [running]:\nruntime/debug.Stack()"},
		{"job job-002 failed:\nworker lost", "job job-002 failed:\nworker lost"},
		{plan + "DoFn[UID:2, PID:e5, Name: f] failed:\n \n", plan + "DoFn[UID:2, PID:e5, Name: f] failed:\n \n"},
	} {
		if got := stepError(errors.New(c.err)); got != c.want {
			t.Errorf("stepError(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
