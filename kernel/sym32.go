package kernel

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Sym32 is a dense symmetric N×N matrix stored in float32: half the memory
// of a *mat.SymDense (4N² bytes instead of 8N²), for kernel matrices that
// would not otherwise fit. Both triangles are stored, row-major, so a row
// (a kernel column) is read in place.
//
// It implements mat.Symmetric (At widens to float64), so every learner that
// takes a mat.Symmetric accepts it; the SVM reads its rows directly (its
// column cache is float32 anyway, as LIBSVM's). An entry is the float64
// kernel value rounded to float32: relative error ≤ 2⁻²⁴ ≈ 6·10⁻⁸.
type Sym32 struct {
	n    int
	data []float32
}

var _ mat.Symmetric = (*Sym32)(nil)

// NewSym32 returns a zero N×N matrix (on huge pages when large, see
// internal/hugepage).
func NewSym32(n int) *Sym32 {
	if n < 0 {
		panic("kernel: NewSym32 with negative size")
	}
	return &Sym32{n: n, data: hugepage.Float32s(n * n)}
}

// Sym32Of rounds K to float32.
func Sym32Of(K mat.Symmetric) *Sym32 {
	n := K.SymmetricDim()
	s := NewSym32(n)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, K.At(i, j))
		}
	}
	return s
}

// Dims returns N, N.
func (s *Sym32) Dims() (int, int) { return s.n, s.n }

// SymmetricDim returns N.
func (s *Sym32) SymmetricDim() int { return s.n }

// At returns entry (i, j) as float64.
func (s *Sym32) At(i, j int) float64 {
	if uint(i) >= uint(s.n) || uint(j) >= uint(s.n) {
		panic(mat.ErrIndexOutOfRange)
	}
	return float64(s.data[i*s.n+j])
}

// T returns s (it is symmetric).
func (s *Sym32) T() mat.Matrix { return s }

// SetSym sets entries (i, j) and (j, i) to float32(v).
func (s *Sym32) SetSym(i, j int, v float64) {
	if uint(i) >= uint(s.n) || uint(j) >= uint(s.n) {
		panic(mat.ErrIndexOutOfRange)
	}
	s.data[i*s.n+j] = float32(v)
	s.data[j*s.n+i] = float32(v)
}

// Row returns row i (equal to column i) in place; it must not be
// modified except through SetSym.
func (s *Sym32) Row(i int) []float32 { return s.data[i*s.n : (i+1)*s.n] }

// Sym32Bytes is the storage of an N×N Sym32: 4N² bytes.
func Sym32Bytes(n int) float64 { return 4 * float64(n) * float64(n) }

// Gram32 is Gram for float32 storage: K_ij = float32(k(x_i, x_j)) for the
// rows of X, in parallel over rows (deterministic). Kernels with a
// Column32 fast path use it (the same float32 values as rounding Eval's,
// see Column32); others round Eval. A nil dst allocates; otherwise it must
// be N×N. Errors: ErrBadParam, ErrEmpty, ErrNonFinite, ErrShape, ctx.Err().
func Gram32(ctx context.Context, dst *Sym32, k Kernel, X mat.Matrix) (*Sym32, error) {
	if err := Check(k); err != nil {
		return nil, err
	}
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = NewSym32(x.n)
	} else if dst.n != x.n {
		return nil, fmt.Errorf("%w: Gram32 dst is %d×%d, want %d×%d", ErrShape, dst.n, dst.n, x.n, x.n)
	}
	c32, fast := k.(Column32)
	cols := make([]int, x.n)
	for i := range cols {
		cols[i] = i
	}
	// Row i holds the full row (both triangles are computed: the same
	// value either way, since k(x, y) is computed from |x − y| or x·y
	// symmetrically, and a full row is one streaming pass).
	err = parallel.For(ctx, x.n, func(i int) {
		row := dst.Row(i)
		xi := x.row(i)
		if fast {
			c32.Column32(row, xi, x.data, x.str, cols)
			return
		}
		for j := range x.n {
			row[j] = float32(k.Eval(xi, x.row(j)))
		}
	})
	if err != nil {
		return nil, err
	}
	// Mirror the upper triangle so that K is exactly symmetric whatever
	// the kernel's arithmetic.
	for i := range x.n {
		for j := i + 1; j < x.n; j++ {
			dst.data[j*x.n+i] = dst.data[i*x.n+j]
		}
	}
	return dst, nil
}
