package gemm

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/blas"
)

// Blocking. kc values of the inner index per packed block (a B panel of
// kc×nr floats stays in L1, an A block of mc×kc in L2), nc columns per
// packed B block (in L3). mc is a multiple of every kernel's mr.
const (
	kc = 256
	mc = 96
	nc = 4096
	// serialFlops: products below this many flops run on the caller.
	serialFlops = 1 << 15
)

// microKernel adds α·Σ_p a[p·mr+i]·b[p·nr+j] (p < k) to c[i·ldc+j] for
// i < mr, j < nr, in the order given in the package documentation; with
// load false it takes c as zero and does not read it.
type microKernel struct {
	name   string
	mr, nr int
	fn     func(k int, a, b, c []float64, ldc int, alpha float64, load bool)
}

// active is the kernel chosen for this CPU at start-up (see kernels()).
var active = kernels()[0]

// Kernel returns the name of the micro-kernel in use: "avx512" (12×16),
// "avx2" (6×8) or "go" (the portable loop).
func Kernel() string { return active.name }

// Dgemm sets C = α·op(A)·op(B) + β·C for row-major matrices: op(A) is m×k,
// op(B) is k×n and C is m×n with leading dimension (row stride) ldc.
// op(X) is X for blas.NoTrans and Xᵀ for blas.Trans; A is stored m×k
// (stride lda ≥ k) or, transposed, k×m (lda ≥ m), and likewise B. With
// β = 0 C is not read. It panics on inconsistent sizes (a programming
// error), as gonum's BLAS does.
func Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	check(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
	run(false, tA == blas.Trans, tB == blas.Trans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Upper is Dgemm restricted to the entries c_ij with j ≥ i of the n×n
// matrix C: those are set to α·(op(A)·op(B))_ij + β·c_ij exactly as Dgemm
// would set them, and the entries below the diagonal are not written. This
// is the shape of SYRK (op(B) = op(A)ᵀ) and SYR2K (A = [V W], B = [W V]ᵀ)
// on the upper triangle, at about half the flops of Dgemm.
func Upper(tA, tB blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	check(tA, tB, n, n, k, a, lda, b, ldb, c, ldc)
	run(true, tA == blas.Trans, tB == blas.Trans, n, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func check(tA, tB blas.Transpose, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	bad := func(s string, args ...any) { panic(fmt.Sprintf("gemm: "+s, args...)) }
	if m < 0 || n < 0 || k < 0 {
		bad("negative size %d×%d×%d", m, n, k)
	}
	if tA != blas.NoTrans && tA != blas.Trans || tB != blas.NoTrans && tB != blas.Trans {
		bad("bad transpose")
	}
	ar, ac := m, k
	if tA == blas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB == blas.Trans {
		br, bc = n, k
	}
	need := func(name string, x []float64, r, cols, ld int) {
		if ld < max(cols, 1) {
			bad("%s: leading dimension %d < %d", name, ld, cols)
		}
		if r > 0 && cols > 0 && len(x) < (r-1)*ld+cols {
			bad("%s: %d floats, %d×%d with stride %d needs %d", name, len(x), r, cols, ld, (r-1)*ld+cols)
		}
	}
	if m > 0 && n > 0 && k > 0 {
		need("A", a, ar, ac, lda)
		need("B", b, br, bc, ldb)
	}
	need("C", c, m, n, ldc)
}

// scratch holds the packed copies of one call; pooled between calls.
type scratch struct {
	b   []float64   // packed B block: panels of nr columns, kc·nr each
	a   [][]float64 // per worker: packed A block, panels of mr rows
	tmp [][]float64 // per worker: one mr×nr tile for edges
}

var pool = sync.Pool{New: func() any { return new(scratch) }}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func run(upper, tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	// β = 0 with a product to add: the first kc-block stores fma(α, s, 0)
	// without reading C (load false below), so C is neither cleared nor read.
	if beta != 1 && (beta != 0 || alpha == 0 || k == 0) {
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			if upper {
				row = row[i:]
			}
			if beta == 0 {
				clear(row)
			} else {
				for j := range row {
					row[j] *= beta
				}
			}
		}
	}
	if alpha == 0 || k == 0 {
		return
	}
	kern := active
	mr, nr := kern.mr, kern.nr
	workers := runtime.GOMAXPROCS(0)
	if flops := 2 * float64(m) * float64(n) * float64(k); flops < serialFlops {
		workers = 1
	}
	s := pool.Get().(*scratch)
	defer pool.Put(s)
	for len(s.a) < workers {
		s.a = append(s.a, nil)
		s.tmp = append(s.tmp, nil)
	}
	for w := 0; w < workers; w++ {
		s.a[w] = grow(s.a[w], mc*kc)
		s.tmp[w] = grow(s.tmp[w], mr*nr)
	}
	ctx := context.Background()
	for j0 := 0; j0 < n; j0 += nc {
		jn := min(nc, n-j0)
		rows := m
		if upper {
			rows = min(m, j0+jn) // rows below the block's last column are below the diagonal
		}
		panels := (jn + nr - 1) / nr
		s.b = grow(s.b, panels*nr*kc)
		blocks := (rows + mc - 1) / mc
		chunks := 1
		if blocks < 4*workers {
			chunks = min(panels, (4*workers+blocks-1)/blocks)
		}
		for p0 := 0; p0 < k; p0 += kc {
			pk := min(kc, k-p0)
			load := p0 > 0 || beta != 0
			bgroups := (panels + 15) / 16
			parallel.ForWorkers(ctx, bgroups, workers, func(_, g int) {
				for q := g * 16; q < min(panels, g*16+16); q++ {
					packB(s.b[q*nr*kc:q*nr*kc+nr*pk], tB, b, ldb, p0, pk, j0+q*nr, min(nr, n-j0-q*nr), nr)
				}
			})
			parallel.ForWorkers(ctx, blocks*chunks, workers, func(w, t int) {
				ib, ch := t/chunks, t%chunks
				i0, i1 := ib*mc, min(rows, ib*mc+mc)
				q0, q1 := ch*panels/chunks, (ch+1)*panels/chunks
				if q0 == q1 || upper && min(j0+q1*nr, n)-1 < i0 {
					return
				}
				ap, tmp := s.a[w], s.tmp[w]
				packA(ap, tA, a, lda, i0, i1, p0, pk, mr)
				for q := q0; q < q1; q++ {
					cj := j0 + q*nr
					cn := min(nr, n-cj)
					bp := s.b[q*nr*kc : q*nr*kc+nr*pk]
					for i := i0; i < i1; i += mr {
						if upper && cj+cn-1 < i {
							break // this tile and those below it lie under the diagonal
						}
						rn := min(mr, i1-i)
						apan := ap[(i-i0)*pk : (i-i0)*pk+mr*pk]
						if rn == mr && cn == nr && !(upper && cj < i+mr-1) {
							kern.fn(pk, apan, bp, c[i*ldc+cj:], ldc, alpha, load)
							continue
						}
						// Edge or diagonal tile: through a full tile of scratch, so
						// that every entry gets the same operations.
						if load {
							for r := 0; r < rn; r++ {
								copy(tmp[r*nr:r*nr+cn], c[(i+r)*ldc+cj:(i+r)*ldc+cj+cn])
							}
						}
						kern.fn(pk, apan, bp, tmp, nr, alpha, load)
						for r := 0; r < rn; r++ {
							lo := 0
							if upper {
								lo = max(0, i+r-cj)
							}
							if lo < cn {
								copy(c[(i+r)*ldc+cj+lo:(i+r)*ldc+cj+cn], tmp[r*nr+lo:r*nr+cn])
							}
						}
					}
				}
			})
		}
	}
}

// packA copies op(A)[i0:i1, p0:p0+pk] into dst as panels of mr rows, each
// panel pk columns of mr values (rows past i1 are zero).
func packA(dst []float64, tA bool, a []float64, lda, i0, i1, p0, pk, mr int) {
	for pi := i0; pi < i1; pi += mr {
		pan := dst[(pi-i0)*pk : (pi-i0)*pk+mr*pk]
		rn := min(mr, i1-pi)
		if !tA {
			for r := 0; r < rn; r++ {
				src := a[(pi+r)*lda+p0 : (pi+r)*lda+p0+pk]
				for p, v := range src {
					pan[p*mr+r] = v
				}
			}
		} else {
			for p := 0; p < pk; p++ {
				copy(pan[p*mr:p*mr+rn], a[(p0+p)*lda+pi:(p0+p)*lda+pi+rn])
			}
		}
		if rn < mr {
			for p := 0; p < pk; p++ {
				clear(pan[p*mr+rn : p*mr+mr])
			}
		}
	}
}

// packB copies op(B)[p0:p0+pk, j:j+cn] into dst (pk rows of nr values,
// columns past cn zero).
func packB(dst []float64, tB bool, b []float64, ldb, p0, pk, j, cn, nr int) {
	if !tB {
		for p := 0; p < pk; p++ {
			copy(dst[p*nr:p*nr+cn], b[(p0+p)*ldb+j:(p0+p)*ldb+j+cn])
		}
	} else {
		for jj := 0; jj < cn; jj++ {
			src := b[(j+jj)*ldb+p0 : (j+jj)*ldb+p0+pk]
			for p, v := range src {
				dst[p*nr+jj] = v
			}
		}
	}
	if cn < nr {
		for p := 0; p < pk; p++ {
			clear(dst[p*nr+cn : p*nr+nr])
		}
	}
}

// goKernel returns the portable micro-kernel of shape mr×nr.
func goKernel(mr, nr int) microKernel {
	return microKernel{name: "go", mr: mr, nr: nr, fn: func(k int, a, b, c []float64, ldc int, alpha float64, load bool) {
		var accBuf [12 * 16]float64
		acc := accBuf[:mr*nr]
		a, b = a[:k*mr], b[:k*nr]
		for p := 0; p < k; p++ {
			ap, bp := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
			for i, ai := range ap {
				row := acc[i*nr : i*nr+nr]
				for j, bj := range bp {
					row[j] = math.FMA(ai, bj, row[j])
				}
			}
		}
		for i := 0; i < mr; i++ {
			crow := c[i*ldc : i*ldc+nr]
			for j, v := range acc[i*nr : i*nr+nr] {
				c0 := 0.0
				if load {
					c0 = crow[j]
				}
				crow[j] = math.FMA(alpha, v, c0)
			}
		}
	}}
}

// Dot returns Σ x_p·y_p (y at least as long as x) computed as Dgemm
// computes one entry of a product with α = 1 and β = 0, so that
// Dot(a_i, b_j) equals (A·Bᵀ)_ij bit for bit (squared norms beside a Gram
// matrix, for instance).
func Dot(x, y []float64) float64 {
	y = y[:len(x)]
	v := 0.0
	for p0 := 0; p0 < len(x); p0 += kc {
		s := 0.0
		for p := p0; p < min(len(x), p0+kc); p++ {
			s = math.FMA(x[p], y[p], s)
		}
		v += s
	}
	return v
}
