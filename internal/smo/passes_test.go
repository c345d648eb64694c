package smo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The passes (AVX2 kernels where the CPU has them, the Go loops
// otherwise) against the definition written plainly below: every returned
// value and every updated gradient entry must have the same bits. Inputs
// are drawn to make ties, signed zeros, infinities, quad ≤ 0 and tails
// that are not a multiple of the vector width frequent.

// updateNaive is updatePass's definition.
func updateNaive(g []float64, fl []uint8, ki, kj []float32, di, dj float64) (float64, int) {
	gmax, gidx := math.Inf(-1), -1
	for k := range g {
		a := float64(float64(ki[k]) * di)
		b := float64(float64(kj[k]) * dj)
		v := g[k] + float64(a+b)
		g[k] = v
		if fl[k]&inUp != 0 && -v >= gmax {
			gmax, gidx = -v, k
		}
	}
	return gmax, gidx
}

// selectNaive is selectPass's definition (a division for every candidate).
func selectNaive(g []float64, fl []uint8, qd []float64, ki []float32, qdi, gmax float64) (float64, float64, int) {
	gmax2, objMin, idx := math.Inf(-1), math.Inf(1), -1
	for j := range g {
		if fl[j]&inLow != 0 && g[j] >= gmax2 {
			gmax2 = g[j]
		}
		gd := gmax + g[j]
		if fl[j]&inLow == 0 || !(gd > 0) {
			continue
		}
		quad := float64(qdi+qd[j]) - float64(2*float64(ki[j]))
		if !(quad > 0) {
			quad = tau
		}
		if od := -float64(gd*gd) / quad; od <= objMin {
			objMin, idx = od, j
		}
	}
	return gmax2, objMin, idx
}

// same reports whether a and b have the same bits (any NaN equals any NaN:
// the solver never makes one, and x86 may propagate either operand's).
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// passGen draws pass inputs.
type passGen struct{ r *rand.Rand }

// palette values make exact ties likely.
var palette = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 0.25, 3, -3, 1e-300, -1e-300}

func (p passGen) value(mode int, inf bool) float64 {
	r := p.r
	if inf && r.IntN(200) == 0 {
		return math.Inf(1 - 2*r.IntN(2))
	}
	switch mode {
	case 0:
		return r.NormFloat64()
	case 1:
		return palette[r.IntN(len(palette))]
	default:
		if r.IntN(2) == 0 {
			return palette[r.IntN(len(palette))]
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
	}
}

func (p passGen) flags(n int) []uint8 {
	r := p.r
	fl := make([]uint8, n)
	switch r.IntN(5) {
	case 0: // all in both sets
		for i := range fl {
			fl[i] = inUp | inLow
		}
	case 1: // none
	case 2: // sparse
		for i := range fl {
			if r.IntN(20) == 0 {
				fl[i] = uint8(1 + r.IntN(3))
			}
		}
	default:
		for i := range fl {
			fl[i] = uint8(r.IntN(4))
		}
	}
	// Bits outside inUp|inLow must not matter.
	for i := range fl {
		if r.IntN(7) == 0 {
			fl[i] |= 4 << r.IntN(5)
		}
	}
	return fl
}

func (p passGen) floats32(n, mode int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(p.value(mode, false))
	}
	return x
}

// length is 0..2000 with small and near-multiple-of-8 sizes favoured.
func (p passGen) length() int {
	r := p.r
	switch r.IntN(4) {
	case 0:
		return r.IntN(20)
	case 1:
		return 8*r.IntN(60) + r.IntN(3) - 1 + 1
	default:
		return r.IntN(2001)
	}
}

func TestUpdatePass(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		p := passGen{rand.New(rand.NewPCG(1, 9))}
		for trial := range 3000 {
			n := p.length()
			pad := p.r.IntN(9)
			mode := p.r.IntN(3)
			g := make([]float64, n+pad)
			for i := range g {
				g[i] = p.value(mode, trial%3 == 0)
			}
			fl := p.flags(n + pad)
			ki, kj := p.floats32(n+pad, mode), p.floats32(n+pad, p.r.IntN(3))
			di, dj := p.value(p.r.IntN(3), false), p.value(p.r.IntN(3), false)
			if p.r.IntN(10) == 0 {
				dj = 0
			}
			lo := p.r.IntN(pad + 1)
			hi := lo + n

			want := append([]float64(nil), g...)
			wmax, widx := updateNaive(want[lo:hi], fl[lo:hi], ki[lo:hi], kj[lo:hi], di, dj)
			if widx >= 0 {
				widx += lo
			}
			// Through the solver's method, as the SMO loop calls it.
			s := &smo{g: append([]float64(nil), g...), flags: fl}
			gmax, gidx := s.updateRange(lo, hi, ki, kj, di, dj)
			if !same(gmax, wmax) || gidx != widx {
				t.Fatalf("trial %d (n=%d lo=%d): max %v at %d, want %v at %d", trial, n, lo, gmax, gidx, wmax, widx)
			}
			for k := range g {
				if !same(s.g[k], want[k]) {
					t.Fatalf("trial %d (n=%d lo=%d): g[%d] = %v, want %v", trial, n, lo, k, s.g[k], want[k])
				}
			}
		}
	})
}

