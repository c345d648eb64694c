package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check refuses, naming the paths, what could not be written, and the
// mistakes in the naming are ErrPaths; standard output, outputs not asked
// for and in-place outputs named twice pass.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	os.WriteFile(data, []byte("x\n1\n"), 0o644)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(data, link); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.csv")
	in := Path{Name: "--data", Path: data, Input: true}
	for _, tc := range []struct {
		paths []Path
		want  string // "" passes
	}{
		{[]Path{in, {Name: "--out", Path: out}, {Name: "--tree", Path: ""}, {Name: "--plot", Path: "-"}}, ""},
		{[]Path{{Name: "--out", Path: os.DevNull}, {Name: "--newick", Path: os.DevNull}}, ""},
		{[]Path{in, {Name: "--out", Path: link}}, "--out " + link + " would overwrite the --data input"},
		{[]Path{{Name: "--out", Path: out}, {Name: "--tree", Path: filepath.Join(dir, ".", "out.csv")}}, "--out and --tree both write " + filepath.Join(dir, "out.csv")},
		{[]Path{{Name: "--out", Path: filepath.Join(dir, "no", "o.csv")}}, "--out " + filepath.Join(dir, "no", "o.csv") + ": directory " + filepath.Join(dir, "no") + " does not exist"},
		{[]Path{{Name: "--out", Path: dir}}, "--out " + dir + ": is a directory"},
	} {
		err := Check(tc.paths...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.paths, err)
		case tc.want != "" && (!errors.Is(err, ErrPaths) || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%v: %v, want ErrPaths %q", tc.paths, err, tc.want)
		}
	}
	if err := Check(Path{Name: "--out", Path: dir}); !errors.Is(err, ErrNotFile) {
		t.Errorf("a directory: %v, want ErrNotFile too", err)
	}
	// A file where a directory should be is the system's error.
	if err := Check(Path{Name: "--out", Path: filepath.Join(data, "o.csv")}); err == nil || errors.Is(err, ErrPaths) || !strings.HasPrefix(err.Error(), "--out ") {
		t.Errorf("under a file: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("Check wrote the output")
	}
}

// Standard output is written at Commit after the files, and not at all
// when the batch fails.
func TestWriteOut(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.csv")
	var stdout bytes.Buffer
	var b Batch
	b.WriteOut(Stdout, &stdout, func(w io.Writer) error {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("standard output written before the file: %v", err)
		}
		_, err := io.WriteString(w, "labels\n")
		return err
	})
	b.WriteOut(path, &stdout, func(w io.Writer) error { _, err := io.WriteString(w, "a\n"); return err })
	if stdout.Len() != 0 {
		t.Error("standard output written before Commit")
	}
	if err := b.Commit(); err != nil || stdout.String() != "labels\n" {
		t.Errorf("commit: %v, stdout %q", err, stdout.String())
	}
	stdout.Reset()
	var failed Batch
	failed.WriteOut(Stdout, &stdout, func(w io.Writer) error { _, err := io.WriteString(w, "labels\n"); return err })
	boom := errors.New("boom")
	if err := failed.WriteOut(filepath.Join(dir, "b.csv"), &stdout, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("failed write: %v", err)
	}
	failed.Abort()
	if err := failed.Commit(); err != nil || stdout.Len() != 0 {
		t.Errorf("after Abort: %v, stdout %q", err, stdout.String())
	}
}
