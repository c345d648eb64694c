package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbor-ml/arbor/internal/atomicfile"
)

// Several outputs are written all or none: when a later one fails, the
// earlier ones are not left behind.
func TestOutputBatchAllOrNone(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	var batch atomicfile.Batch
	if err := batch.Write(a, func(f *os.File) error { _, err := f.WriteString("1\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := batch.Write(b, func(f *os.File) error { return errors.New("disk full") }); err == nil {
		t.Fatal("no error")
	}
	batch.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left %v", ents)
	}
	// a rename that fails takes back the outputs already in place (b
	// becomes a directory while the batch is written)
	batch = atomicfile.Batch{}
	for _, p := range []string{a, b} {
		if err := batch.Write(p, func(f *os.File) error { _, err := f.WriteString("1\n"); return err }); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(b, 0o777); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(b, "x"), nil, 0o666)
	if err := batch.Commit(); err == nil {
		t.Fatal("commit onto a directory succeeded")
	}
	batch.Abort()
	if _, err := os.Stat(a); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a.csv stayed: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left %v", ents)
	}
}

// Stale temporary files of Arbor's naming are removed: a dead process's,
// and an hour-old one of the older naming; a live process's stays.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1)")
	}
	dead := filepath.Join(dir, ".K.csv.tmp-"+strconv.Itoa(cmd.Process.Pid)+"-abc")
	old := filepath.Join(dir, ".K.csv.tmp-zz9")
	live := filepath.Join(dir, ".K.csv.tmp-1-abc") // pid 1 always runs
	other := filepath.Join(dir, ".L.csv.tmp-"+strconv.Itoa(cmd.Process.Pid)+"-abc")
	for _, p := range []string{dead, old, live, other} {
		os.WriteFile(p, []byte("half"), 0o666)
	}
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, past, past)
	mustArbor(t, "kernel", "--data", "iris", "--out", filepath.Join(dir, "K.csv"), "--quiet")
	for p, want := range map[string]bool{dead: false, old: false, live: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// An output directory that cannot be written is found before the work.
func TestOutputWritableFirst(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	if os.Geteuid() == 0 {
		ro = "/proc" // root writes anywhere but in /proc
		if st, err := os.Stat(ro); err != nil || !st.IsDir() {
			t.Skip("no /proc")
		}
	}
	out := filepath.Join(dir, "labels.csv")
	_, _, err := arbor(t, "cluster", "--data", "iris", "--k", "3", "--quiet", "--out", out, "--newick", filepath.Join(ro, "t.nwk"))
	if err == nil || !strings.Contains(err.Error(), "cannot write in") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("labels.csv written: %v", err)
	}
}
