//go:build !amd64 || purego

package smo

import "math"

// useAVX2 and useAVX512 are false without the assembly kernels (other
// architectures, or the purego build tag).
const (
	useAVX2   = false
	useAVX512 = false
)

// updatePass is updateTail over all of g from (−Inf, −1).
func updatePass(g []float64, fl []uint8, ki, kj []float32, di, dj float64) (float64, int) {
	return updateTail(g, fl, ki, kj, di, dj, 0, math.Inf(-1), -1)
}

// selectPass is selectTail over all of g from (−Inf, +Inf, −1).
func selectPass(g []float64, fl []uint8, qd []float64, ki []float32, qdi, gmax float64) (float64, float64, int) {
	return selectTail(g, fl, qd, ki, qdi, gmax, 0, math.Inf(-1), math.Inf(1), -1)
}

// axpy32 adds a·float64(x[j]) to dst[j].
func axpy32(dst []float64, a float64, x []float32) { axpyTail(dst, a, x) }

// Kernel levels for setKernels.
const (
	goLoops = iota
	avx2Kernels
	avx512Kernels
)

// setKernels is a no-op without the kernels.
func setKernels(int) int { return goLoops }
