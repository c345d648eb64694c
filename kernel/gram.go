package kernel

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/finite"
	"github.com/arbor-ml/arbor/internal/gemm"
	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Gram returns the kernel matrix K_ij = k(x_i, x_j) of the rows of X.
//
// Work is split by rows over runtime.GOMAXPROCS(0) goroutines; every entry
// is computed by the same code whatever the split, so the result is
// bit-identical for any GOMAXPROCS, and equal to pairwise Eval up to
// rounding. Linear, Poly, RBF, Laplacian and Exponential have fast paths
// (found by type assertion). With fewer than gemmMinD features they are
// register-blocked or column-wise loops (see tile.go) and RBF and
// Exponential sum the exact squared differences. From gemmMinD features
// on, Linear, Poly, RBF and Exponential take the inner products x_i·x_j
// from the packed matrix product X·Xᵀ of internal/gemm (assembly
// micro-kernels; each product rounded as a sequence of fused
// multiply-adds), and RBF and Exponential use the squared distance
// max(‖x_i‖² + ‖x_j‖² − 2·x_i·x_j, 0), as scikit-learn's
// euclidean_distances does. Its absolute error is a few ulps of
// ‖x_i‖² + ‖x_j‖², not of the distance: exact zero for equal rows, and for
// Exponential an error in k(x, y) of order γ·√(ε·(‖x‖² + ‖y‖²)) for
// rows closer than that. Only the upper triangle is
// evaluated (N(N+1)/2 kernel values, O(N²d) time); the lower triangle of
// dst's backing store is filled by mirroring, so its rows may be read
// directly from RawSymmetric.
//
// A nil dst allocates; otherwise dst must be N×N. Errors: ErrBadParam (see
// Check), ErrEmpty, ErrNonFinite (NaN/Inf in X), ErrShape (dst size), or
// ctx.Err().
func Gram(ctx context.Context, dst *mat.SymDense, k Kernel, X mat.Matrix) (*mat.SymDense, error) {
	if err := Check(k); err != nil {
		return nil, err
	}
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	n := x.n
	if dst == nil {
		dst = mat.NewSymDense(n, hugepage.Float64s(n*n))
	} else if dst.SymmetricDim() != n {
		return nil, fmt.Errorf("%w: Gram dst is %d×%d, X has %d rows", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), n)
	}
	raw := dst.RawSymmetric()
	f := newFiller(k, x)
	if f.gemm {
		gemm.Upper(blas.NoTrans, blas.Trans, n, x.d, 1, x.data, x.str, x.data, x.str, 0, raw.Data, raw.Stride)
		err := parallel.Chunks(ctx, n, blockRows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				f.finishGemm(raw.Data[i*raw.Stride+i:i*raw.Stride+n], i, i, f.bnorm)
			}
		})
		if err != nil {
			return nil, err
		}
		if err := mirrorUpper(ctx, raw.Data, raw.Stride, n); err != nil {
			return nil, err
		}
		return dst, nil
	}
	rowOf := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+n] }
	diag := func(i int) int { return i }
	// Pair block t with block nb-1-t so every task costs about the same.
	nb := (n + blockRows - 1) / blockRows
	err = parallel.For(ctx, (nb+1)/2, func(t int) {
		fill := func(b int) { f.fill(x, b*blockRows, min(n, (b+1)*blockRows), diag, rowOf) }
		fill(t)
		if u := nb - 1 - t; u != t {
			fill(u)
		}
	})
	if err != nil {
		return nil, err
	}
	if err := mirrorUpper(ctx, raw.Data, raw.Stride, n); err != nil {
		return nil, err
	}
	return dst, nil
}

