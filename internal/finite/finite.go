// Package finite is Arbor's one check that a point matrix holds only
// finite numbers. Callers wrap their own ErrNonFinite sentinel around the
// position it reports, so every package names the bad entry the same way.
package finite

import "math"

// Find returns the first NaN or ±Inf entry of the row-major n×d data with
// the given row stride (stride ≥ d): its row, column and value, and found.
// Rows are scanned in order, so the entry reported does not depend on how
// the data were produced.
func Find(data []float64, n, d, stride int) (i, j int, v float64, found bool) {
	for i = range n {
		if j, v, found = inRow(data[i*stride : i*stride+d]); found {
			return i, j, v, true
		}
	}
	return 0, 0, 0, false
}

// FindUpper returns the first NaN or ±Inf entry of the upper triangle
// (j ≥ i) of the row-major n×n matrix data with the given row stride (a
// symmetric matrix stored in its upper triangle, as gonum's SymDense):
// its row, column and value, and found. The lower triangle is not read.
// Rows are scanned in order, so for a symmetric matrix the entry (p, q),
// p ≤ q, reported is the first a scan of the whole matrix finds.
func FindUpper(data []float64, n, stride int) (i, j int, v float64, found bool) {
	for i = range n {
		if j, v, found = inRow(data[i*stride+i : i*stride+n]); found {
			return i, i + j, v, true
		}
	}
	return 0, 0, 0, false
}

// inRow returns the first non-finite entry of row.
func inRow(row []float64) (j int, v float64, found bool) {
	s := 0.0
	for _, x := range row {
		s += x - x // 0 for finite x, NaN for NaN or ±Inf
	}
	if s == 0 {
		return 0, 0, false
	}
	for j, v = range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return j, v, true
		}
	}
	return 0, 0, false
}
