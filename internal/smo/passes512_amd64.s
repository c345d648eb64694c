//go:build !purego

#include "textflag.h"

// AVX-512 kernels of the SMO passes: the AVX2 kernels of passes_amd64.s
// in sixteen lanes (two sets of eight: positions 16m+0..7 and 16m+8..15)
// with mask registers in place of sign-bit blends. Every floating-point
// operation is the Go loop's, in the Go loop's order, each rounded (no
// fused multiply-add); comparisons use the same predicates.
//
// Go operand order is Intel's reversed:
//   VCMPPD $p, b, a, K1, K2   K2 = K1 ∧ (a p b)
//   VMOVAPD x, K1, d          d = K1 ? x : d (lane by lane)

DATA iota8<>+0(SB)/8, $0
DATA iota8<>+8(SB)/8, $1
DATA iota8<>+16(SB)/8, $2
DATA iota8<>+24(SB)/8, $3
DATA iota8<>+32(SB)/8, $4
DATA iota8<>+40(SB)/8, $5
DATA iota8<>+48(SB)/8, $6
DATA iota8<>+56(SB)/8, $7
GLOBL iota8<>(SB), RODATA|NOPTR, $64

// PICK keeps, lane by lane, (va, ia) or (vb, ib): the one with the smaller
// value, or on equal values the larger position (an empty lane is
// (+Inf, −1), so a lane holding a position wins over it). Values are never
// NaN here. Clobbers K1–K3.
#define PICK(va, ia, vb, ib) \
	VCMPPD $0x11, va, vb, K1 \
	VCMPPD $0x00, va, vb, K2 \
	VPCMPGTQ ia, ib, K3 \
	KANDB K3, K2, K2 \
	KORB K2, K1, K1 \
	VMOVAPD vb, K1, va \
	VMOVDQA64 ib, K1, ia

// REDUCE reduces sixteen lanes (Z13/Z12 and Z11/Z10 as value/position) to
// the PICK of all of them, in X13/X12. Clobbers Z10, Z11 and K1–K3.
#define REDUCE \
	PICK(Z13, Z12, Z11, Z10) \
	VEXTRACTF64X4 $1, Z13, Y11 \
	VEXTRACTI64X4 $1, Z12, Y10 \
	PICK(Y13, Y12, Y11, Y10) \
	VEXTRACTF128 $1, Y13, X11 \
	VEXTRACTI128 $1, Y12, X10 \
	PICK(X13, X12, X11, X10) \
	VPERMILPD $1, X13, X11 \
	VPSHUFD $0x4e, X12, X10 \
	PICK(X13, X12, X11, X10)

#define POSINF $0x7ff0000000000000
#define NEGINF $0xfff0000000000000
#define SIGN $0x8000000000000000

// func updateAVX512(grad *float64, fl *uint8, ki, kj *float32, n int, di, dj float64, out *laneMin)
//
// Each lane keeps the smallest v = g + (ki·di + kj·dj) over inUp with
// v ≤ min (the last on ties): −v ≥ −min is updateTail's test. The lanes
// are then reduced to the smallest v, the largest position on ties.
TEXT ·updateAVX512(SB), NOSPLIT, $0-64
	MOVQ grad+0(FP), DI
	MOVQ fl+8(FP), DX
	MOVQ ki+16(FP), R8
	MOVQ kj+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTSD di+40(FP), Z15
	VBROADCASTSD dj+48(FP), Z14
	MOVQ out+56(FP), R10

	MOVQ POSINF, AX
	VPBROADCASTQ AX, Z13          // min A = +Inf
	VMOVDQU64 Z13, Z11            // min B
	VPTERNLOGQ $0xff, Z12, Z12, Z12 // idx A = −1
	VMOVDQU64 Z12, Z10            // idx B
	VMOVDQU64 iota8<>(SB), Z9     // positions A
	MOVQ $8, AX
	VPBROADCASTQ AX, Z6
	VPADDQ Z6, Z9, Z7             // positions B
	VPADDQ Z6, Z6, Z8             // step 16
	MOVL $1, AX
	VPBROADCASTB AX, X16          // inUp (bit 0) of each flag byte

	XORQ SI, SI
	TESTQ CX, CX
	JEQ udone

