package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// sizes are the edge cases of the blocking: below, at and past the
// micro-tile (6×8, 12×16), the A block (96) and past kc (256).
var sizes = []int{1, 2, 3, 5, 7, 8, 13, 64, 65, 127, 257}

func randSlice(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.Float64()*2 - 1
	}
	return x
}

// operand returns op(X) (rows×cols) stored as X with a leading dimension
// three past its width, and an accessor for op(X)[i][j].
func operand(r *rand.Rand, t blas.Transpose, rows, cols int) ([]float64, int, func(i, j int) float64) {
	sr, sc := rows, cols
	if t == blas.Trans {
		sr, sc = cols, rows
	}
	ld := sc + 3
	x := randSlice(r, sr*ld)
	if t == blas.Trans {
		return x, ld, func(i, j int) float64 { return x[j*ld+i] }
	}
	return x, ld, func(i, j int) float64 { return x[i*ld+j] }
}

// reference is the documented arithmetic, entry by entry: per kc-block of
// p, s = fma(a, b, s) from zero, then c = fma(α, s, c) after c = β·c.
func reference(m, n, k int, alpha float64, opA, opB func(i, j int) float64, beta float64, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			v := c[i*ldc+j]
			switch beta {
			case 0:
				v = 0
			case 1:
			default:
				v *= beta
			}
			if alpha != 0 {
				for p0 := 0; p0 < k; p0 += kc {
					s := 0.0
					for p := p0; p < min(k, p0+kc); p++ {
						s = math.FMA(opA(i, p), opB(p, j), s)
					}
					v = math.FMA(alpha, s, v)
				}
			}
			c[i*ldc+j] = v
		}
	}
}

// withKernel runs f with each micro-kernel this machine can run.
func withKernel(t *testing.T, f func(t *testing.T)) {
	saved := active
	defer func() { active = saved }()
	for _, kern := range kernels() {
		active = kern
		t.Run(kern.name, f)
	}
}

// TestDgemmShapes checks every kernel against the documented arithmetic
// bit for bit, and against a plain sum of products within twice the
// dot-product error bound γ_{k+2}·(|α|·(|A|·|B|)_ij + |β·c_ij|) (Higham
// §3.1; both sums carry an error), over odd
// shapes, both transposes of each operand, leading dimensions wider than
// the rows, and β = 0 with NaN in C (C must not be read).
func TestDgemmShapes(t *testing.T) {
	trans := []blas.Transpose{blas.NoTrans, blas.Trans}
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		cases := 0
		for _, m := range sizes {
			for _, n := range sizes {
				for _, k := range sizes {
					if m*n*k > 1<<21 {
						continue
					}
					tA, tB := trans[cases%2], trans[(cases/2)%2]
					alpha, beta := []float64{1, -1, 1.5}[cases%3], []float64{0, 1, 0.5, 0}[cases%4]
					cases++
					a, lda, opA := operand(r, tA, m, k)
					b, ldb, opB := operand(r, tB, k, n)
					ldc := n + 2
					c := randSlice(r, m*ldc)
					if beta == 0 {
						for i := range c {
							if i%ldc < n {
								c[i] = math.NaN()
							}
						}
					}
					want := append([]float64(nil), c...)
					reference(m, n, k, alpha, opA, opB, beta, want, ldc)
					got := append([]float64(nil), c...)
					Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
					for i := 0; i < m; i++ {
						for j := 0; j < ldc; j++ {
							g, w := got[i*ldc+j], want[i*ldc+j]
							if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
								t.Fatalf("%d×%d×%d %c%c: C[%d,%d] = %v, reference %v", m, n, k, tA, tB, i, j, g, w)
							}
							if j >= n {
								continue
							}
							plain, bound := 0.0, 0.0
							for p := 0; p < k; p++ {
								plain += opA(i, p) * opB(p, j)
								bound += math.Abs(opA(i, p) * opB(p, j))
							}
							c0 := 0.0
							if beta != 0 {
								c0 = beta * c[i*ldc+j]
							}
							u := 0x1p-53
							g2 := float64(k+2) * u / (1 - float64(k+2)*u)
							tol := 2*g2*(math.Abs(alpha)*bound+math.Abs(c0)) + 1e-300
							if d := math.Abs(g - (alpha*plain + c0)); d > tol {
								t.Fatalf("%d×%d×%d %c%c: C[%d,%d] = %v, plain sum %v: |diff| %g > %g", m, n, k, tA, tB, i, j, g, alpha*plain+c0, d, tol)
							}
						}
					}
				}
			}
		}
	})
}

