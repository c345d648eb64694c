//go:build !purego

package gemm

import "github.com/arbor-ml/arbor/internal/cpu"

// kernels returns the micro-kernels this CPU and operating system can run,
// best first; the portable loop is always last.
func kernels() []microKernel {
	var ks []microKernel
	if hasAVX2FMA() && cpu.AVX512F() {
		ks = append(ks, microKernel{name: "avx512", mr: 12, nr: 16, fn: func(k int, a, b, c []float64, ldc int, alpha float64, load bool) {
			_, _, _ = a[12*k-1], b[16*k-1], c[11*ldc+15]
			kern12x16AVX512(k, &a[0], &b[0], &c[0], ldc, alpha, load)
		}})
	}
	if hasAVX2FMA() {
		ks = append(ks, microKernel{name: "avx2", mr: 6, nr: 8, fn: func(k int, a, b, c []float64, ldc int, alpha float64, load bool) {
			_, _, _ = a[6*k-1], b[8*k-1], c[5*ldc+7]
			kern6x8AVX2(k, &a[0], &b[0], &c[0], ldc, alpha, load)
		}})
	}
	return append(ks, goKernel(6, 8))
}

// hasAVX2FMA reports AVX2 and FMA with the YMM state saved by the
// operating system.
func hasAVX2FMA() bool { return cpu.AVX2() && cpu.FMA() }

// kern6x8AVX2 is the 6×8 micro-kernel (see microKernel) with AVX2 and FMA.
//
//go:noescape
func kern6x8AVX2(k int, a, b, c *float64, ldc int, alpha float64, load bool)

// kern12x16AVX512 is the 12×16 micro-kernel with AVX-512F.
//
//go:noescape
func kern12x16AVX512(k int, a, b, c *float64, ldc int, alpha float64, load bool)
