//go:build !purego

package smo

import (
	"math"

	"github.com/arbor-ml/arbor/internal/cpu"
)

// useAVX2 reports whether the CPU and the operating system support AVX2
// (cpu.AVX2); useAVX512 whether they also support AVX-512 F, DQ, BW and
// VL (cpu.AVX512F, AVX512DQ, AVX512BW, AVX512VL). The passes use the
// widest kernels available. Tests switch them off (setKernels) to compare
// with the Go loops.
var (
	useAVX2   = hasAVX2()
	useAVX512 = hasAVX512()
)

func hasAVX2() bool { return cpu.AVX2() }

func hasAVX512() bool {
	return cpu.AVX2() && cpu.AVX512F() && cpu.AVX512DQ() && cpu.AVX512BW() && cpu.AVX512VL()
}

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

// updateAVX512, selectAVX512 and axpyAVX512 are the AVX2 kernels in
// sixteen lanes (lane t takes the positions ≡ t mod 16; n a multiple of
// 16), in passes512_amd64.s.
//
//go:noescape
func updateAVX512(grad *float64, fl *uint8, ki, kj *float32, n int, di, dj float64, out *laneMin)

//go:noescape
func selectAVX512(grad *float64, fl *uint8, qd *float64, ki *float32, n int, qdi, gmax, tau, thrFactor float64, out *selLanes16)

//go:noescape
func axpyAVX512(dst *float64, x *float32, n int, a float64)

// laneMin is updateAVX512's result: the smallest updated g over inUp and
// its position (the largest on ties), or +Inf and −1.
type laneMin struct {
	v   float64
	idx int64
}

// selLanes16 holds selectAVX512's lanes while it runs (max2 unused) and
// its result: the largest g over I_low (the sign of a zero maximum
// unsettled), and the smallest od with its position (the largest on ties;
// +Inf and −1 when none).
type selLanes16 struct {
	max2   [16]float64
	obj    [16]float64
	objIdx [16]int64
	gmax2  float64
	objMin float64
	idx    int64
}

// minLanes combines updateAVX2/512's lanes: the largest −v over the lanes
// that hold a position, the last position on ties (the serial pass's pick,
// with its bits), or (−Inf, −1).
func minLanes(v []float64, idx []int64) (float64, int) {
	gmax, gidx := math.Inf(-1), -1
	for t, i := range idx {
		if i < 0 {
			continue
		}
		if v := -v[t]; gidx < 0 || v > gmax || (v == gmax && int(i) > gidx) {
			gmax, gidx = v, int(i)
		}
	}
	return gmax, gidx
}

// selLanesResult combines selectAVX2/512's lanes over g[:n] in the serial
// pass's order: the largest g over I_low (with the bits of the last zero
// when the maximum is zero), and the smallest od, the last position on
// ties.
func selLanesResult(g []float64, fl []uint8, n int, max2, obj []float64, objIdx []int64) (float64, float64, int) {
	gmax2, objMin, idx := math.Inf(-1), math.Inf(1), -1
	for _, v := range max2 {
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
	for t, i := range objIdx {
		if i < 0 {
			continue
		}
		if v := obj[t]; idx < 0 || v < objMin || (v == objMin && int(i) > idx) {
			objMin, idx = v, int(i)
		}
	}
	return gmax2, objMin, idx
}

type lanes8 struct {
	v   [8]float64
	idx [8]int64
}

type selLanes struct {
	max2   [8]float64
	obj    [8]float64
	objIdx [8]int64
}

// updatePass is updateTail over all of g from (−Inf, −1): the widest
// kernel on the first multiple of its lane count, the lanes combined, then
// the Go loop on the rest.
func updatePass(g []float64, fl []uint8, ki, kj []float32, di, dj float64) (float64, int) {
	fl, ki, kj = fl[:len(g)], ki[:len(g)], kj[:len(g)]
	if n := len(g) &^ 15; useAVX512 && n > 0 {
		var r laneMin
		updateAVX512(&g[0], &fl[0], &ki[0], &kj[0], n, di, dj, &r)
		gmax, gidx := minLanes([]float64{r.v}, []int64{r.idx})
		return updateTail(g[n:], fl[n:], ki[n:], kj[n:], di, dj, n, gmax, gidx)
	}
	if n := len(g) &^ 7; useAVX2 && n > 0 {
		var r lanes8
		updateAVX2(&g[0], &fl[0], &ki[0], &kj[0], n, di, dj, &r)
		gmax, gidx := minLanes(r.v[:], r.idx[:])
		return updateTail(g[n:], fl[n:], ki[n:], kj[n:], di, dj, n, gmax, gidx)
	}
	return updateTail(g, fl, ki, kj, di, dj, 0, math.Inf(-1), -1)
}

// selectPass is selectTail over all of g from (−Inf, +Inf, −1): the widest
// kernel on the first multiple of its lane count, the lanes combined in
// the serial pass's order, then the Go loop on the rest.
func selectPass(g []float64, fl []uint8, qd []float64, ki []float32, qdi, gmax float64) (float64, float64, int) {
	fl, qd, ki = fl[:len(g)], qd[:len(g)], ki[:len(g)]
	if n := len(g) &^ 15; useAVX512 && n > 0 {
		var r selLanes16
		selectAVX512(&g[0], &fl[0], &qd[0], &ki[0], n, qdi, gmax, tau, thrFactor, &r)
		gmax2, objMin, idx := selLanesResult(g, fl, n, []float64{r.gmax2}, []float64{r.objMin}, []int64{r.idx})
		return selectTail(g[n:], fl[n:], qd[n:], ki[n:], qdi, gmax, n, gmax2, objMin, idx)
	}
	if n := len(g) &^ 7; useAVX2 && n > 0 {
		var r selLanes
		selectAVX2(&g[0], &fl[0], &qd[0], &ki[0], n, qdi, gmax, tau, thrFactor, &r)
		gmax2, objMin, idx := selLanesResult(g, fl, n, r.max2[:], r.obj[:], r.objIdx[:])
		return selectTail(g[n:], fl[n:], qd[n:], ki[n:], qdi, gmax, n, gmax2, objMin, idx)
	}
	return selectTail(g, fl, qd, ki, qdi, gmax, 0, math.Inf(-1), math.Inf(1), -1)
}

// axpy32 adds a·float64(x[j]) to dst[j].
func axpy32(dst []float64, a float64, x []float32) {
	x = x[:len(dst)]
	if n := len(dst) &^ 15; useAVX512 && n > 0 {
		axpyAVX512(&dst[0], &x[0], n, a)
		axpyTail(dst[n:], a, x[n:])
		return
	}
	if n := len(dst) &^ 7; useAVX2 && n > 0 {
		axpyAVX2(&dst[0], &x[0], n, a)
		axpyTail(dst[n:], a, x[n:])
		return
	}
	axpyTail(dst, a, x)
}

// Kernel levels for setKernels.
const (
	goLoops = iota
	avx2Kernels
	avx512Kernels
)

// setKernels lets the passes use kernels up to level (as far as the CPU
// has them; for tests and benchmarks) and returns the previous level.
func setKernels(level int) int {
	old := goLoops
	switch {
	case useAVX512:
		old = avx512Kernels
	case useAVX2:
		old = avx2Kernels
	}
	useAVX2 = level >= avx2Kernels && hasAVX2()
	useAVX512 = level >= avx512Kernels && hasAVX512()
	return old
}
