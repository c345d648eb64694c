//go:build !purego

#include "textflag.h"

// AVX2 kernels of the SMO passes (see passes.go for the loops they
// reproduce and passes_amd64.go for the contracts). Every floating-point
// operation is the Go loop's, in the Go loop's order, each rounded (no
// fused multiply-add). Comparisons use ordered quiet predicates where the
// Go loop's test is false on NaN, unordered where it is true.
//
// Go operand order is Intel's reversed:
//   VCMPPD $p, b, a, m    m = (a p b)
//   VBLENDVPD m, x, y, d  d = m ? x : y (sign bit of each lane of m)
//   VSUBPD b, a, d        d = a − b;  VDIVPD b, a, d   d = a / b

DATA iota4<>+0(SB)/8, $0
DATA iota4<>+8(SB)/8, $1
DATA iota4<>+16(SB)/8, $2
DATA iota4<>+24(SB)/8, $3
GLOBL iota4<>(SB), RODATA|NOPTR, $32

#define POSINF $0x7ff0000000000000
#define NEGINF $0xfff0000000000000

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func updateAVX2(grad *float64, fl *uint8, ki, kj *float32, n int, di, dj float64, out *lanes8)
//
// Two sets of four lanes (positions 8m+0..3 and 8m+4..7). Each lane keeps
// the smallest v = g + (ki·di + kj·dj) over inUp with v ≤ min (the last on
// ties): −v ≥ −min is updateTail's test.
TEXT ·updateAVX2(SB), NOSPLIT, $0-64
	MOVQ grad+0(FP), DI
	MOVQ fl+8(FP), DX
	MOVQ ki+16(FP), R8
	MOVQ kj+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTSD di+40(FP), Y15
	VBROADCASTSD dj+48(FP), Y14
	MOVQ out+56(FP), R10

	MOVQ POSINF, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13         // min A = +Inf
	VMOVDQU Y13, Y11              // min B
	VPCMPEQQ Y12, Y12, Y12        // idx A = -1
	VMOVDQU Y12, Y10              // idx B
	VMOVDQU iota4<>(SB), Y9       // positions A
	MOVQ $4, AX
	MOVQ AX, X6
	VPBROADCASTQ X6, Y6
	VPADDQ Y6, Y9, Y7             // positions B
	VPADDQ Y6, Y6, Y8             // step 8

	XORQ SI, SI
	TESTQ CX, CX
	JEQ udone

uloop:
	VCVTPS2PD (R8)(SI*4), Y0
	VCVTPS2PD (R9)(SI*4), Y1
	VCVTPS2PD 16(R8)(SI*4), Y2
	VCVTPS2PD 16(R9)(SI*4), Y3
	VMULPD Y15, Y0, Y0            // ki·di
	VMULPD Y14, Y1, Y1            // kj·dj
	VMULPD Y15, Y2, Y2
	VMULPD Y14, Y3, Y3
	VADDPD Y1, Y0, Y0             // ki·di + kj·dj
	VADDPD Y3, Y2, Y2
	VADDPD (DI)(SI*8), Y0, Y0     // v = g + (…)
	VADDPD 32(DI)(SI*8), Y2, Y2
	VMOVUPD Y0, (DI)(SI*8)
	VMOVUPD Y2, 32(DI)(SI*8)
	VPMOVZXBQ (DX)(SI*1), Y1
	VPMOVZXBQ 4(DX)(SI*1), Y3
	VPSLLQ $63, Y1, Y1            // inUp (bit 0) in the sign bit
	VPSLLQ $63, Y3, Y3
	VCMPPD $0x12, Y13, Y0, Y4     // v ≤ min (LE_OQ)
	VCMPPD $0x12, Y11, Y2, Y5
	VANDPD Y1, Y4, Y4
	VANDPD Y3, Y5, Y5
	VBLENDVPD Y4, Y0, Y13, Y13
	VBLENDVPD Y4, Y9, Y12, Y12
	VBLENDVPD Y5, Y2, Y11, Y11
	VBLENDVPD Y5, Y7, Y10, Y10
	VPADDQ Y8, Y9, Y9
	VPADDQ Y8, Y7, Y7
	ADDQ $8, SI
	CMPQ SI, CX
	JLT uloop

udone:
	VMOVUPD Y13, (R10)
	VMOVUPD Y11, 32(R10)
	VMOVDQU Y12, 64(R10)
	VMOVDQU Y10, 96(R10)
	VZEROUPPER
	RET

