//go:build !amd64 || purego

package gemm

const haveDotAxpy4 = false

func dotAxpy4Asm(n int, a *float64, lda int, x, y *float64, s, d *[4]float64) {
	panic("gemm: no DotAxpy4 kernel")
}
