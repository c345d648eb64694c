package main

import (
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// The landmark cluster kernels on a file of 40 rows (fewer than the 40
// neighbours the exact cells are certified on, plus one): --landmarks 10
// works, and with every row a landmark Z·Zᵀ is the exact kernel matrix
// (arbor kernel without --landmarks).
func TestLandmarkClusterKernelsSmallFile(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	for _, spec := range []string{"hck:average", "hck:complete", "hck:weighted", "hck:ward", "hck:single", "connectivity"} {
		Z := filepath.Join(dir, "Z.csv")
		mustArbor(t, "kernel", "--data", base, "--kernel", spec, "--landmarks", "10", "--out", Z, "--quiet")
		if z := readCSVFloats(t, Z); len(z) != 40 {
			t.Errorf("%s: %d rows of features, want 40", spec, len(z))
		}
		K := filepath.Join(dir, "K.csv")
		mustArbor(t, "kernel", "--data", base, "--kernel", spec, "--out", K, "--quiet")
		mustArbor(t, "kernel", "--data", base, "--kernel", spec, "--landmarks", "40", "--out", Z, "--quiet")
		k, z := readCSVFloats(t, K), readCSVFloats(t, Z)
		var worst, scale float64
		for i := range k {
			for j := range k[i] {
				var dot float64
				for c := range z[i] {
					dot += z[i][c] * z[j][c]
				}
				worst = math.Max(worst, math.Abs(dot-k[i][j]))
				scale = math.Max(scale, math.Abs(k[i][j]))
			}
		}
		// the eigenvalue cut M·ε and CSV's 17 digits: 1e-9 of the largest entry
		if worst > 1e-9*scale {
			t.Errorf("%s, every row a landmark: Z·Zᵀ differs from the exact kernel by %g (max |K| %g)", spec, worst, scale)
		}
	}
}

// --max-memory: a size of 2⁶³ bytes or more, or below one byte, is a
// usage error naming the flag (before anything is read or written); a
// fraction of a byte rounds up, so a 2-byte budget refuses the work.
func TestMaxMemoryOddSizes(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	out := filepath.Join(dir, "K.csv")
	for _, size := range []string{"1e300G", "0.4", "9223372036854775808", "0"} {
		_, _, err := arbor(t, "kernel", "--data", base, "--kernel", "rbf", "--max-memory", size, "--out", out)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--max-memory "+strconv.Quote(size)) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--max-memory %s: %v", size, err)
		}
	}
	_, _, err := arbor(t, "kernel", "--data", base, "--kernel", "rbf", "--max-memory", "1.5", "--out", out)
	if !errors.Is(err, pipeline.ErrMemory) || !strings.Contains(err.Error(), "budget of 1 KiB") {
		t.Errorf("--max-memory 1.5: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("K.csv written: %v", err)
	}
	mustArbor(t, "kernel", "--data", base, "--kernel", "rbf", "--max-memory", "8388607T", "--out", out, "--quiet")
}

// arbor predict streams to standard output (and to a device or FIFO): a
// bad cell in a later chunk stops it with the earlier chunks' rows
// written, and the error says how many; to a regular file the output is
// all or nothing.
func TestPredictStreamError(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", base, "--save-model", model, "--quiet")
	raw, _ := os.ReadFile(base)
	lines := strings.SplitAfter(string(raw), "\n")
	lines[26] = "1.0,2.0,oops,a\n" // file line 27: data row 25, in the third chunk of 10
	bad := writeFile(t, dir, "bad.csv", strings.Join(lines, ""))

	stdout, _, err := arbor(t, "predict", "--model", model, "--data", bad, "--chunk", "10", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "bad.csv:27: column \"x3\"") ||
		!strings.HasSuffix(err.Error(), "; 20 rows were already written to standard output") {
		t.Errorf("standard output: err = %v", err)
	}
	if got := strings.Count(stdout, "\n"); got != 21 {
		t.Errorf("standard output holds %d lines, want the header and 20 rows", got)
	}

	out := filepath.Join(dir, "p.csv")
	_, _, err = arbor(t, "predict", "--model", model, "--data", bad, "--chunk", "10", "--quiet", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "bad.csv:27") || strings.Contains(err.Error(), "already written") {
		t.Errorf("file: err = %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files after the failed run: %v", ents)
	}
}

// A .gz data file whose second line is longer than dataset.MaxLineBytes
// (a single-line file of 65 MiB, 70 KB compressed) stops once that many
// bytes are read, with one line naming the file and the line; no output.
func TestLongLineGz(t *testing.T) {
	dir := t.TempDir()
	base := threeFeatureCSV(t, dir, "base.csv", 40)
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", base, "--save-model", model, "--quiet")
	long := filepath.Join(dir, "long.csv.gz")
	f, err := os.Create(long)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	zw.Write([]byte("x1,x2,x3,label\n"))
	cells := []byte(strings.Repeat("1.5,", 1<<14))
	for written := 0; written <= dataset.MaxLineBytes; written += len(cells) {
		zw.Write(cells)
	}
	zw.Write([]byte("a\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "out.csv")
	for _, args := range [][]string{
		{"cluster", "--data", long, "--clusters", "2", "--out", out},
		{"predict", "--model", model, "--data", long, "--out", out},
		{"predict", "--model", model, "--data", long},
	} {
		stdout, _, err := arbor(t, append(args, "--quiet")...)
		want := long + ":2: data too large: a line longer than 64 MiB"
		if err == nil || errors.Is(err, errUsage) || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("arbor %s: err = %v, want %q", strings.Join(args, " "), err, want)
		}
		if stdout != "" {
			t.Errorf("arbor %s: wrote %d bytes to standard output", strings.Join(args, " "), len(stdout))
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("arbor %s: out.csv written: %v", strings.Join(args, " "), err)
		}
	}
}

// cluster --float32 with complete, average or weighted linkage whose
// float32 matrix does not fit the budget stops before any clustering work
// (the exact cells' K×K matrix cannot be known before them), naming the
// run without --float32, which then clusters within the same budget.
func TestClusterFloat32RefusedFirst(t *testing.T) {
	dir := t.TempDir()
	data := threeFeatureCSV(t, dir, "n1000.csv", 1000) // 4N² = 3.8 MiB; the cells' path about 1 MiB
	out := filepath.Join(dir, "labels.csv")
	args := []string{"cluster", "--data", data, "--clusters", "2", "--max-memory", "2M", "--out", out}
	_, stderr, err := arbor(t, append(args, "--float32")...)
	if !errors.Is(err, pipeline.ErrMemory) || !strings.Contains(err.Error(), "(--float32) needs about") ||
		!strings.Contains(err.Error(), "without --float32, average linkage clusters without the N×N matrix") {
		t.Errorf("err = %v", err)
	}
	if strings.Contains(stderr, "40-NN") || strings.Contains(stderr, "linkage of") {
		t.Errorf("clustering work began before the refusal:\n%s", stderr)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("labels.csv written: %v", err)
	}
	mustArbor(t, append(args, "--quiet")...)
}