// func selectAVX2(grad *float64, fl *uint8, qd *float64, ki *float32, n int, qdi, gmax, tau, thrFactor float64, out *selLanes)
//
// Four lanes. Registers: Y15 gmax, Y14 qdi, Y13 zero, Y12 τ, Y11 positions,
// Y10 step 4, Y9 max g over I_low, Y8 its positions, Y7 the lanes' division
// thresholds thrm = −objMin·thrFactor (−Inf at first). The lanes' objMin and
// position live in out (touched only when some lane is not excluded).
TEXT ·selectAVX2(SB), NOSPLIT, $0-80
	MOVQ grad+0(FP), DI
	MOVQ fl+8(FP), DX
	MOVQ qd+16(FP), R9
	MOVQ ki+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSD qdi+40(FP), Y14
	VBROADCASTSD gmax+48(FP), Y15
	VBROADCASTSD tau+56(FP), Y12
	MOVQ out+72(FP), R10

	VXORPD Y13, Y13, Y13
	VMOVDQU iota4<>(SB), Y11
	MOVQ $4, AX
	MOVQ AX, X10
	VPBROADCASTQ X10, Y10
	MOVQ NEGINF, AX
	MOVQ AX, X9
	VPBROADCASTQ X9, Y9           // max = −Inf
	VMOVDQU Y9, Y7                // thrm = −Inf
	VPCMPEQQ Y8, Y8, Y8           // positions −1
	MOVQ POSINF, AX
	MOVQ AX, X0
	VPBROADCASTQ X0, Y0
	VMOVUPD Y0, 64(R10)           // objMin = +Inf
	VMOVDQU Y8, 96(R10)           // its positions −1

	XORQ SI, SI
	TESTQ CX, CX
	JEQ sdone

sloop:
	VMOVUPD (DI)(SI*8), Y0        // g
	VPMOVZXBQ (DX)(SI*1), Y1
	VPSLLQ $62, Y1, Y1            // inLow (bit 1) in the sign bit
	VCMPPD $0x1d, Y9, Y0, Y2      // g ≥ max (GE_OQ)
	VANDPD Y1, Y2, Y2
	VBLENDVPD Y2, Y0, Y9, Y9
	VBLENDVPD Y2, Y11, Y8, Y8
	VADDPD Y15, Y0, Y0            // gd = gmax + g
	VCVTPS2PD (R8)(SI*4), Y2
	VADDPD Y2, Y2, Y2             // 2·k (exact)
	VADDPD (R9)(SI*8), Y14, Y3    // qdi + qd
	VSUBPD Y2, Y3, Y3             // quad = (qdi + qd) − 2·k
	VCMPPD $0x1e, Y13, Y3, Y2     // quad > 0 (GT_OQ)
	VBLENDVPD Y2, Y3, Y12, Y3     // else τ
	VMULPD Y0, Y0, Y4             // gd²
	VCMPPD $0x1e, Y13, Y0, Y0     // gd > 0 (GT_OQ)
	VMULPD Y3, Y7, Y5             // thrm·quad
	VCMPPD $0x15, Y5, Y4, Y5      // !(gd² < thrm·quad) (NLT_UQ)
	VANDPD Y0, Y5, Y5
	VANDPD Y1, Y5, Y5             // candidates (sign bits)
	VMOVMSKPD Y5, AX
	TESTL AX, AX
	JNE scand

snext:
	VPADDQ Y10, Y11, Y11
	ADDQ $4, SI
	CMPQ SI, CX
	JLT sloop

sdone:
	VMOVUPD Y9, (R10)
	VMOVDQU Y8, 32(R10)
	VZEROUPPER
	RET

scand:
	VPCMPEQQ Y6, Y6, Y6
	VPSLLQ $63, Y6, Y6            // sign bits
	VXORPD Y6, Y4, Y4             // −gd²
	VDIVPD Y3, Y4, Y4             // od = −gd² / quad
	VMOVUPD 64(R10), Y2
	VCMPPD $0x12, Y2, Y4, Y0      // od ≤ objMin (LE_OQ)
	VANDPD Y5, Y0, Y0
	VBLENDVPD Y0, Y4, Y2, Y2
	VMOVUPD Y2, 64(R10)
	VMOVDQU 96(R10), Y2
	VBLENDVPD Y0, Y11, Y2, Y2
	VMOVDQU Y2, 96(R10)
	VXORPD Y6, Y4, Y4             // −od
	VBROADCASTSD thrFactor+64(FP), Y2
	VMULPD Y2, Y4, Y4             // −od·thrFactor
	VBLENDVPD Y0, Y4, Y7, Y7
	JMP snext

// func axpyAVX2(dst *float64, x *float32, n int, a float64)
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD a+24(FP), Y15
	XORQ AX, AX
	TESTQ CX, CX
	JEQ adone

aloop:
	VCVTPS2PD (SI)(AX*4), Y0
	VCVTPS2PD 16(SI)(AX*4), Y1
	VMULPD Y15, Y0, Y0            // a·x
	VMULPD Y15, Y1, Y1
	VADDPD (DI)(AX*8), Y0, Y0     // dst + a·x
	VADDPD 32(DI)(AX*8), Y1, Y1
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT aloop

adone:
	VZEROUPPER
	RET