// TestUpper checks that Upper sets the entries on and above the diagonal as
// Dgemm does, bit for bit, and leaves those below untouched.
func TestUpper(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, n := range []int{1, 5, 13, 65, 127, 257, 301} {
			for _, k := range []int{1, 7, 64, 300} {
				for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					a, lda, _ := operand(r, tr, n, k)
					other := blas.Trans
					if tr == blas.Trans {
						other = blas.NoTrans
					}
					b, ldb, _ := operand(r, other, k, n)
					ldc := n + 1
					c := randSlice(r, n*ldc)
					full := append([]float64(nil), c...)
					Dgemm(tr, other, n, n, k, -1, a, lda, b, ldb, 0.5, full, ldc)
					up := append([]float64(nil), c...)
					Upper(tr, other, n, k, -1, a, lda, b, ldb, 0.5, up, ldc)
					for i := 0; i < n; i++ {
						for j := 0; j < ldc; j++ {
							want := c[i*ldc+j]
							if j >= i && j < n {
								want = full[i*ldc+j]
							}
							if g := up[i*ldc+j]; math.Float64bits(g) != math.Float64bits(want) {
								t.Fatalf("n=%d k=%d %c: C[%d,%d] = %v, want %v", n, k, tr, i, j, g, want)
							}
						}
					}
				}
			}
		}
	})
}

// TestGOMAXPROCS checks that results are bit-identical for 1, 2 and 3
// goroutines on products large enough to be split.
func TestGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(5, 6))
	m, n, k := 301, 4200, 530
	a, b := randSlice(r, m*k), randSlice(r, k*n)
	c0 := randSlice(r, m*n)
	var first []float64
	for _, p := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(p)
		c := append([]float64(nil), c0...)
		Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 1, c, n)
		u := append([]float64(nil), c0[:m*m]...)
		Upper(blas.NoTrans, blas.Trans, m, k, 2, a, k, a, k, 1, u, m)
		c = append(c, u...)
		if first == nil {
			first = c
			continue
		}
		for i := range c {
			if math.Float64bits(c[i]) != math.Float64bits(first[i]) {
				t.Fatalf("GOMAXPROCS=%d: entry %d = %v, with 1: %v", p, i, c[i], first[i])
			}
		}
	}
}

// TestZeroSizes checks the quick returns: k = 0 or α = 0 scale C by β only.
func TestZeroSizes(t *testing.T) {
	c := []float64{1, 2, 3, 4}
	Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, nil, 1, nil, 2, 2, c, 2)
	Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 1, 0, []float64{math.NaN(), 1}, 1, []float64{1, 1}, 2, 1, c, 2)
	if fmt.Sprint(c) != "[2 4 6 8]" {
		t.Fatalf("C = %v, want [2 4 6 8]", c)
	}
	Dgemm(blas.NoTrans, blas.NoTrans, 0, 5, 3, 1, nil, 3, make([]float64, 15), 5, 0, nil, 5)
}

// TestBadArgs checks that inconsistent sizes panic with a message.
func TestBadArgs(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("short A did not panic")
		}
	}()
	Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, make([]float64, 3), 2, make([]float64, 4), 2, 0, make([]float64, 4), 2)
}

// TestDot checks that Dot equals the matching entry of Dgemm bit for bit.
func TestDot(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{1, 7, 256, 257, 600} {
		x, y := randSlice(r, 3*k), randSlice(r, 2*k)
		c := make([]float64, 6)
		Dgemm(blas.NoTrans, blas.Trans, 3, 2, k, 1, x, k, y, k, 0, c, 2)
		for i := 0; i < 3; i++ {
			for j := 0; j < 2; j++ {
				if d := Dot(x[i*k:i*k+k], y[j*k:j*k+k]); math.Float64bits(d) != math.Float64bits(c[i*2+j]) {
					t.Fatalf("k=%d: Dot(x%d, y%d) = %v, Dgemm %v", k, i, j, d, c[i*2+j])
				}
			}
		}
	}
}
