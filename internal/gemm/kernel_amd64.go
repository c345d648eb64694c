//go:build !purego

package gemm

// kernels returns the micro-kernels this CPU and operating system can run,
// best first; the portable loop is always last.
func kernels() []microKernel {
	var ks []microKernel
	if hasAVX512() {
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

// CPUID leaf 1 ECX, leaf 7 EBX and XCR0 bits.
const (
	fma1     = 1 << 12
	osxsave1 = 1 << 27
	avx1     = 1 << 28
	avx2_7   = 1 << 5
	avx512f7 = 1 << 16
	xcrYMM   = 0x06 // XMM and YMM state
	xcrZMM   = 0xe6 // and opmask, ZMM0–15 upper halves, ZMM16–31
)

// osFeatures returns leaf 1 ECX, leaf 7 EBX and XCR0 (zero where the CPU
// or the operating system does not report them).
func osFeatures() (ecx1, ebx7, xcr0 uint32) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return 0, 0, 0
	}
	_, _, ecx1, _ = cpuid(1, 0)
	if ecx1&osxsave1 == 0 {
		return ecx1, 0, 0
	}
	_, ebx7, _, _ = cpuid(7, 0)
	xcr0, _ = xgetbv()
	return ecx1, ebx7, xcr0
}

// hasAVX2FMA reports AVX2 and FMA with the YMM state saved by the OS.
func hasAVX2FMA() bool {
	ecx1, ebx7, xcr0 := osFeatures()
	return ecx1&(fma1|avx1) == fma1|avx1 && ebx7&avx2_7 != 0 && xcr0&xcrYMM == xcrYMM
}

// hasAVX512 reports AVX-512F with the ZMM and opmask state saved by the OS.
func hasAVX512() bool {
	_, ebx7, xcr0 := osFeatures()
	return hasAVX2FMA() && ebx7&avx512f7 != 0 && xcr0&xcrZMM == xcrZMM
}

// Implemented in kernel_amd64.s.

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// kern6x8AVX2 is the 6×8 micro-kernel (see microKernel) with AVX2 and FMA.
//
//go:noescape
func kern6x8AVX2(k int, a, b, c *float64, ldc int, alpha float64, load bool)

// kern12x16AVX512 is the 12×16 micro-kernel with AVX-512F.
//
//go:noescape
func kern12x16AVX512(k int, a, b, c *float64, ldc int, alpha float64, load bool)
