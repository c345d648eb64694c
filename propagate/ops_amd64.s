//go:build !purego

#include "textflag.h"

// func symCols3AVX2(w *float64, stride int, x *float64, nj int, acc *[3][16]float64)
//
// acc[c][r] = Σ_{j<nj} w[j·stride + r] · x[3j + c] for r < 16, c < 3, each
// sum formed from +0 by one rounded product and one rounded sum per j in
// increasing j (VMULPD then VADDPD, no fused multiply-add): in each lane
// the operations of the scalar loop a += w·x. Twelve accumulators (Y0–Y11:
// class-major, four rows each), Y12 the broadcast x, Y13–Y15 products.
TEXT ·symCols3AVX2(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ stride+8(FP), DX
	SHLQ $3, DX
	MOVQ x+16(FP), DI
	MOVQ nj+24(FP), CX
	MOVQ acc+32(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	TESTQ CX, CX
	JEQ done

loop:
	VBROADCASTSD (DI), Y12
	VMULPD (SI), Y12, Y13
	VMULPD 32(SI), Y12, Y14
	VMULPD 64(SI), Y12, Y15
	VADDPD Y13, Y0, Y0
	VADDPD Y14, Y1, Y1
	VADDPD Y15, Y2, Y2
	VMULPD 96(SI), Y12, Y13
	VADDPD Y13, Y3, Y3

	VBROADCASTSD 8(DI), Y12
	VMULPD (SI), Y12, Y13
	VMULPD 32(SI), Y12, Y14
	VMULPD 64(SI), Y12, Y15
	VADDPD Y13, Y4, Y4
	VADDPD Y14, Y5, Y5
	VADDPD Y15, Y6, Y6
	VMULPD 96(SI), Y12, Y13
	VADDPD Y13, Y7, Y7

	VBROADCASTSD 16(DI), Y12
	VMULPD (SI), Y12, Y13
	VMULPD 32(SI), Y12, Y14
	VMULPD 64(SI), Y12, Y15
	VADDPD Y13, Y8, Y8
	VADDPD Y14, Y9, Y9
	VADDPD Y15, Y10, Y10
	VMULPD 96(SI), Y12, Y13
	VADDPD Y13, Y11, Y11

	ADDQ DX, SI
	ADDQ $24, DI
	DECQ CX
	JNZ loop

done:
	VMOVUPD Y0, 0(R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	VMOVUPD Y4, 128(R8)
	VMOVUPD Y5, 160(R8)
	VMOVUPD Y6, 192(R8)
	VMOVUPD Y7, 224(R8)
	VMOVUPD Y8, 256(R8)
	VMOVUPD Y9, 288(R8)
	VMOVUPD Y10, 320(R8)
	VMOVUPD Y11, 352(R8)
	VZEROUPPER
	RET

// func symCols4AVX2(w *float64, stride int, x *float64, nj int, acc *[4][8]float64)
//
// As symCols3AVX2 for eight rows and four classes: acc[c][r] =
// Σ_{j<nj} w[j·stride + r] · x[4j + c]. Accumulators Y0–Y7 (class c in
// Y(2c), Y(2c+1)), Y8 the broadcast x, Y9–Y10 products.
TEXT ·symCols4AVX2(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ stride+8(FP), DX
	SHLQ $3, DX
	MOVQ x+16(FP), DI
	MOVQ nj+24(FP), CX
	MOVQ acc+32(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ CX, CX
	JEQ done4

loop4:
	VBROADCASTSD (DI), Y8
	VMULPD (SI), Y8, Y9
	VMULPD 32(SI), Y8, Y10
	VADDPD Y9, Y0, Y0
	VADDPD Y10, Y1, Y1
	VBROADCASTSD 8(DI), Y8
	VMULPD (SI), Y8, Y9
	VMULPD 32(SI), Y8, Y10
	VADDPD Y9, Y2, Y2
	VADDPD Y10, Y3, Y3
	VBROADCASTSD 16(DI), Y8
	VMULPD (SI), Y8, Y9
	VMULPD 32(SI), Y8, Y10
	VADDPD Y9, Y4, Y4
	VADDPD Y10, Y5, Y5
	VBROADCASTSD 24(DI), Y8
	VMULPD (SI), Y8, Y9
	VMULPD 32(SI), Y8, Y10
	VADDPD Y9, Y6, Y6
	VADDPD Y10, Y7, Y7
	ADDQ DX, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop4

done4:
	VMOVUPD Y0, 0(R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	VMOVUPD Y4, 128(R8)
	VMOVUPD Y5, 160(R8)
	VMOVUPD Y6, 192(R8)
	VMOVUPD Y7, 224(R8)
	VZEROUPPER
	RET
