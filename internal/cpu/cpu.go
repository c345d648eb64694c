// Package cpu reports the vector instruction sets that both the processor
// and the operating system support, read once at start-up (CPUID and
// XGETBV on amd64): it chooses between the assembly kernels of
// internal/gemm, internal/smo and propagate and their Go loops, which
// compute the same values. Every feature is false on other architectures
// and with the purego build tag.
package cpu

// AVX2 reports AVX2 (CPUID leaf 7 EBX bit 5) with AVX and OSXSAVE (leaf 1
// ECX bits 28 and 27) and the XMM and YMM state enabled by the operating
// system (XCR0 bits 1 and 2).
func AVX2() bool { return features.avx2 }

// FMA reports the three-operand fused multiply-add (CPUID leaf 1 ECX bit
// 12) with AVX and the YMM state enabled, as AVX2.
func FMA() bool { return features.fma }

// AVX512F reports AVX-512 Foundation (CPUID leaf 7 EBX bit 16) with the
// opmask and ZMM state enabled by the operating system (XCR0 bits 5–7)
// besides the YMM state.
func AVX512F() bool { return features.avx512f }

// AVX512DQ, AVX512BW and AVX512VL report the AVX-512 doubleword and
// quadword, byte and word, and vector length extensions (CPUID leaf 7 EBX
// bits 17, 30 and 31) with the state AVX512F needs.
func AVX512DQ() bool { return features.avx512dq }

// AVX512BW: see AVX512DQ.
func AVX512BW() bool { return features.avx512bw }

// AVX512VL: see AVX512DQ.
func AVX512VL() bool { return features.avx512vl }

// set is what the processor and the operating system support.
type set struct{ avx2, fma, avx512f, avx512dq, avx512bw, avx512vl bool }

// features is read once; it does not change while the program runs.
var features = detect()
