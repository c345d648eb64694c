package finite

import (
	"math"
	"testing"
)

// TestFind: the first non-finite entry in row-major order is reported
// (strided rows; entries beyond d in a row are ignored); finite data
// report nothing.
func TestFind(t *testing.T) {
	data := []float64{
		1, 2, math.NaN(), // padding column of row 0 (ignored)
		3, math.Inf(-1), 0,
		math.NaN(), 4, 0,
	}
	if i, j, v, ok := Find(data, 3, 2, 3); !ok || i != 1 || j != 1 || !math.IsInf(v, -1) {
		t.Errorf("got (%d, %d, %v, %v), want (1, 1, -Inf, true)", i, j, v, ok)
	}
	if _, _, _, ok := Find(data[:6], 2, 1, 3); ok {
		t.Error("finite first column reported")
	}
	if _, _, _, ok := Find([]float64{1e308, -1e308, 0, 5e-324}, 2, 2, 2); ok {
		t.Error("finite extremes reported")
	}
}

// TestFindUpper: only the upper triangle is read (a NaN below the diagonal
// is not reported), rows in order, columns counted from 0 (not from the
// diagonal).
func TestFindUpper(t *testing.T) {
	data := []float64{
		1, 2, 3, 0,
		math.NaN(), 4, 5, 0,
		7, 8, math.Inf(1), math.NaN(),
	}
	if i, j, v, ok := FindUpper(data, 3, 4); !ok || i != 2 || j != 2 || !math.IsInf(v, 1) {
		t.Errorf("got (%d, %d, %v, %v), want (2, 2, +Inf, true)", i, j, v, ok)
	}
	if _, _, _, ok := FindUpper(data, 2, 4); ok {
		t.Error("a NaN below the diagonal reported")
	}
	data[6] = math.NaN()
	if i, j, _, ok := FindUpper(data, 3, 4); !ok || i != 1 || j != 2 {
		t.Errorf("got (%d, %d, %v), want (1, 2, true)", i, j, ok)
	}
}
