package npy

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestRoundTrip(t *testing.T) {
	m := mat.NewDense(3, 2, []float64{1, -2.5, 3e-300, 4, 5, 6.125})
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	if (buf.Len()-6*8)%64 != 0 {
		t.Fatalf("header not aligned to 64 bytes: total %d", buf.Len())
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, m) {
		t.Fatalf("round trip: got %v", mat.Formatted(got))
	}
}

func TestBadInput(t *testing.T) {
	for name, in := range map[string][]byte{
		"empty":     nil,
		"not npy":   []byte("hello world, this is not numpy"),
		"truncated": append(append([]byte("\x93NUMPY\x01\x00"), 0x46, 0), []byte("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }                \n\x00\x00")...),
	} {
		if _, err := Read(bytes.NewReader(in)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}

// TestNumPyLoads checks the file with NumPy itself when Debian's python3-numpy
// is installed; it is skipped otherwise.
func TestNumPyLoads(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		t.Skip("python3-numpy not installed")
	}
	path := filepath.Join(t.TempDir(), "m.npy")
	f, _ := os.Create(path)
	Write(f, mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6.5}))
	f.Close()
	out, err := exec.Command(py, "-c", "import numpy,sys; a=numpy.load(sys.argv[1]); print(a.shape, a.sum())", path).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy.load: %v %s", err, out)
	}
	if string(out) != "(2, 3) 21.5\n" {
		t.Fatalf("numpy read %q", out)
	}
}
