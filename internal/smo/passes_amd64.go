//go:build !purego

package smo

import "math"

// useAVX2 reports whether the CPU and the operating system support AVX2
// (CPUID leaf 7 EBX bit 5, AVX and OSXSAVE in leaf 1 ECX, XMM and YMM
// state enabled in XCR0). Tests switch it off to run the Go loops.
var useAVX2 = hasAVX2()

func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// Implemented in passes_amd64.s.

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// updateAVX2 runs updateTail's loop over the first n entries (n a multiple
// of 8) in eight lanes (lane t takes the positions ≡ t mod 8): each lane's
// smallest updated g over inUp (≤: the last on ties) and its position, or
// +Inf and −1.
//
//go:noescape
func updateAVX2(grad *float64, fl *uint8, ki, kj *float32, n int, di, dj float64, out *lanes8)

// selectAVX2 runs selectTail's loop over the first n entries (n a multiple
// of 8) in eight lanes (lane t takes the positions ≡ t mod 8): per lane the
// largest g over I_low (the sign of a zero maximum unsettled), and the last
// minimiser of od with od (+Inf, −1 when none).
//
//go:noescape
func selectAVX2(grad *float64, fl *uint8, qd *float64, ki *float32, n int, qdi, gmax, tau, thrFactor float64, out *selLanes)

// axpyAVX2 adds a·float64(x[j]) to dst[j] for j < n (n a multiple of 8).
//
//go:noescape
func axpyAVX2(dst *float64, x *float32, n int, a float64)

type lanes8 struct {
	v   [8]float64
	idx [8]int64
}

type selLanes struct {
	max2   [8]float64
	obj    [8]float64
	objIdx [8]int64
}

// updatePass is updateTail over all of g from (−Inf, −1): the AVX2 kernel
// on the first multiple of 8 entries, the lanes combined (largest −g, the
// last position on ties: the serial pass's pick, with its bits), then the
// Go loop on the rest.
func updatePass(g []float64, fl []uint8, ki, kj []float32, di, dj float64) (float64, int) {
	gmax, gidx := math.Inf(-1), -1
	n := len(g) &^ 7
	if !useAVX2 || n == 0 {
		return updateTail(g, fl, ki, kj, di, dj, 0, gmax, gidx)
	}
	fl, ki, kj = fl[:len(g)], ki[:len(g)], kj[:len(g)]
	var r lanes8
	updateAVX2(&g[0], &fl[0], &ki[0], &kj[0], n, di, dj, &r)
	for t, i := range r.idx {
		if i < 0 {
			continue
		}
		if v := -r.v[t]; gidx < 0 || v > gmax || (v == gmax && int(i) > gidx) {
			gmax, gidx = v, int(i)
		}
	}
	return updateTail(g[n:], fl[n:], ki[n:], kj[n:], di, dj, n, gmax, gidx)
}

// selectPass is selectTail over all of g from (−Inf, +Inf, −1): the AVX2
// kernel on the first multiple of 8 entries, the lanes combined in the
// serial pass's order (largest g; smallest od, the last position on ties),
// then the Go loop on the rest.
func selectPass(g []float64, fl []uint8, qd []float64, ki []float32, qdi, gmax float64) (float64, float64, int) {
	gmax2, objMin, idx := math.Inf(-1), math.Inf(1), -1
	n := len(g) &^ 7
	if !useAVX2 || n == 0 {
		return selectTail(g, fl, qd, ki, qdi, gmax, 0, gmax2, objMin, idx)
	}
	fl, qd, ki = fl[:len(g)], qd[:len(g)], ki[:len(g)]
	var r selLanes
	selectAVX2(&g[0], &fl[0], &qd[0], &ki[0], n, qdi, gmax, tau, thrFactor, &r)
	for _, v := range r.max2 {
		gmax2 = max(gmax2, v)
	}
	if gmax2 == 0 {
		// The serial pass keeps the bits of the last zero over I_low.
		for j := n - 1; j >= 0; j-- {
			if g[j] == 0 && fl[j]&inLow != 0 {
				gmax2 = g[j]
				break
			}
		}
	}
	for t, i := range r.objIdx {
		if i < 0 {
			continue
		}
		if v := r.obj[t]; idx < 0 || v < objMin || (v == objMin && int(i) > idx) {
			objMin, idx = v, int(i)
		}
	}
	return selectTail(g[n:], fl[n:], qd[n:], ki[n:], qdi, gmax, n, gmax2, objMin, idx)
}

// axpy32 adds a·float64(x[j]) to dst[j].
func axpy32(dst []float64, a float64, x []float32) {
	n := len(dst) &^ 7
	if !useAVX2 || n == 0 {
		axpyTail(dst, a, x)
		return
	}
	x = x[:len(dst)]
	axpyAVX2(&dst[0], &x[0], n, a)
	axpyTail(dst[n:], a, x[n:])
}

// setAVX2 sets useAVX2 (for tests and benchmarks) and returns the old value.
func setAVX2(on bool) bool {
	old := useAVX2
	useAVX2 = on && hasAVX2()
	return old
}
