//go:build !purego

package gemm

// haveSymvPanel selects the AVX2 vector pass of SymvPanel.
var haveSymvPanel = hasAVX2FMA()

// symvRows4Asm is symvRows4Go in assembly (symv_amd64.s).
//
//go:noescape
func symvRows4Asm(n int, a *float64, lda int, x, y *float64, s *[4]float64, acc *[4][4]float64)
