package main

// Findings of a new user's pass over the CLI with files it had not seen
// (notes/newuser.md): each test failed before its fix.

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// --quiet silences the data-reading notice, keeps its warnings, and never
// hides an error.
func TestQuietSilencesDataNotice(t *testing.T) {
	dir := t.TempDir()
	// An ID-like first column (warned about), a class column, 24 rows.
	var b strings.Builder
	b.WriteString("n,x1,x2,label\n")
	for i := 0; i < 24; i++ {
		lab := []string{"a", "b", "?"}[i%3]
		b.WriteString(strings.Join([]string{strconv.Itoa(i + 1), strconv.Itoa(i % 5), strconv.Itoa((i * 7) % 11), lab}, ",") + "\n")
	}
	data := writeFile(t, dir, "d.csv", b.String())
	out := filepath.Join(dir, "p.csv")
	for _, cmd := range [][]string{
		{"classify", "--data", data, "--kernel", "linear", "--learner", "knn", "--out", out},
		{"cluster", "--data", data, "--clusters", "2", "--out", out},
		{"kernel", "--data", data, "--kernel", "linear", "--out", filepath.Join(dir, "K.csv")},
	} {
		_, stderr, err := arbor(t, append(cmd, "--quiet")...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd[0], err, stderr)
		}
		if strings.Contains(stderr, "data: ") || strings.Contains(stderr, "features  ") {
			t.Errorf("%s --quiet printed the data notice:\n%s", cmd[0], stderr)
		}
		if !strings.Contains(stderr, `warning: feature column "n" looks like a row ID`) {
			t.Errorf("%s --quiet dropped the ID-column warning:\n%s", cmd[0], stderr)
		}
		_, loud, err := arbor(t, cmd...)
		if err != nil || !strings.Contains(loud, "data: "+data) {
			t.Errorf("%s without --quiet: no data notice (%v):\n%s", cmd[0], err, loud)
		}
	}
	// Errors still reach the user.
	bad := writeFile(t, dir, "bad.csv", "x1,x2,label\n1,2,a\n3,oops,b\n4,5,a\n")
	_, _, err := arbor(t, "cluster", "--data", bad, "--clusters", "2", "--out", out, "--quiet")
	if err == nil || !strings.Contains(err.Error(), `bad.csv:3: column "x2"`) {
		t.Errorf("--quiet on a bad file: %v, want the file, line and column", err)
	}
}
