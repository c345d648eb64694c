//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeString(s string) func(f *os.File) error {
	return func(f *os.File) error { _, err := f.WriteString(s); return err }
}

// mknod makes a device node in a test directory, or skips the test where
// that is not permitted (not root, or no CAP_MKNOD).
func mknod(t *testing.T, path string, mode uint32, dev int) {
	t.Helper()
	if err := syscall.Mknod(path, mode, dev); err != nil {
		t.Skipf("mknod %s: %v", path, err)
	}
}

// A symbolic link to a regular file replaces the file it leads to, through
// a chain of relative links, and stays a link; a link to nothing creates
// the file it names.
func TestWriteSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o777)
	file := filepath.Join(sub, "real.csv")
	os.WriteFile(file, []byte("old\n"), 0o666)
	os.Symlink("sub/real.csv", filepath.Join(dir, "a"))
	os.Symlink("a", filepath.Join(dir, "b"))
	if err := Write(filepath.Join(dir, "b"), writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"a", "b"} {
		if st, err := os.Lstat(filepath.Join(dir, l)); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", l, st.Mode(), err)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "new\n" {
		t.Errorf("target holds %q", b)
	}
	if ents, _ := os.ReadDir(sub); len(ents) != 1 {
		t.Errorf("sub holds %v", ents)
	}
	os.Symlink("sub/later.csv", filepath.Join(dir, "dangling"))
	if err := Write(filepath.Join(dir, "dangling"), writeString("x\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(sub, "later.csv")); string(b) != "x\n" {
		t.Errorf("dangling link's target holds %q", b)
	}
	os.Symlink("loop", filepath.Join(dir, "loop"))
	if err := Write(filepath.Join(dir, "loop"), writeString("x\n")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a link to itself: %v", err)
	}
}

// A directory is an error, the directory left as it was.
func TestWriteDirectory(t *testing.T) {
	dir := t.TempDir()
	d := filepath.Join(dir, "out")
	os.Mkdir(d, 0o777)
	err := Write(d, writeString("x"))
	if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("err = %v", err)
	}
	if err := Probe(d); !errors.Is(err, ErrNotFile) {
		t.Errorf("Probe: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %v", ents)
	}
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Errorf("out: %v %v", st, err)
	}
}

// A FIFO is written in place: its reader receives the bytes, and it stays
// a FIFO. Probe checks it without opening it (which would end the
// reader's input).
func TestWriteFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		b, err := os.ReadFile(fifo) // opens when the writer does; EOF when it closes
		if err != nil {
			got <- "error: " + err.Error()
		}
		got <- string(b)
	}()
	if err := Probe(fifo); err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("0123456789\n", 10000) // more than a pipe's buffer
	if err := Write(fifo, writeString(want)); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("fifo is now %v (%v)", st.Mode(), err) // its reader waits for ever
	}
	if s := <-got; s != want {
		t.Errorf("reader received %d bytes, want %d", len(s), len(want))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %v", ents)
	}
}

// A character device is written in place (opened for writing, not
// replaced): a node the test makes with /dev/null's numbers stays that
// node. A block device is an error and is left alone.
func TestWriteDevice(t *testing.T) {
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	mknod(t, null, syscall.S_IFCHR|0o666, 1<<8|3) // Linux's major 1, minor 3
	if f, err := os.OpenFile(null, os.O_WRONLY, 0); err != nil {
		t.Skipf("device nodes cannot be opened here (nodev?): %v", err)
	} else {
		f.Close()
	}
	before, _ := os.Lstat(null)
	if err := Probe(null); err != nil {
		t.Fatal(err)
	}
	if err := Write(null, writeString("discarded\n")); err != nil {
		t.Fatal(err)
	}
	after, err := os.Lstat(null)
	if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) ||
		after.Sys().(*syscall.Stat_t).Rdev != before.Sys().(*syscall.Stat_t).Rdev {
		t.Errorf("null is now %v (%v)", after.Mode(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %v", ents)
	}

	blk := filepath.Join(dir, "blk")
	mknod(t, blk, syscall.S_IFBLK|0o600, 7<<8|250) // a loop device number; never opened
	err = Write(blk, writeString("x"))
	if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), "block device") {
		t.Errorf("block device: %v", err)
	}
	if st, err := os.Lstat(blk); err != nil || st.Mode()&os.ModeDevice == 0 || st.Mode()&os.ModeCharDevice != 0 {
		t.Errorf("blk is now %v (%v)", st.Mode(), err)
	}
}

// This process's open descriptors, named as /proc/self/fd/N or
// /dev/fd/N, are written through the descriptor: a pipe's reader receives
// the bytes, and a file opened for appending is appended to, at its
// offset, not replaced.
func TestWriteOwnDescriptor(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	for _, form := range []string{"/proc/self/fd/%d", "/dev/fd/%d", "/proc/thread-self/fd/%d"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf(form, w.Fd())
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s: %v", path, err)
			r.Close()
			w.Close()
			continue
		}
		if file, inPlace, err := Resolve(path); err != nil || !inPlace || file != path {
			t.Errorf("Resolve(%s) = %s, %v, %v", path, file, inPlace, err)
		}
		got := make(chan string)
		go func() { b, _ := io.ReadAll(r); got <- string(b) }()
		if err := Write(path, writeString("through the pipe\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := w.WriteString("still open\n"); err != nil {
			t.Errorf("%s: the descriptor was closed: %v", path, err)
		}
		w.Close()
		if s := <-got; s != "through the pipe\nstill open\n" {
			t.Errorf("%s: reader received %q", path, s)
		}
		r.Close()
	}

	log := filepath.Join(t.TempDir(), "log")
	os.WriteFile(log, []byte("first\n"), 0o666)
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, _ := os.Stat(log)
	if err := Write(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), writeString("second\n")); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(log)
	if b, _ := os.ReadFile(log); string(b) != "first\nsecond\n" || !os.SameFile(before, after) {
		t.Errorf("log holds %q (same file %v)", b, os.SameFile(before, after))
	}
}

// A batch writes its in-place outputs at Commit: a file output that fails
// while the batch is written leaves the pipe without a byte; a committed
// batch fills both.
func TestBatchInPlaceAtCommit(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	dir := t.TempDir()
	for _, fail := range []bool{true, false} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan string)
		go func() { b, _ := io.ReadAll(r); got <- string(b) }()
		var b Batch
		if err := b.Write(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), writeString("labels\n")); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "tree.nwk")
		err = b.Write(file, func(f *os.File) error {
			if fail {
				return errors.New("disk full")
			}
			_, err := f.WriteString("(a,b);\n")
			return err
		})
		if err == nil {
			err = b.Commit()
		}
		b.Abort()
		w.Close()
		s := <-got
		r.Close()
		content, _ := os.ReadFile(file)
		if fail && (err == nil || s != "" || content != nil) {
			t.Errorf("failed batch: err %v, pipe %q, file %q", err, s, content)
		}
		if !fail && (err != nil || s != "labels\n" || string(content) != "(a,b);\n") {
			t.Errorf("batch: err %v, pipe %q, file %q", err, s, content)
		}
	}
}