uloop:
	VCVTPS2PD (R8)(SI*4), Z0
	VCVTPS2PD (R9)(SI*4), Z1
	VCVTPS2PD 32(R8)(SI*4), Z2
	VCVTPS2PD 32(R9)(SI*4), Z3
	VMULPD Z15, Z0, Z0            // ki·di
	VMULPD Z14, Z1, Z1            // kj·dj
	VMULPD Z15, Z2, Z2
	VMULPD Z14, Z3, Z3
	VADDPD Z1, Z0, Z0             // ki·di + kj·dj
	VADDPD Z3, Z2, Z2
	VADDPD (DI)(SI*8), Z0, Z0     // v = g + (…)
	VADDPD 64(DI)(SI*8), Z2, Z2
	VMOVUPD Z0, (DI)(SI*8)
	VMOVUPD Z2, 64(DI)(SI*8)
	VMOVDQU (DX)(SI*1), X1
	VPTESTMB X16, X1, K1          // inUp, positions 0..15
	KSHIFTRW $8, K1, K2           // positions 8..15
	VCMPPD $0x12, Z13, Z0, K1, K3 // inUp ∧ v ≤ min (LE_OQ)
	VCMPPD $0x12, Z11, Z2, K2, K4
	VMOVAPD Z0, K3, Z13
	VMOVDQA64 Z9, K3, Z12
	VMOVAPD Z2, K4, Z11
	VMOVDQA64 Z7, K4, Z10
	VPADDQ Z8, Z9, Z9
	VPADDQ Z8, Z7, Z7
	ADDQ $16, SI
	CMPQ SI, CX
	JLT uloop

udone:
	REDUCE
	VMOVSD X13, (R10)
	VMOVQ X12, 8(R10)
	VZEROUPPER
	RET

// func selectAVX512(grad *float64, fl *uint8, qd *float64, ki *float32, n int, qdi, gmax, tau, thrFactor float64, out *selLanes16)
//
// At the end the lanes are reduced: the largest g over I_low (VMAXPD: the
// sign of a zero maximum unsettled) and the smallest od with the largest
// position on ties (−1 when none).
//
// Per lane: the largest g over I_low (VMAXPD keeps the lane's value on
// equality and on NaN, as the AVX2 kernel's blend with −Inf does;
// selectPass settles the sign of a zero maximum), and the last minimiser
// of od with od. The common path keeps position j as a possible candidate
// only if j ∈ I_low, gd > 0 and !(gd² < thrm·quad) with quad unfloored and
// thrm = −objMin·thrFactor for the smallest od found so far in any lane
// (0 before the first): a subset of the AVX2 kernel's (which tests gd's
// sign bit where the exact rule tests gd > 0) that still holds every
// position the exact rule can keep. The exact rule is applied to the
// eight lanes of a set when one of them is kept.
//
// Registers: Z15 gmax, Z14 qdi, Z12 thrm, Z11 zero, Z10/Z9 largest g over
// I_low (sets A/B), X16 inLow bytes, Z17 tau, Z18 sign bit, Z19 positions
// 0..7; K1/K2 inLow of sets A/B.
TEXT ·selectAVX512(SB), NOSPLIT, $0-80
	MOVQ grad+0(FP), DI
	MOVQ fl+8(FP), DX
	MOVQ qd+16(FP), R9
	MOVQ ki+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSD qdi+40(FP), Z14
	VBROADCASTSD gmax+48(FP), Z15
	VBROADCASTSD tau+56(FP), Z17
	MOVQ out+72(FP), R10

	MOVQ NEGINF, AX
	VPBROADCASTQ AX, Z10
	VMOVDQU64 Z10, Z9
	VPXORQ Z12, Z12, Z12          // thrm = 0
	VPXORQ Z11, Z11, Z11
	MOVQ SIGN, AX
	VPBROADCASTQ AX, Z18
	VMOVDQU64 iota8<>(SB), Z19
	MOVL $2, AX
	VPBROADCASTB AX, X16          // inLow (bit 1) of each flag byte
	MOVQ POSINF, AX
	VPBROADCASTQ AX, Z0
	VMOVUPD Z0, 128(R10)          // objMin = +Inf
	VMOVUPD Z0, 192(R10)
	VPTERNLOGQ $0xff, Z0, Z0, Z0
	VMOVDQU64 Z0, 256(R10)        // positions −1
	VMOVDQU64 Z0, 320(R10)

	XORQ SI, SI
	TESTQ CX, CX
	JEQ sdone

sloop:
	VMOVUPD (DI)(SI*8), Z0        // g (A)
	VMOVUPD 64(DI)(SI*8), Z4      // g (B)
	VMOVDQU (DX)(SI*1), X1
	VPTESTMB X16, X1, K1          // inLow, positions 0..15
	KSHIFTRW $8, K1, K2           // positions 8..15
	VMAXPD Z10, Z0, K1, Z10       // over I_low: g > max ? g : max
	VMAXPD Z9, Z4, K2, Z9
	VADDPD Z15, Z0, Z0            // gd = gmax + g
	VADDPD Z15, Z4, Z4
	VCVTPS2PD (R8)(SI*4), Z2
	VCVTPS2PD 32(R8)(SI*4), Z6
	VADDPD Z2, Z2, Z2             // 2·k
	VADDPD Z6, Z6, Z6
	VADDPD (R9)(SI*8), Z14, Z3    // qdi + qd
	VADDPD 64(R9)(SI*8), Z14, Z7
	VSUBPD Z2, Z3, Z3             // quad (unfloored)
	VSUBPD Z6, Z7, Z7
	VMULPD Z3, Z12, Z3            // thrm·quad
	VMULPD Z7, Z12, Z7
	VMULPD Z0, Z0, Z2             // gd²
	VMULPD Z4, Z4, Z6
	VCMPPD $0x1e, Z11, Z0, K1, K3 // inLow ∧ gd > 0 (GT_OQ)
	VCMPPD $0x1e, Z11, Z4, K2, K4
	VCMPPD $0x15, Z3, Z2, K3, K3  // ∧ !(gd² < thrm·quad) (NLT_UQ)
	VCMPPD $0x15, Z7, Z6, K4, K4
	KMOVW K3, AX
	KMOVW K4, BX
	MOVL AX, R11
	ORL BX, R11
	JNE scand

