//go:build !amd64 || purego

package propagate

// symCols3 and symCols4 have no vector kernel here: mul uses the row loops.
func symCols3(w []float64, n, i int, x []float64, acc *[3][16]float64) bool { return false }

func symCols4(w []float64, n, i int, x []float64, acc *[4][8]float64) bool { return false }

func setAVX2(on bool) bool { return false }
