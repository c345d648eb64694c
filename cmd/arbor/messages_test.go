package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// Usage mistakes of issue 11's audit: each a usage error (exit 2) with a
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
		{[]string{"cluster", "--data", "iris"}, "give --k N or --height H"},
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
