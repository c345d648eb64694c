package main

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/internal/npy"
	"github.com/arbor-ml/arbor/kernel"
)

// TestFloat32Classify: label propagation and spreading on the float32 kernel
// matrix write the same predictions as on the float64 one (two moons, rbf:
// the entries differ by at most 6e-8 relative, far inside the margins of
// these labellings), and ISOMAP (no float32 storage) is a usage error.
func TestFloat32Classify(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir)
	for _, args := range [][]string{
		{"classify", "--data", train, "--kernel", "rbf", "--learner", "lp", "--affinity", "kernel"},
		{"classify", "--data", train, "--kernel", "rbf:gamma=2", "--learner", "spreading", "--affinity", "kernel"},
		{"classify", "--data", train, "--kernel", "laplacian:gamma=1", "--learner", "lp", "--affinity", "kernel"},
	} {
		p64, p32 := filepath.Join(dir, "p64.csv"), filepath.Join(dir, "p32.csv")
		mustArbor(t, append(args, "--out", p64, "--quiet")...)
		mustArbor(t, append(args, "--out", p32, "--quiet", "--float32")...)
		a, _ := os.ReadFile(p64)
		b, _ := os.ReadFile(p32)
		if string(a) != string(b) || len(a) == 0 {
			t.Errorf("%v: --float32 predictions differ from float64", args)
		}
	}
	_, _, err := arbor(t, "classify", "--data", train, "--kernel", "isomap", "--learner", "knn", "--float32", "--out", filepath.Join(dir, "p.csv"))
	if err == nil || !strings.Contains(err.Error(), "--float32 takes a point kernel or hck, hckg, connectivity") {
		t.Errorf("isomap with --float32: %v", err)
	}
}

// TestFloat32Kernel: arbor kernel --float32 writes a '<f4' .npy whose
// entries are the float64 matrix's rounded to float32, half the data bytes.
func TestFloat32Kernel(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir)
	k64, k32 := filepath.Join(dir, "K64.npy"), filepath.Join(dir, "K32.npy")
	mustArbor(t, "kernel", "--data", train, "--kernel", "rbf", "--out", k64, "--quiet")
	mustArbor(t, "kernel", "--data", train, "--kernel", "rbf", "--out", k32, "--quiet", "--float32")
	f, err := os.Open(k64)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	K, err := npy.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(k32)
	if err != nil {
		t.Fatal(err)
	}
	hl := int(binary.LittleEndian.Uint16(raw[8:10]))
	if !strings.Contains(string(raw[10:10+hl]), "'<f4'") {
		t.Fatalf("header %q", raw[10:10+hl])
	}
	data := raw[10+hl:]
	n, _ := K.Dims()
	if len(data) != 4*n*n {
		t.Fatalf("%d data bytes, want 4·%d²", len(data), n)
	}
	for k, v := range K.RawMatrix().Data {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(data[4*k:])); got != float32(v) {
			t.Fatalf("entry %d = %v, want float32(%v)", k, got, v)
		}
	}
}

// TestFloat32Memory: the estimate halves with --float32 (kernelBytes32),
// the over-budget error names --float32 with its size when that fits, and
// the run with --float32 within the same budget works.
func TestFloat32Memory(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir)
	rbf, err := kernel.ParseSpec("rbf")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kernel.Bytes32(rbf, 1000), kernel.Bytes(rbf, 1000)/2; got != want {
		t.Errorf("kernelBytes32 = %v, want half of %v", got, 2*want)
	}
	out := filepath.Join(dir, "p.csv")
	// 200 rows: K is 320 KB in float64, 160 KB in float32.
	_, _, err = arbor(t, "kernel", "--data", train, "--kernel", "rbf", "--max-memory", "250K", "--out", filepath.Join(dir, "K.csv"))
	if err == nil || !strings.Contains(err.Error(), "--float32 needs about 157 KiB") {
		t.Errorf("kernel over budget: %v", err)
	}
	mustArbor(t, "kernel", "--data", train, "--kernel", "rbf", "--max-memory", "250K", "--out", filepath.Join(dir, "K.csv"), "--float32", "--quiet")
	// lp: kernel + float64 affinity = 640 KB; with --float32 both are
	// float32 (propagate keeps a float32 kernel's affinity in float32): 320 KB.
	_, _, err = arbor(t, "classify", "--data", train, "--kernel", "rbf", "--learner", "lp", "--affinity", "kernel", "--max-memory", "550K", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "--float32 needs about 313 KiB") {
		t.Errorf("classify lp over budget: %v", err)
	}
	mustArbor(t, "classify", "--data", train, "--kernel", "rbf", "--learner", "lp", "--affinity", "kernel", "--max-memory", "550K", "--out", out, "--float32", "--quiet")
}