func TestSelectPass(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		p := passGen{rand.New(rand.NewPCG(2, 9))}
		for trial := range 3000 {
			n := p.length()
			pad := p.r.IntN(9)
			mode := p.r.IntN(3)
			g := make([]float64, n+pad)
			for i := range g {
				g[i] = p.value(mode, trial%3 == 0)
			}
			fl := p.flags(n + pad)
			qd := make([]float64, n+pad)
			for i := range qd {
				qd[i] = math.Abs(p.value(mode, false))
			}
			qdi := math.Abs(p.value(mode, false))
			ki := p.floats32(n+pad, mode)
			// quad ≤ 0 (and exactly 0) on purpose.
			for i := range ki {
				switch p.r.IntN(8) {
				case 0:
					ki[i] = float32((qdi + qd[i]) / 2)
				case 1:
					ki[i] = float32(qdi + qd[i] + 1)
				}
			}
			gmax := p.value(p.r.IntN(3), trial%5 == 0)
			if p.r.IntN(4) == 0 {
				// gmax as the solver passes it: the largest −g over I_up.
				gmax = math.Inf(-1)
				for i, v := range g {
					if fl[i]&inUp != 0 {
						gmax = max(gmax, -v)
					}
				}
			}
			lo := p.r.IntN(pad + 1)
			hi := lo + n

			w2, wobj, widx := selectNaive(g[lo:hi], fl[lo:hi], qd[lo:hi], ki[lo:hi], qdi, gmax)
			if widx >= 0 {
				widx += lo
			}
			s := &smo{g: g, flags: fl, qd: qd}
			g2, obj, idx := s.selectRange(lo, hi, ki, qdi, gmax)
			if !same(g2, w2) || !same(obj, wobj) || idx != widx {
				t.Fatalf("trial %d (n=%d lo=%d gmax=%v): (%v, %v, %d), want (%v, %v, %d)", trial, n, lo, gmax, g2, obj, idx, w2, wobj, widx)
			}
		}
	})
}

// TestSelectPassTies plants many exact ties of od (and of the maximum)
// across lanes and the tail: the last position must win.
func TestSelectPassTies(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 9))
		for trial := range 500 {
			n := r.IntN(300)
			g := make([]float64, n)
			fl := make([]uint8, n)
			qd := make([]float64, n)
			ki := make([]float32, n)
			gs := []float64{0.5, 1, math.Copysign(0, -1), 0}
			if trial%2 == 1 { // the maximum over I_low is a zero of either sign
				gs = []float64{-1, math.Copysign(0, -1), 0, -0.5}
			}
			qds, kis, qdi := []float64{1, 2}, []float32{0.25, 0.5, 1.5}, 1.0
			gmax := []float64{0, 0.5, 1, 2}[r.IntN(4)]
			if trial%3 == 2 {
				// Ties of inexact quotients: −od·quad may round above gd², which
				// the exclusion test's 1e-9 slack must absorb.
				gs = []float64{r.Float64(), r.Float64(), r.Float64()}
				qds = []float64{1 + r.Float64(), 1 + r.Float64()}
				kis = []float32{float32(r.Float64()), float32(r.Float64())}
				qdi, gmax = 1+r.Float64(), r.Float64()
			}
			for i := range g {
				g[i] = gs[r.IntN(len(gs))]
				fl[i] = uint8(r.IntN(4))
				qd[i] = qds[r.IntN(len(qds))]
				ki[i] = kis[r.IntN(len(kis))]
			}
			w2, wobj, widx := selectNaive(g, fl, qd, ki, qdi, gmax)
			g2, obj, idx := selectPass(g, fl, qd, ki, qdi, gmax)
			if !same(g2, w2) || !same(obj, wobj) || idx != widx {
				t.Fatalf("trial %d (n=%d): (%v, %v, %d), want (%v, %v, %d)", trial, n, g2, obj, idx, w2, wobj, widx)
			}
		}
	})
}

