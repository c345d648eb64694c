package lanczos

import (
	"context"
	"runtime"

	"github.com/arbor-ml/arbor/internal/gemm"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Operator is a symmetric linear operator of size Len()×Len().
// MulVec sets dst = A·x; dst and x have length Len() and do not overlap.
type Operator interface {
	Len() int
	MulVec(dst, x []float64)
}

// Sym is the parallel dense symmetric operator over the upper triangle of a
// *mat.SymDense. It keeps a reference to the matrix (no copy): the matrix
// must not change while Sym is in use. A Sym is not safe for concurrent use
// (it owns scratch space).
//
// MulVec splits the rows into a fixed number of blocks of equal upper-triangle
// area (the number depends on n only). Block b computes, for its rows i,
// the dot product of row i (columns ≥ i) with x and scatters A_ij·x_i into a
// private accumulator for j > i, four rows per pass over the matrix
// (gemm.SymvPanel); y_i is then the sum of the accumulators in block order. Every floating-point sum therefore has the same order whatever
// the number of workers (runtime.GOMAXPROCS(0)). Cost: n²/2 multiply–adds
// twice over, with the matrix read once (half of a general gemv's traffic).
type Sym struct {
	n      int
	stride int
	data   []float64
	bounds []int       // block b covers rows bounds[b]..bounds[b+1]-1
	acc    [][]float64 // per-block accumulators, acc[b][i] for i ≥ bounds[b]
}

var _ Operator = (*Sym)(nil)

// NewSym returns the parallel operator for a. It panics only if a is nil.
func NewSym(a *mat.SymDense) *Sym {
	raw := a.RawSymmetric()
	if raw.Uplo != blas.Upper {
		panic("lanczos: SymDense not stored upper") // gonum invariant
	}
	n := raw.N
	nb := n / 128
	if nb < 1 {
		nb = 1
	}
	if nb > 32 {
		nb = 32
	}
	s := &Sym{n: n, stride: raw.Stride, data: raw.Data}
	// Equal-area blocks of the upper triangle: row i holds n-i entries.
	total := float64(n) * float64(n+1) / 2
	s.bounds = make([]int, 0, nb+1)
	s.bounds = append(s.bounds, 0)
	cum := 0.0
	b := 1
	for i := 0; i < n && b < nb; i++ {
		cum += float64(n - i)
		if cum >= total*float64(b)/float64(nb) {
			s.bounds = append(s.bounds, i+1)
			b++
		}
	}
	if s.bounds[len(s.bounds)-1] != n {
		s.bounds = append(s.bounds, n)
	}
	s.acc = make([][]float64, len(s.bounds)-1)
	for b := range s.acc {
		s.acc[b] = make([]float64, n)
	}
	return s
}

// Len returns n.
func (s *Sym) Len() int { return s.n }

// MulVec sets dst = A·x. It panics if the lengths differ from Len().
func (s *Sym) MulVec(dst, x []float64) {
	n := s.n
	if len(dst) != n || len(x) != n {
		panic("lanczos: Sym.MulVec length mismatch")
	}
	nb := len(s.acc)
	block := func(b int) {
		acc := s.acc[b]
		r0, r1 := s.bounds[b], s.bounds[b+1]
		clear(acc[r0:])
		i := r0
		// Four rows per pass over the matrix, with the operations of the
		// Dot and AddScaled below (gemm.SymvPanel).
		for ; i+4 <= r1 && n-i >= 8; i += 4 {
			gemm.SymvPanel(n-i, s.data[i*s.stride+i:], s.stride, x[i:], acc[i:])
		}
		for ; i < r1; i++ {
			row := s.data[i*s.stride+i : i*s.stride+n]
			acc[i] += floats.Dot(row, x[i:])
			if xi := x[i]; xi != 0 && i+1 < n {
				floats.AddScaled(acc[i+1:], xi, row[1:])
			}
		}
	}
	reduce := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v := 0.0
			for b := 0; b < nb && s.bounds[b] <= i; b++ {
				v += s.acc[b][i]
			}
			dst[i] = v
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if workers > nb {
		workers = nb
	}
	if workers <= 1 || n < 256 {
		for b := 0; b < nb; b++ {
			block(b)
		}
		reduce(0, n)
		return
	}
	// The row blocks are fixed by NewSym, not by the number of workers, and
	// the reduction sums them in block order: dst is bit-identical for any
	// GOMAXPROCS.
	_ = parallel.For(context.Background(), nb, block)
	_ = parallel.Chunks(context.Background(), n, (n+workers-1)/workers, reduce)
}
