//go:build !purego

#include "textflag.h"

// func symvRows4Asm(n int, a *float64, lda int, x, y *float64, s *[4]float64, acc *[4][4]float64)
//
// symvRows4Go four columns at a time: Y0–Y3 hold acc[0..3] (lane q of
// register p is acc[p][q]), Y8–Y11 the broadcast s_p, Y12 x, Y13 a row's
// values, Y14 y, Y15 a product. Every product is rounded (VMULPD) before
// it is added (VADDPD), as in gonum's DotUnitary and AxpyUnitary.
TEXT ·symvRows4Asm(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $3, R8
	LEAQ (SI)(R8*1), R9
	LEAQ (R9)(R8*1), R10
	LEAQ (R10)(R8*1), R11
	MOVQ x+24(FP), DI
	MOVQ y+32(FP), DX
	MOVQ s+40(FP), AX
	VBROADCASTSD 0(AX), Y8
	VBROADCASTSD 8(AX), Y9
	VBROADCASTSD 16(AX), Y10
	VBROADCASTSD 24(AX), Y11
	MOVQ acc+48(FP), AX
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	VMOVUPD 64(AX), Y2
	VMOVUPD 96(AX), Y3
	SHLQ $3, CX
	XORQ BX, BX

loop:
	VMOVUPD (DI)(BX*1), Y12
	VMOVUPD (DX)(BX*1), Y14
	VMOVUPD (SI)(BX*1), Y13
	VMULPD Y13, Y12, Y15
	VADDPD Y15, Y0, Y0
	VMULPD Y13, Y8, Y13
	VADDPD Y13, Y14, Y14
	VMOVUPD (R9)(BX*1), Y13
	VMULPD Y13, Y12, Y15
	VADDPD Y15, Y1, Y1
	VMULPD Y13, Y9, Y13
	VADDPD Y13, Y14, Y14
	VMOVUPD (R10)(BX*1), Y13
	VMULPD Y13, Y12, Y15
	VADDPD Y15, Y2, Y2
	VMULPD Y13, Y10, Y13
	VADDPD Y13, Y14, Y14
	VMOVUPD (R11)(BX*1), Y13
	VMULPD Y13, Y12, Y15
	VADDPD Y15, Y3, Y3
	VMULPD Y13, Y11, Y13
	VADDPD Y13, Y14, Y14
	VMOVUPD Y14, (DX)(BX*1)
	ADDQ $32, BX
	CMPQ BX, CX
	JLT loop

	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	VZEROUPPER
	RET
