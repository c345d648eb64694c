//go:build !purego

package propagate

import "github.com/arbor-ml/arbor/internal/cpu"

// useAVX2 reports whether the CPU and the operating system support AVX2
// (cpu.AVX2). Tests switch it off to run the Go loops.
var useAVX2 = cpu.AVX2()

// symCols3AVX2 sets acc[c][r] = Σ_{j<nj} w[j·stride+r]·x[3j+c] (r < 16,
// c < 3), each sum in increasing j from +0 with every product and sum
// rounded: the sums of dot3 over the rows r of a symmetric matrix.
//
//go:noescape
func symCols3AVX2(w *float64, stride int, x *float64, nj int, acc *[3][16]float64)

// symCols3 is symCols3AVX2 over rows [i, i+16) of the symmetric n×n
// matrix w (read as its columns) when the CPU has AVX2; it reports false
// otherwise.
func symCols3(w []float64, n, i int, x []float64, acc *[3][16]float64) bool {
	if !useAVX2 || n == 0 {
		return false
	}
	_, _ = w[(n-1)*n+i+15], x[3*n-1]
	symCols3AVX2(&w[i], n, &x[0], n, acc)
	return true
}

// symCols4AVX2 sets acc[c][r] = Σ_{j<nj} w[j·stride+r]·x[4j+c] (r < 8,
// c < 4), as symCols3AVX2.
//
//go:noescape
func symCols4AVX2(w *float64, stride int, x *float64, nj int, acc *[4][8]float64)

// symCols4 is symCols4AVX2 over rows [i, i+8) of the symmetric n×n matrix
// w, x n×4, when the CPU has AVX2; it reports false otherwise.
func symCols4(w []float64, n, i int, x []float64, acc *[4][8]float64) bool {
	if !useAVX2 || n == 0 {
		return false
	}
	_, _ = w[(n-1)*n+i+7], x[4*n-1]
	symCols4AVX2(&w[i], n, &x[0], n, acc)
	return true
}

// setAVX2 sets useAVX2 (for tests) and returns the old value.
func setAVX2(on bool) bool {
	old := useAVX2
	useAVX2 = on && cpu.AVX2()
	return old
}