snext:
	ADDQ $16, SI
	CMPQ SI, CX
	JLT sloop

sdone:
	VMAXPD Z9, Z10, Z10
	VEXTRACTF64X4 $1, Z10, Y9
	VMAXPD Y9, Y10, Y10
	VEXTRACTF128 $1, Y10, X9
	VMAXPD X9, X10, X10
	VPERMILPD $1, X10, X9
	VMAXSD X9, X10, X10
	VMOVSD X10, 384(R10)          // largest g over I_low
	VMOVUPD 128(R10), Z13
	VMOVDQU64 256(R10), Z12
	VMOVUPD 192(R10), Z11
	VMOVDQU64 320(R10), Z10
	REDUCE
	VMOVSD X13, 392(R10)          // smallest od
	VMOVQ X12, 400(R10)           // its position
	VZEROUPPER
	RET

// EXACT applies selectTail's rule to the eight lanes at position SI+off
// (inLow in mask km): od = −gd²/quad (quad floored at τ) where gd > 0 and
// j ∈ I_low, kept when od ≤ objMin (the lane's, at out+obj), with its
// position (out+pos).
#define EXACT(off, km, obj, pos) \
	VMOVUPD (off*8)(DI)(SI*8), Z0 \
	VADDPD Z15, Z0, Z0 \
	VCVTPS2PD (off*4)(R8)(SI*4), Z2 \
	VADDPD Z2, Z2, Z2 \
	VADDPD (off*8)(R9)(SI*8), Z14, Z3 \
	VSUBPD Z2, Z3, Z3 \
	VMOVAPD Z17, Z5 \
	VCMPPD $0x1e, Z11, Z3, K5 \
	VMOVAPD Z3, K5, Z5 \
	VCMPPD $0x1e, Z11, Z0, km, K6 \
	VMULPD Z0, Z0, Z0 \
	VPXORQ Z18, Z0, Z0 \
	VDIVPD Z5, Z0, Z0 \
	VMOVUPD obj(R10), Z2 \
	VCMPPD $0x12, Z2, Z0, K6, K7 \
	VMOVAPD Z0, K7, Z2 \
	VMOVUPD Z2, obj(R10) \
	LEAQ off(SI), R11 \
	VPBROADCASTQ R11, Z2 \
	VPADDQ Z19, Z2, Z2 \
	VMOVDQU64 pos(R10), Z4 \
	VMOVDQA64 Z2, K7, Z4 \
	VMOVDQU64 Z4, pos(R10)

scand:
	TESTL AX, AX
	JEQ scandB
	EXACT(0, K1, 128, 256)

scandB:
	TESTL BX, BX
	JEQ sthr
	EXACT(8, K2, 192, 320)

sthr:
	// thrm = max(0, −objMin·thrFactor) for the smallest od of all lanes
	// (+Inf when none yet: thrm 0).
	VMOVUPD 128(R10), Z0
	VMINPD 192(R10), Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VMINPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMINSD X1, X0, X0
	VXORPD X18, X0, X0            // −objMin
	VMOVSD thrFactor+64(FP), X1
	VMULSD X1, X0, X0             // −objMin·thrFactor
	VMAXSD X11, X0, X0
	VBROADCASTSD X0, Z12
	JMP snext

// func axpyAVX512(dst *float64, x *float32, n int, a float64)
TEXT ·axpyAVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD a+24(FP), Z15
	XORQ AX, AX
	TESTQ CX, CX
	JEQ adone

aloop:
	VCVTPS2PD (SI)(AX*4), Z0
	VCVTPS2PD 32(SI)(AX*4), Z1
	VMULPD Z15, Z0, Z0            // a·x
	VMULPD Z15, Z1, Z1
	VADDPD (DI)(AX*8), Z0, Z0     // dst + a·x
	VADDPD 64(DI)(AX*8), Z1, Z1
	VMOVUPD Z0, (DI)(AX*8)
	VMOVUPD Z1, 64(DI)(AX*8)
	ADDQ $16, AX
	CMPQ AX, CX
	JLT aloop

adone:
	VZEROUPPER
	RET
