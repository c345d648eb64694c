//go:build !amd64 || purego

package gemm

const haveSymvPanel = false

func symvRows4Asm(n int, a *float64, lda int, x, y *float64, s *[4]float64, acc *[4][4]float64) {
	panic("gemm: no SymvPanel kernel")
}
