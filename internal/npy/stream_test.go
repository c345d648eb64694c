package npy

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestStreamHeader: the header has one length for every shape, and a file
// of a provisional header, appended rows and the final header written over
// the first reads back as the matrix (here and, when installed, in NumPy).
func TestStreamHeader(t *testing.T) {
	for _, rc := range [][2]int{{0, 1}, {7, 3}, {math.MaxInt, math.MaxInt}} {
		if h := StreamHeader(rc[0], rc[1]); len(h) != StreamHeaderSize || h[len(h)-1] != '\n' {
			t.Errorf("StreamHeader(%d, %d): %d bytes %q", rc[0], rc[1], len(h), h)
		}
	}
	m := mat.NewDense(70, 3, nil)
	for i := range 70 {
		for j := range 3 {
			m.Set(i, j, float64(i)-0.5*float64(j)+1e-9*float64(i*j))
		}
	}
	path := filepath.Join(t.TempDir(), "s.npy")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(StreamHeader(0, 3))
	if err := AppendRows(f, m.Slice(0, 65, 0, 3)); err != nil {
		t.Fatal(err)
	}
	if err := AppendRows(f, m.Slice(65, 70, 0, 3)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(StreamHeader(70, 3), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, m) {
		t.Fatal("rows read back differ")
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		return
	}
	out, err := exec.Command(py, "-c", "import numpy,sys; a=numpy.load(sys.argv[1]); print(a.shape, a[69, 2])", path).CombinedOutput()
	if err != nil || string(out) != "(70, 3) 68.000000138\n" {
		t.Fatalf("numpy.load: %v %q", err, out)
	}
}
