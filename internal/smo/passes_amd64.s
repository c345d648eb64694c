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
// Two sets of four lanes (positions 8m+0..3 and 8m+4..7). Per lane: the
// largest g over I_low (VMAXPD keeps the lane's value on equality and on
// NaN; selectPass settles the sign of a zero maximum), and the last
// minimiser of od with od (in out: touched only when some lane may hold a
// candidate).
//
// The common path computes no quad floor and no division: position j may
// hold a candidate only if gd's sign bit is clear, j ∈ I_low and
// !(gd² < thrm·quad), with quad unfloored and thrm = −objMin·thrFactor
// for the smallest od found so far in any lane (0 before the first). That
// keeps every j that can still equal or beat the overall minimum (a
// quad ≤ 0 gives a bound ≤ 0 or NaN: kept), so the exact rule, applied to
// the four lanes of a set when one of them is kept, leaves in the lanes
// every position whose od equals the final minimum, the last of each lane
// last: selectPass's combination then picks what selectTail picks.
//
// Registers: Y15 gmax, Y14 qdi, Y13 −Inf, Y12 thrm, Y11 zero,
// Y10/Y9 largest g over I_low (sets A/B).
TEXT ·selectAVX2(SB), NOSPLIT, $0-80
	MOVQ grad+0(FP), DI
	MOVQ fl+8(FP), DX
	MOVQ qd+16(FP), R9
	MOVQ ki+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSD qdi+40(FP), Y14
	VBROADCASTSD gmax+48(FP), Y15
	MOVQ out+72(FP), R10

	MOVQ NEGINF, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13
	VMOVDQU Y13, Y10
	VMOVDQU Y13, Y9
	VXORPD Y12, Y12, Y12          // thrm = 0
	VXORPD Y11, Y11, Y11
	MOVQ POSINF, AX
	MOVQ AX, X0
	VPBROADCASTQ X0, Y0
	VMOVUPD Y0, 64(R10)           // objMin = +Inf
	VMOVUPD Y0, 96(R10)
	VPCMPEQQ Y0, Y0, Y0
	VMOVDQU Y0, 128(R10)          // positions −1
	VMOVDQU Y0, 160(R10)

	XORQ SI, SI
	TESTQ CX, CX
	JEQ sdone

sloop:
	VMOVUPD (DI)(SI*8), Y0        // g (A)
	VMOVUPD 32(DI)(SI*8), Y4      // g (B)
	VPMOVZXBQ (DX)(SI*1), Y1
	VPMOVZXBQ 4(DX)(SI*1), Y5
	VPSLLQ $62, Y1, Y1            // inLow (bit 1) in the sign bit
	VPSLLQ $62, Y5, Y5
	VBLENDVPD Y1, Y0, Y13, Y2     // g or −Inf
	VBLENDVPD Y5, Y4, Y13, Y6
	VMAXPD Y10, Y2, Y10           // Y2 > max ? Y2 : max
	VMAXPD Y9, Y6, Y9
	VADDPD Y15, Y0, Y0            // gd = gmax + g
	VADDPD Y15, Y4, Y4
	VCVTPS2PD (R8)(SI*4), Y2
	VCVTPS2PD 16(R8)(SI*4), Y6
	VADDPD Y2, Y2, Y2             // 2·k
	VADDPD Y6, Y6, Y6
	VADDPD (R9)(SI*8), Y14, Y3    // qdi + qd
	VADDPD 32(R9)(SI*8), Y14, Y7
	VSUBPD Y2, Y3, Y3             // quad (unfloored)
	VSUBPD Y6, Y7, Y7
	VMULPD Y3, Y12, Y3            // thrm·quad
	VMULPD Y7, Y12, Y7
	VMULPD Y0, Y0, Y2             // gd²
	VMULPD Y4, Y4, Y6
	VCMPPD $0x15, Y3, Y2, Y2      // !(gd² < thrm·quad) (NLT_UQ)
	VCMPPD $0x15, Y7, Y6, Y6
	VANDNPD Y2, Y0, Y2            // and gd's sign clear
	VANDNPD Y6, Y4, Y6
	VANDPD Y1, Y2, Y8             // and j ∈ I_low
	VANDPD Y5, Y6, Y6
	VMOVMSKPD Y8, AX
	VMOVMSKPD Y6, BX
	MOVL AX, R11
	ORL BX, R11
	JNE scand

snext:
	ADDQ $8, SI
	CMPQ SI, CX
	JLT sloop

sdone:
	VMOVUPD Y10, (R10)
	VMOVUPD Y9, 32(R10)
	VZEROUPPER
	RET

// EXACT applies selectTail's rule to the four lanes at position SI+off:
// od = −gd²/quad (quad floored at τ) where gd > 0 and j ∈ I_low, kept
// when od ≤ objMin (the lane's, at out+obj), with its position (out+pos).
#define EXACT(off, obj, pos) \
	VMOVUPD (off*8)(DI)(SI*8), Y0 \
	VPMOVZXBQ off(DX)(SI*1), Y1 \
	VPSLLQ $62, Y1, Y1 \
	VADDPD Y15, Y0, Y0 \
	VCVTPS2PD (off*4)(R8)(SI*4), Y2 \
	VADDPD Y2, Y2, Y2 \
	VADDPD (off*8)(R9)(SI*8), Y14, Y3 \
	VSUBPD Y2, Y3, Y3 \
	VCMPPD $0x1e, Y11, Y3, Y4 \
	VBROADCASTSD tau+56(FP), Y5 \
	VBLENDVPD Y4, Y3, Y5, Y3 \
	VCMPPD $0x1e, Y11, Y0, Y4 \
	VANDPD Y1, Y4, Y4 \
	VMULPD Y0, Y0, Y0 \
	VPCMPEQQ Y5, Y5, Y5 \
	VPSLLQ $63, Y5, Y5 \
	VXORPD Y5, Y0, Y0 \
	VDIVPD Y3, Y0, Y0 \
	VMOVUPD obj(R10), Y2 \
	VCMPPD $0x12, Y2, Y0, Y3 \
	VANDPD Y4, Y3, Y3 \
	VBLENDVPD Y3, Y0, Y2, Y2 \
	VMOVUPD Y2, obj(R10) \
	LEAQ off(SI), R11 \
	MOVQ R11, X2 \
	VPBROADCASTQ X2, Y2 \
	VPADDQ iota4<>(SB), Y2, Y2 \
	VMOVDQU pos(R10), Y4 \
	VBLENDVPD Y3, Y2, Y4, Y4 \
	VMOVDQU Y4, pos(R10)

scand:
	TESTL AX, AX
	JEQ scandB
	EXACT(0, 64, 128)

scandB:
	TESTL BX, BX
	JEQ sthr
	EXACT(4, 96, 160)

sthr:
	// thrm = max(0, −objMin·thrFactor) for the smallest od of all lanes
	// (+Inf when none yet: thrm 0).
	VMOVUPD 64(R10), Y0
	VMINPD 96(R10), Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMINSD X1, X0, X0
	VPCMPEQQ X5, X5, X5
	VPSLLQ $63, X5, X5
	VXORPD X5, X0, X0             // −objMin
	VMOVSD thrFactor+64(FP), X1
	VMULSD X1, X0, X0             // −objMin·thrFactor
	VMAXSD X11, X0, X0
	VBROADCASTSD X0, Y12
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