func TestUpdatePassTies(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(4, 9))
		for trial := range 500 {
			n := r.IntN(300)
			g := make([]float64, n)
			fl := make([]uint8, n)
			ki, kj := make([]float32, n), make([]float32, n)
			for i := range g {
				g[i] = []float64{0.5, 1, math.Copysign(0, -1), 0, math.Inf(1)}[r.IntN(5)]
				fl[i] = uint8(r.IntN(4))
				ki[i] = []float32{0, 1}[r.IntN(2)]
			}
			want := append([]float64(nil), g...)
			wmax, widx := updateNaive(want, fl, ki, kj, 0.5, -0.0)
			gmax, gidx := updatePass(g, fl, ki, kj, 0.5, -0.0)
			if !same(gmax, wmax) || gidx != widx {
				t.Fatalf("trial %d (n=%d): %v at %d, want %v at %d", trial, n, gmax, gidx, wmax, widx)
			}
			for k := range g {
				if !same(g[k], want[k]) {
					t.Fatalf("trial %d: g[%d] = %v, want %v", trial, k, g[k], want[k])
				}
			}
		}
	})
}

func TestAxpy32(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		p := passGen{rand.New(rand.NewPCG(5, 9))}
		for trial := range 1000 {
			n := p.length()
			mode := p.r.IntN(3)
			dst := make([]float64, n)
			for i := range dst {
				dst[i] = p.value(mode, trial%3 == 0)
			}
			x := p.floats32(n+p.r.IntN(3), mode)
			a := p.value(p.r.IntN(3), false)
			want := append([]float64(nil), dst...)
			for j := range want {
				want[j] = want[j] + float64(a*float64(x[j]))
			}
			axpy32(dst, a, x)
			for j := range dst {
				if !same(dst[j], want[j]) {
					t.Fatalf("trial %d: dst[%d] = %v, want %v", trial, j, dst[j], want[j])
				}
			}
		}
	})
}

// kernelLevels are the kernel levels this build and CPU have, with their
// names.
func kernelLevels() (levels []int, names []string) {
	levels, names = []int{goLoops}, []string{"go"}
	if useAVX2 {
		levels, names = append(levels, avx2Kernels), append(names, "avx2")
	}
	if useAVX512 {
		levels, names = append(levels, avx512Kernels), append(names, "avx512")
	}
	return levels, names
}

// forKernels runs f once per kernel level (go test -tags purego tests the
// Go loops alone).
func forKernels(t *testing.T, f func(t *testing.T)) {
	levels, names := kernelLevels()
	for k, level := range levels {
		t.Run(names[k], func(t *testing.T) {
			defer setKernels(setKernels(level))
			f(t)
		})
	}
}

// TestKernelsUsed: on a CPU with AVX2 (AVX-512) the tests above exercise
// the assembly.
func TestKernelsUsed(t *testing.T) {
	t.Logf("AVX2 kernels: %v, AVX-512 kernels: %v", useAVX2, useAVX512)
}

// TestKernelsKeepIterates: a sequence of warm-started solves (labels
// switched as in S4VM's descent, shrinking on, 1,100 variables so the
// shrinking and the unshrink happen) gives the same bits with the AVX2 and
// the AVX-512 kernels as with the Go loops: α, the gradient, ρ, the
// objective and the iteration count of every solve. On GOMAXPROCS > 1 the
// pass team splits the passes; the chunk results are combined as before.
func TestKernelsKeepIterates(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernels on this build or CPU")
	}
	const n = 1100
	run := func(level int) []Result {
		defer setKernels(setKernels(level))
		src, y, c := problem(n, 60, 11)
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		q := NewCache(src, rows, 1)
		var w Warm
		alpha := make([]float64, n)
		r := rand.New(rand.NewPCG(5, 6))
		var out []Result
		for step := range 4 {
			if step > 0 {
				for range 15 {
					i := 60 + r.IntN(n-60)
					y[i] = -y[i]
				}
				Feasible(y, c, alpha, nil)
			}
			res := solve(t, q, y, c, alpha, &w)
			res.Grad = append(res.Grad, alpha...) // α after the gradient
			out = append(out, res)
		}
		return out
	}
	b := run(goLoops)
	levels, names := kernelLevels()
	for k, level := range levels[1:] {
		a := run(level)
		name := names[k+1]
		for s := range a {
			if a[s].Iter != b[s].Iter || !same(a[s].Rho, b[s].Rho) || !same(a[s].Obj, b[s].Obj) {
				t.Fatalf("solve %d: iter %d rho %v obj %v with %s, %d %v %v without", s, a[s].Iter, a[s].Rho, a[s].Obj, name, b[s].Iter, b[s].Rho, b[s].Obj)
			}
			for i := range a[s].Grad {
				if !same(a[s].Grad[i], b[s].Grad[i]) {
					t.Fatalf("solve %d: gradient/α entry %d: %v with %s, %v without", s, i, a[s].Grad[i], name, b[s].Grad[i])
				}
			}
		}
	}
	t.Logf("iterations: %d %d %d %d", b[0].Iter, b[1].Iter, b[2].Iter, b[3].Iter)
}