// Cross returns the rows(A)×rows(B) matrix C_ij = k(a_i, b_j), in parallel
// over the rows of A (deterministic; equal to pairwise Eval up to summation
// order, and to the matching entries of Gram bit for bit). A nil dst
// allocates. Errors: ErrBadParam, ErrEmpty, ErrNonFinite, ErrShape (feature
// counts differ or dst has the wrong size), or ctx.Err().
func Cross(ctx context.Context, dst *mat.Dense, k Kernel, A, B mat.Matrix) (*mat.Dense, error) {
	if err := Check(k); err != nil {
		return nil, err
	}
	a, err := newRows(A, "A")
	if err != nil {
		return nil, err
	}
	b, err := newRows(B, "B")
	if err != nil {
		return nil, err
	}
	if a.d != b.d {
		return nil, fmt.Errorf("%w: Cross: A has %d features, B has %d", ErrShape, a.d, b.d)
	}
	if dst == nil {
		dst = mat.NewDense(a.n, b.n, hugepage.Float64s(a.n*b.n))
	} else if r, c := dst.Dims(); r != a.n || c != b.n {
		return nil, fmt.Errorf("%w: Cross dst is %d×%d, want %d×%d", ErrShape, r, c, a.n, b.n)
	}
	raw := dst.RawMatrix()
	f := newFiller(k, b)
	if f.gemm {
		gemm.Dgemm(blas.NoTrans, blas.Trans, a.n, b.n, a.d, 1, a.data, a.str, b.data, b.str, 0, raw.Data, raw.Stride)
		var an []float64
		if f.kind == accSq {
			an = rowNorms(a)
		}
		err := parallel.Chunks(ctx, a.n, blockRows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				f.finishGemm(raw.Data[i*raw.Stride:i*raw.Stride+b.n], 0, i, an)
			}
		})
		if err != nil {
			return nil, err
		}
		return dst, nil
	}
	rowOf := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+b.n] }
	zero := func(int) int { return 0 }
	err = parallel.For(ctx, (a.n+blockRows-1)/blockRows, func(t int) {
		f.fill(a, t*blockRows, min(a.n, (t+1)*blockRows), zero, rowOf)
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// rows is a row-major view of a data matrix.
type rows struct {
	data      []float64
	n, d, str int
}

func (r rows) row(i int) []float64 { return r.data[i*r.str : i*r.str+r.d] }

// newRows views X row-major (no copy for *mat.Dense) and checks it is
// non-empty and finite.
func newRows(X mat.Matrix, name string) (rows, error) {
	if X == nil {
		return rows{}, fmt.Errorf("%w: %s is nil", ErrEmpty, name)
	}
	n, d := X.Dims()
	if n == 0 || d == 0 {
		return rows{}, fmt.Errorf("%w: %s is %d×%d", ErrEmpty, name, n, d)
	}
	var r rows
	if m, ok := X.(*mat.Dense); ok {
		raw := m.RawMatrix()
		r = rows{data: raw.Data, n: n, d: d, str: raw.Stride}
	} else {
		data := make([]float64, n*d)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				data[i*d+j] = X.At(i, j)
			}
		}
		r = rows{data: data, n: n, d: d, str: d}
	}
	if i, j, v, bad := finite.Find(r.data, n, d, r.str); bad {
		return rows{}, fmt.Errorf("%w: %s[%d,%d] = %v", ErrNonFinite, name, i, j, v)
	}
	return r, nil
}

// builtinOf returns the accumulation kind of a built-in kernel and the
// transform that turns sums into kernel values, in place.
func builtinOf(k Kernel) (accKind, func(row []float64), bool) {
	switch k := k.(type) {
	case Linear:
		return accDot, func([]float64) {}, true
	case Poly:
		return accDot, func(row []float64) {
			for j, v := range row {
				row[j] = powi(k.A*v+k.B, k.Degree)
			}
		}, true
	case RBF:
		g := -k.Gamma
		return accSq, func(row []float64) {
			for j, v := range row {
				row[j] = expNeg(g * v)
			}
		}, true
	case Laplacian:
		g := -k.Gamma
		return accL1, func(row []float64) {
			for j, v := range row {
				row[j] = expNeg(g * v)
			}
		}, true
	case Exponential:
		g := -k.Gamma
		return accSq, func(row []float64) {
			for j, v := range row {
				row[j] = expNeg(g * math.Sqrt(v))
			}
		}, true
	}
	return 0, nil, false
}

// blockRows is the number of rows of one parallel task in Gram and Cross.
const blockRows = 16

// colMaxD is the feature count below which the distance kernels use the
// column-wise loop (faster for short rows); dot products always do, with
// BLAS axpy. Both sum in the same order as the tiles, so the choice never
// changes a bit of the result.
const colMaxD = 24

// gemmMinD is the feature count from which the dot-product and
// squared-distance kernels take their inner products from internal/gemm.
const gemmMinD = 32

