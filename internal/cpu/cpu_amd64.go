//go:build !purego

package cpu

// CPUID leaf 1 ECX, leaf 7 EBX and XCR0 bits.
const (
	fma1     = 1 << 12
	osxsave1 = 1 << 27
	avx1     = 1 << 28
	avx2_7   = 1 << 5
	avx512f7 = 1 << 16
	avx512dq = 1 << 17
	avx512bw = 1 << 30
	avx512vl = 1 << 31
	xcrYMM   = 0x06 // XMM and YMM state
	xcrZMM   = 0xe0 // opmask, ZMM0–15 upper halves, ZMM16–31
)

func detect() set {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return set{}
	}
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&osxsave1 == 0 || ecx1&avx1 == 0 {
		return set{}
	}
	xcr0, _ := xgetbv()
	if xcr0&xcrYMM != xcrYMM {
		return set{}
	}
	_, ebx7, _, _ := cpuid(7, 0)
	zmm := xcr0&xcrZMM == xcrZMM
	return set{
		avx2:     ebx7&avx2_7 != 0,
		fma:      ecx1&fma1 != 0,
		avx512f:  zmm && ebx7&avx512f7 != 0,
		avx512dq: zmm && ebx7&avx512dq != 0,
		avx512bw: zmm && ebx7&avx512bw != 0,
		avx512vl: zmm && ebx7&avx512vl != 0,
	}
}

// Implemented in cpu_amd64.s.

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// detects says that this build reads the features from the processor.
const detects = true
