package kernel

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Gram returns the kernel matrix K_ij = k(x_i, x_j) of the rows of X.
//
// Work is split by rows over runtime.GOMAXPROCS(0) goroutines; every entry
// is computed by the same scalar code whatever the split, so the result is
// bit-identical for any GOMAXPROCS, and equal to pairwise Eval up to
// summation order (≤ a few ulps). Linear, Poly, RBF, Laplacian and
// Exponential have specialised column-wise loops (found by type
// assertion); RBF uses the exact sum of squared differences, so there is no
// cancellation. Only the upper triangle is evaluated (N(N+1)/2 kernel
// calls, O(N²d) time); the lower triangle of dst's backing store is filled
// by mirroring, so its rows may be read directly from RawSymmetric.
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
		dst = mat.NewSymDense(n, nil)
	} else if dst.SymmetricDim() != n {
		return nil, fmt.Errorf("%w: Gram dst is %d×%d, X has %d rows", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), n)
	}
	raw := dst.RawSymmetric()
	f := rowFunc(k, x)
	// Pair row t with row n-1-t so every task costs about n+1 evaluations.
	tasks := (n + 1) / 2
	err = parFor(ctx, tasks, func(t int) {
		fill := func(i int) {
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			f(row[i:], x.row(i), i)
		}
		fill(t)
		if u := n - 1 - t; u != t {
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
// over the rows of A (deterministic, equal to pairwise Eval). A nil dst
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
		dst = mat.NewDense(a.n, b.n, nil)
	} else if r, c := dst.Dims(); r != a.n || c != b.n {
		return nil, fmt.Errorf("%w: Cross dst is %d×%d, want %d×%d", ErrShape, r, c, a.n, b.n)
	}
	raw := dst.RawMatrix()
	f := rowFunc(k, b)
	const rowsPerTask = 8
	err = parFor(ctx, (a.n+rowsPerTask-1)/rowsPerTask, func(t int) {
		for i := t * rowsPerTask; i < min(a.n, (t+1)*rowsPerTask); i++ {
			f(raw.Data[i*raw.Stride:i*raw.Stride+b.n], a.row(i), 0)
		}
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
	for i := 0; i < n; i++ {
		for j, v := range r.row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return rows{}, fmt.Errorf("%w: %s[%d,%d] = %v", ErrNonFinite, name, i, j, v)
			}
		}
	}
	return r, nil
}

// rowFunc returns a function filling out[j] = k(x, y_{j0+j}) for all j.
//
// The built-in kernels accumulate column by column over a transposed copy
// of y (out[j] += term(x_l, y_{j0+j,l}) for l = 0..d-1, in that order):
// inner loops run over contiguous memory, the dot-product kernels through
// BLAS axpy. The distance kernels sum the exact terms (x_l - y_l)² or
// |x_l - y_l|, never ‖x‖²+‖y‖²-2x·y, so there is no cancellation. Each
// entry is a fixed function of (x, y_j), whatever the caller's split of
// rows; it can differ from Eval (four-way accumulators) in the last bit.
func rowFunc(k Kernel, y rows) func(out, x []float64, j0 int) {
	var acc func(out, x []float64, j0 int)
	n := y.n
	transpose := func() []float64 {
		yt := make([]float64, y.d*n)
		for j := 0; j < n; j++ {
			for l, v := range y.row(j) {
				yt[l*n+j] = v
			}
		}
		return yt
	}
	switch k.(type) {
	case Linear, Poly:
		yt := transpose()
		impl := blas64.Implementation()
		acc = func(out, x []float64, j0 int) {
			clear(out)
			for l, xv := range x {
				impl.Daxpy(len(out), xv, yt[l*n+j0:l*n+j0+len(out)], 1, out, 1)
			}
		}
	case RBF, Exponential:
		yt := transpose()
		acc = func(out, x []float64, j0 int) {
			clear(out)
			for l, xv := range x {
				c := yt[l*n+j0 : l*n+j0+len(out)]
				for j, cv := range c {
					d := xv - cv
					out[j] += d * d
				}
			}
		}
	case Laplacian:
		yt := transpose()
		acc = func(out, x []float64, j0 int) {
			clear(out)
			for l, xv := range x {
				c := yt[l*n+j0 : l*n+j0+len(out)]
				for j, cv := range c {
					out[j] += math.Abs(xv - cv)
				}
			}
		}
	}
	switch k := k.(type) {
	case Linear:
		return acc
	case Poly:
		return func(out, x []float64, j0 int) {
			acc(out, x, j0)
			for j, v := range out {
				out[j] = powi(k.A*v+k.B, k.Degree)
			}
		}
	case RBF, Laplacian:
		g := 0.0
		if r, ok := k.(RBF); ok {
			g = -r.Gamma
		} else {
			g = -k.(Laplacian).Gamma
		}
		return func(out, x []float64, j0 int) {
			acc(out, x, j0)
			for j, v := range out {
				out[j] = expNeg(g * v)
			}
		}
	case Exponential:
		g := -k.Gamma
		return func(out, x []float64, j0 int) {
			acc(out, x, j0)
			for j, v := range out {
				out[j] = expNeg(g * math.Sqrt(v))
			}
		}
	}
	return func(out, x []float64, j0 int) {
		for j := range out {
			out[j] = k.Eval(x, y.row(j0+j))
		}
	}
}

// parFor runs fn(0..tasks-1) on runtime.GOMAXPROCS(0) goroutines, handing
// out tasks in increasing order. Callers make each task's output
// independent of which goroutine runs it, so results never depend on
// GOMAXPROCS. It stops handing out tasks once ctx is done and then returns
// ctx.Err().
func parFor(ctx context.Context, tasks int, fn func(t int)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), tasks)
	var next atomic.Int64
	run := func() {
		for {
			t := int(next.Add(1) - 1)
			if t >= tasks || ctx.Err() != nil {
				return
			}
			fn(t)
		}
	}
	if workers <= 1 {
		run()
		return ctx.Err()
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() { defer wg.Done(); run() }()
	}
	wg.Wait()
	return ctx.Err()
}

// mirrorTile is the tile edge of blocked transposes (32 KiB per tile).
const mirrorTile = 64

// mirrorUpper copies the strict upper triangle of the n×n row-major matrix
// data into its lower triangle, tile by tile, in parallel.
func mirrorUpper(ctx context.Context, data []float64, stride, n int) error {
	nt := (n + mirrorTile - 1) / mirrorTile
	return parFor(ctx, nt, func(bi int) {
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