// filler computes rows of kernel values against the rows of b.
type filler struct {
	k      Kernel
	b      rows
	kind   accKind
	finish func(row []float64)
	fast   bool      // a built-in kernel
	gemm   bool      // inner products from internal/gemm (see Gram)
	bnorm  []float64 // ‖b_j‖² (gemm.Dot) for the squared distances, or nil
	yt     []float64 // b transposed (d×n) for the column-wise loop, or nil
}

func newFiller(k Kernel, b rows) *filler {
	f := &filler{k: k, b: b}
	f.kind, f.finish, f.fast = builtinOf(k)
	if f.fast && f.kind != accL1 && b.d >= gemmMinD {
		f.gemm = true
		if f.kind == accSq {
			f.bnorm = rowNorms(b)
		}
		return f
	}
	if f.fast && (f.kind == accDot || b.d < colMaxD) {
		f.yt = make([]float64, b.d*b.n)
		for j := 0; j < b.n; j++ {
			for l, v := range b.row(j) {
				f.yt[l*b.n+j] = v
			}
		}
	}
	return f
}

// fill computes out(i)[j] = k(a_i, b_j) for rows i in [i0, i1) of a and
// columns j ≥ lo(i).
func (f *filler) fill(a rows, i0, i1 int, lo func(int) int, out func(int) []float64) {
	b := f.b
	switch {
	case !f.fast:
		for i := i0; i < i1; i++ {
			o, x := out(i), a.row(i)
			for j := lo(i); j < b.n; j++ {
				o[j] = f.k.Eval(x, b.row(j))
			}
		}
		return
	case f.yt == nil:
		accRows(f.kind, a, b, i0, i1, lo, out)
	default:
		impl := blas64.Implementation()
		n := b.n
		for i := i0; i < i1; i++ {
			j0 := lo(i)
			o := out(i)[j0:n]
			clear(o)
			for l, xv := range a.row(i) {
				c := f.yt[l*n+j0 : l*n+n]
				switch f.kind {
				case accDot:
					impl.Daxpy(len(o), xv, c, 1, o, 1)
				case accSq:
					for j, cv := range c {
						t := xv - cv
						o[j] += t * t
					}
				default:
					for j, cv := range c {
						o[j] += math.Abs(xv - cv)
					}
				}
			}
		}
	}
	for i := i0; i < i1; i++ {
		f.finish(out(i)[lo(i):b.n])
	}
}

// rowNorms returns ‖r_i‖² for every row, summed as gemm sums one entry of
// a product (gemm.Dot), so that ‖x‖² + ‖x‖² − 2·x·x is exactly 0.
func rowNorms(r rows) []float64 {
	out := make([]float64, r.n)
	for i := range out {
		x := r.row(i)
		out[i] = gemm.Dot(x, x)
	}
	return out
}

// finishGemm turns row i's inner products with b_j0, b_j0+1, … (as
// computed by gemm) into kernel values: for the squared-distance kernels
// first max(ai + ‖b_j‖² − 2·g, 0), ai = ‖a_i‖² (anorm[i], or bnorm[i] in a Gram).
func (f *filler) finishGemm(row []float64, j0, i int, anorm []float64) {
	if f.kind == accSq {
		bn := f.bnorm[j0 : j0+len(row)]
		ai := anorm[i]
		for j, g := range row {
			row[j] = max(ai+bn[j]-2*g, 0)
		}
	}
	f.finish(row)
}

// mirrorTile is the tile edge of blocked transposes (32 KiB per tile).
const mirrorTile = 64

// mirrorUpper copies the strict upper triangle of the n×n row-major matrix
// data into its lower triangle, tile by tile, in parallel.
func mirrorUpper(ctx context.Context, data []float64, stride, n int) error {
	nt := (n + mirrorTile - 1) / mirrorTile
	return parallel.For(ctx, nt, func(bi int) {
		i0, i1 := bi*mirrorTile, min(n, (bi+1)*mirrorTile)
		for bj := 0; bj <= bi; bj++ {
			j0 := bj * mirrorTile
			for i := i0; i < i1; i++ {
				row := data[i*stride:]
				for j := j0; j < min(i, j0+mirrorTile); j++ {
					row[j] = data[j*stride+i]
				}
			}
		}
	})
}
