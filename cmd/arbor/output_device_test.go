//go:build unix

package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// threeFeatureCSV writes n rows x1,x2,x3,label of two separated groups
// (a, b; every fifth row unlabelled, "?") to dir/name.
func threeFeatureCSV(t *testing.T, dir, name string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,x2,x3,label\n")
	for i := range n {
		c := i % 2
		label := string("ab"[c])
		if i%5 == 4 {
			label = "?"
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%.4f,%s\n", float64(3*c)+math.Sin(float64(i)), float64(3*c)+math.Cos(1.3*float64(i)), math.Sin(0.7*float64(i)), label)
	}
	return writeFile(t, dir, name, b.String())
}

// nullDevice makes a character device with /dev/null's numbers (Linux:
// major 1, minor 3) at path, or skips the test where that is not
// permitted or device nodes cannot be opened.
func nullDevice(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("device nodes cannot be opened here (nodev?): %v", err)
	}
	f.Close()
}

// Every output flag written to a character device leaves the device in
// place (it is written, not replaced by a regular file), and no other file
// appears: --out, --save-model, --linkage-out, --newick, --levels-out,
// --tree, pictures, kernel and embedding matrices.
func TestOutputsToCharDevice(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", base, "--save-model", model, "--quiet")
	devs := filepath.Join(dir, "dev")
	os.Mkdir(devs, 0o777)
	null := filepath.Join(devs, "null")
	nullDevice(t, null)
	want, _ := os.Lstat(null)
	// names with the extensions the commands ask for: symbolic links
	// to the device, followed
	dev := map[string]string{"": null}
	for _, ext := range []string{".csv", ".npy", ".png", ".svg", ".json", ".arbor"} {
		dev[ext] = filepath.Join(devs, "null"+ext)
		if err := os.Symlink("null", dev[ext]); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"predict", "--model", model, "--data", base, "--out", dev[""]},
		{"classify", "--data", base, "--out", dev[""], "--save-model", dev[".arbor"]},
		{"classify", "--data", base, "--learner", "hibust", "--out", dev[""], "--tree", dev[".json"], "--dendrogram", dev[".png"]},
		{"cluster", "--data", base, "--clusters", "2", "--out", dev[""], "--linkage-out", dev[""], "--newick", dev[""], "--dendrogram", dev[".svg"]},
		{"kernel", "--data", base, "--kernel", "rbf:scale", "--out", dev[".csv"], "--embed", "2", "--embed-out", dev[".npy"]},
		{"kernel", "--data", base, "--kernel", "rbf:scale", "--landmarks", "10", "--out", dev[".csv"]},
		{"treelets", "--data", base, "--kernel", "rbf:scale", "--clusters", "2", "--out", dev[""], "--linkage-out", dev[""], "--newick", dev[""], "--levels-out", dev[""], "--dendrogram", dev[".png"]},
		{"svc", "--data", base, "--sweep", "--clusters", "2", "--out", dev[""], "--tree", dev[".json"], "--plot", dev[".svg"]},
	} {
		if _, stderr, err := arbor(t, append(args, "--quiet")...); err != nil {
			t.Errorf("arbor %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		got, err := os.Lstat(null)
		if err != nil || got.Mode() != want.Mode() || got.Sys().(*syscall.Stat_t).Rdev != want.Sys().(*syscall.Stat_t).Rdev {
			t.Fatalf("arbor %s: the device is now %v (%v)", strings.Join(args, " "), got.Mode(), err)
		}
		for _, l := range dev {
			if st, err := os.Lstat(l); err != nil || (l != null && st.Mode()&os.ModeSymlink == 0) {
				t.Fatalf("arbor %s: %s is now %v (%v)", strings.Join(args, " "), l, st.Mode(), err)
			}
		}
		if ents, _ := os.ReadDir(devs); len(ents) != len(dev) {
			t.Fatalf("arbor %s: %d files in the device directory, want %d", strings.Join(args, " "), len(ents), len(dev))
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files left: %v", ents)
	}
}

// --out on a FIFO: the reader receives what --out to a regular file holds,
// and the FIFO stays a FIFO.
func TestOutputToFIFO(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", base, "--save-model", model, "--quiet")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"predict", "--model", model, "--data", base},
		{"cluster", "--data", base, "--clusters", "2"},
	} {
		ref := filepath.Join(dir, "ref.csv")
		mustArbor(t, append(args, "--quiet", "--out", ref)...)
		want, err := os.ReadFile(ref)
		if err != nil || len(want) == 0 {
			t.Fatalf("reference output: %q %v", want, err)
		}
		os.Remove(ref)
		got := make(chan string)
		go func() {
			b, err := os.ReadFile(fifo)
			if err != nil {
				b = []byte(err.Error())
			}
			got <- string(b)
		}()
		mustArbor(t, append(args, "--quiet", "--out", fifo)...)
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("arbor %s: the FIFO is now %v (%v)", strings.Join(args, " "), st.Mode(), err) // its reader waits for ever
		}
		if s := <-got; s != string(want) {
			t.Errorf("arbor %s: the reader received %q, want %q", strings.Join(args, " "), s, want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files left: %v", ents)
	}
}

// A directory as an output is a usage error before any work; two in-place
// outputs may name the same device, two file outputs the same file not.
func TestOutputKinds(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	link := filepath.Join(dir, "link.csv")
	os.Symlink("base.csv", link)
	for _, args := range [][]string{
		{"cluster", "--data", base, "--clusters", "2", "--out", dir},
		{"cluster", "--data", base, "--clusters", "2", "--out", link},
	} {
		_, _, err := arbor(t, append(args, "--quiet")...)
		if err == nil || !strings.Contains(err.Error(), "is a directory") && !strings.Contains(err.Error(), "would overwrite the --data input") {
			t.Errorf("arbor %s: %v", strings.Join(args, " "), err)
		}
	}
	if b, _ := os.ReadFile(base); !strings.HasPrefix(string(b), "x1,x2,x3,label\n") {
		t.Errorf("base.csv overwritten: %.40q", b)
	}
}

// arbor predict to a FIFO streams as to standard output: a bad cell in
// the third chunk leaves the reader with the header and 20 rows, and the
// error names the FIFO and the count.
func TestPredictStreamErrorFIFO(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", base, "--save-model", model, "--quiet")
	raw, _ := os.ReadFile(base)
	lines := strings.SplitAfter(string(raw), "\n")
	lines[26] = "1.0,2.0,oops,a\n"
	bad := writeFile(t, dir, "bad.csv", strings.Join(lines, ""))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() { b, _ := os.ReadFile(fifo); got <- string(b) }()
	_, _, err := arbor(t, "predict", "--model", model, "--data", bad, "--chunk", "10", "--quiet", "--out", fifo)
	if err == nil || !strings.HasSuffix(err.Error(), "; 20 rows were already written to "+fifo) {
		t.Errorf("err = %v", err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO is now %v (%v)", st.Mode(), err)
	}
	if s := <-got; strings.Count(s, "\n") != 21 {
		t.Errorf("the reader received %d lines, want the header and 20 rows", strings.Count(s, "\n"))
	}
}
