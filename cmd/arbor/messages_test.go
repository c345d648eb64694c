package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Usage mistakes: each a usage error (exit 2) with a
// message that says what is wrong.
func TestFlagMistakes(t *testing.T) {
	dir := t.TempDir()
	two := writeFile(t, dir, "d.csv", "x,y,label\n0,0,cat\n0.1,0,\n5,5,cat\n5.1,5,\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cluster", "--data", "iris", "--k", "3", "--k", "4"}, "--k given twice"},
		{[]string{"cluster", "--data", "iris", "--quiet", "--quiet", "--k", "2"}, "--quiet given twice"},
		{[]string{"cluster", "--data", "iris", "--height", "NaN"}, "--height NaN: give a finite number"},
		{[]string{"kernel", "--data", "iris", "--kernel", "rbf", "--gamma", "NaN", "--out", filepath.Join(dir, "K.csv")}, "--gamma NaN: give a finite number"},
		{[]string{"kernel", "--data", "iris", "--embed", "-1", "--out", filepath.Join(dir, "K.csv")}, "--embed -1: give the number of dimensions"},
		{[]string{"cluster", "--data", "iris"}, "give --clusters N or --height H"},
		{[]string{"cluster", "--data", "iris", "--k", "2", "--clusters", "2"}, "--k is the old name of --clusters"},
		{[]string{"cluster", "--data", "iris", "--bogus"}, "flag provided but not defined: --bogus"},
	} {
		_, _, err := arbor(t, tc.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
	// a single class is named, with the file
	_, _, err := arbor(t, "classify", "--data", two, "--learner", "knn", "--quiet")
	if err == nil || !strings.Contains(err.Error(), two+`: every labelled row has class "cat" (label column "label")`) {
		t.Errorf("single class: %v", err)
	}
}

func TestHelpAndVersion(t *testing.T) {
	_, stderr, err := arbor(t, "kernel", "--help")
	if err == nil || exitCode(err) != 0 {
		t.Fatalf("--help: %v", err)
	}
	if !strings.Contains(stderr, "\n  --data string\n") || strings.Contains(stderr, "\n  -data") || strings.Contains(stderr, "(default NaN)") {
		t.Errorf("help:\n%s", stderr)
	}
	out, _, err := arbor(t, "--version")
	if err != nil || !strings.HasPrefix(out, "arbor ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: %q %v", out, err)
	}
}

// Overflowing kernels and features: an error that names the cause, no
// matrix of +Inf written.
func TestOverflowErrors(t *testing.T) {
	dir := t.TempDir()
	K := filepath.Join(dir, "K.csv")
	for spec, canon := range map[string]string{"poly:1:1:200": "poly:1:1:200", "poly:1e300:1:3": "poly:1e+300:1:3"} {
		_, _, err := arbor(t, "kernel", "--data", "iris", "--kernel", spec, "--out", K, "--quiet")
		if err == nil || !strings.Contains(err.Error(), "kernel "+canon+": entry") || !strings.Contains(err.Error(), "+Inf") {
			t.Errorf("%s: %v", spec, err)
		}
		if _, err := os.Stat(K); err == nil {
			t.Errorf("%s: wrote %s", spec, K)
		}
	}
	big := writeFile(t, dir, "big.csv", "a,b,label\n1,2,x\n3,1e300,y\n5,6,x\n")
	for _, args := range [][]string{
		{"cluster", "--clusters", "2"},
		{"kernel", "--kernel", "rbf", "--out", K},
	} {
		_, _, err := arbor(t, append(args, "--data", big, "--quiet")...)
		if err == nil || !strings.Contains(err.Error(), `big.csv:3: column "b": value too large: 1e+300: `) || !strings.Contains(err.Error(), "--ignore b") {
			t.Errorf("%s: %v", args[0], err)
		}
	}
}

// cluster reports the cophenetic correlation without forming the
// cophenetic matrix, and skips it on request.
func TestClusterCophenetic(t *testing.T) {
	out := mustArbor(t, "cluster", "--data", "iris", "--clusters", "3", "--quiet")
	if !strings.Contains(out, "cophenetic correlation 0.") {
		t.Errorf("stdout:\n%s", out)
	}
	out = mustArbor(t, "cluster", "--data", "iris", "--clusters", "3", "--quiet", "--cophenetic=false")
	if strings.Contains(out, "cophenetic") {
		t.Errorf("--cophenetic=false:\n%s", out)
	}
}

// cluster --k still works, with a notice that it is now --clusters.
func TestClusterKDeprecated(t *testing.T) {
	out, stderr, err := arbor(t, "cluster", "--data", "iris", "--k", "3", "--quiet")
	if err != nil || !strings.Contains(out, "clusters   3") || !strings.Contains(stderr, "cluster --k is deprecated: use --clusters N") {
		t.Errorf("%v\n%s\n%s", err, out, stderr)
	}
}
