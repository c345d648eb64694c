package npy

import (
	"bytes"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// atOnly hides a matrix's concrete type so that write takes the At path.
type atOnly struct{ mat.Matrix }

// TestRowFastPaths checks that a *mat.Dense (with a stride wider than its
// columns) and an upper-stored *mat.SymDense (lower backing entries left
// as garbage) are written byte for byte as through At, across several
// 64-row blocks.
func TestRowFastPaths(t *testing.T) {
	const n = 150
	sym := mat.NewSymDense(n, nil)
	raw := sym.RawSymmetric()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			raw.Data[i*raw.Stride+j] = float64(i*1000+j) + 0.25 // j < i: never read by At
		}
	}
	big := mat.NewDense(n, n+3, nil)
	for i := range big.RawMatrix().Data {
		big.RawMatrix().Data[i] = float64(i) / 7
	}
	dense := big.Slice(0, n, 1, n+1).(*mat.Dense)
	for name, m := range map[string]mat.Matrix{"sym": sym, "dense": dense} {
		var fast, slow bytes.Buffer
		if err := Write(&fast, m); err != nil {
			t.Fatal(err)
		}
		if err := Write(&slow, atOnly{m}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
			t.Errorf("%s: fast path writes different bytes", name)
		}
		if err := Write32(&fast, m); err != nil {
			t.Fatal(err)
		}
		if err := Write32(&slow, atOnly{m}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
			t.Errorf("%s: fast path writes different float32 bytes", name)
		}
	}
}
