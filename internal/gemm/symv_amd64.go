//go:build !purego

package gemm

// haveDotAxpy4 selects the AVX2 kernel of DotAxpy4.
var haveDotAxpy4 = hasAVX2FMA()

// dotAxpy4Asm is DotAxpy4's vector part for n a positive multiple of 8
// (symv_amd64.s).
//
//go:noescape
func dotAxpy4Asm(n int, a *float64, lda int, x, y *float64, s, d *[4]float64)
