package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestWrite32: the header says '<f4' and the shape, is padded to 64 bytes
// as NumPy writes it, and the data are the entries rounded to float32,
// little-endian, in C order.
func TestWrite32(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{1, 0.1, -2.5, 1e-30, 3, math.Pi})
	var b bytes.Buffer
	if err := Write32(&b, m); err != nil {
		t.Fatal(err)
	}
	out := b.Bytes()
	hl := int(binary.LittleEndian.Uint16(out[8:10]))
	header := string(out[10 : 10+hl])
	if (10+hl)%64 != 0 || !strings.Contains(header, "'descr': '<f4'") || !strings.Contains(header, "'shape': (2, 3)") {
		t.Fatalf("header %q", header)
	}
	data := out[10+hl:]
	if len(data) != 6*4 {
		t.Fatalf("%d data bytes, want 24", len(data))
	}
	for k, v := range m.RawMatrix().Data {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(data[4*k:])); got != float32(v) {
			t.Errorf("entry %d = %v, want %v", k, got, float32(v))
		}
	}
}
