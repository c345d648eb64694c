package kernel_test

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// loadFixture decodes testdata/<name> (gzipped JSON written by
// testdata/gen_fixtures.py) into v.
func loadFixture(t testing.TB, name string, v any) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func dense(a [][]float64) *mat.Dense {
	m := mat.NewDense(len(a), len(a[0]), nil)
	for i, r := range a {
		m.SetRow(i, r)
	}
	return m
}

func sym(a [][]float64) *mat.SymDense {
	n := len(a)
	m := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m.SetSym(i, j, a[i][j])
		}
	}
	return m
}

// maxRelDiff returns max|got-want| / max|want| over all entries, checking
// both triangles of symmetric results through At.
func maxRelDiff(t testing.TB, got mat.Matrix, want [][]float64) float64 {
	t.Helper()
	r, c := got.Dims()
	if r != len(want) || c != len(want[0]) {
		t.Fatalf("got %d×%d, want %d×%d", r, c, len(want), len(want[0]))
	}
	scale, diff := 0.0, 0.0
	for i := range want {
		for j, w := range want[i] {
			scale = math.Max(scale, math.Abs(w))
			diff = math.Max(diff, math.Abs(got.At(i, j)-w))
		}
	}
	if scale == 0 {
		return diff
	}
	return diff / scale
}

// rawFull checks that both triangles of s's backing store hold the
// symmetric matrix (Arbor's kernels write both, so rows can be read raw).
func rawFull(t testing.TB, s *mat.SymDense) {
	t.Helper()
	raw := s.RawSymmetric()
	for i := 0; i < raw.N; i++ {
		for j := 0; j < i; j++ {
			if a, b := raw.Data[i*raw.Stride+j], raw.Data[j*raw.Stride+i]; a != b {
				t.Fatalf("backing store not symmetric at (%d,%d): %v vs %v", i, j, a, b)
			}
		}
	}
}
