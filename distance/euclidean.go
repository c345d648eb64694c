package distance

import (
	"context"
	"errors"
	"fmt"
	"github.com/arbor-ml/arbor/internal/finite"
	"math"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrEmpty reports a matrix with no rows.
	ErrEmpty = errors.New("distance: no points")
	// ErrNonFinite reports a NaN or ±Inf coordinate.
	ErrNonFinite = errors.New("distance: non-finite value")
	// ErrShape reports operands whose dimensions do not agree.
	ErrShape = errors.New("distance: dimension mismatch")
)

// SqDist returns the squared Euclidean distance Σ_k (x_k − y_k)², summed in
// index order from 0, the same order as SciPy's pdist, so results agree bit for
// bit. x and y must have the same length.
func SqDist(x, y []float64) float64 {
	y = y[:len(x)]
	var s float64
	for k, v := range x {
		t := v - y[k]
		s += float64(t * t) // explicit conversion: no fused multiply-add
	}
	return s
}

// sqDistRow sets out[j] = SqDist(x, Y_j), or its square root if root, for
// the rows Y_j of the row-major matrix Y (len(out) rows of len(x)
// columns). Four rows are summed at once (independent sums, each in index
// order as SqDist) so the additions overlap instead of waiting on each
// other.
func sqDistRow(out, x, Y []float64, root bool) {
	d := len(x)
	j := 0
	for ; j+4 <= len(out); j += 4 {
		y0 := Y[j*d : j*d+d]
		y1 := Y[(j+1)*d : (j+1)*d+d]
		y2 := Y[(j+2)*d : (j+2)*d+d]
		y3 := Y[(j+3)*d : (j+3)*d+d]
		var s0, s1, s2, s3 float64
		for t, xt := range x {
			u0 := xt - y0[t]
			u1 := xt - y1[t]
			u2 := xt - y2[t]
			u3 := xt - y3[t]
			s0 += float64(u0 * u0)
			s1 += float64(u1 * u1)
			s2 += float64(u2 * u2)
			s3 += float64(u3 * u3)
		}
		if root {
			s0, s1, s2, s3 = math.Sqrt(s0), math.Sqrt(s1), math.Sqrt(s2), math.Sqrt(s3)
		}
		out[j], out[j+1], out[j+2], out[j+3] = s0, s1, s2, s3
	}
	for ; j < len(out); j++ {
		s := SqDist(x, Y[j*d:j*d+d])
		if root {
			s = math.Sqrt(s)
		}
		out[j] = s
	}
}

// Dist returns the Euclidean distance sqrt(SqDist(x, y)).
func Dist(x, y []float64) float64 { return math.Sqrt(SqDist(x, y)) }

// Points returns the rows of X as one row-major slice of n·d values. A
// *mat.Dense with contiguous rows is returned without copying: the caller must
// not modify the result. It returns ErrEmpty for a matrix without rows and
// ErrNonFinite (naming row and column) for a NaN or ±Inf entry.
func Points(X mat.Matrix) (data []float64, n, d int, err error) {
	if X == nil {
		return nil, 0, 0, ErrEmpty
	}
	n, d = X.Dims()
	if n == 0 || d == 0 {
		return nil, n, d, ErrEmpty
	}
	if m, ok := X.(mat.RawMatrixer); ok && m.RawMatrix().Stride == d {
		data = m.RawMatrix().Data[:n*d]
	} else {
		data = make([]float64, n*d)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				data[i*d+j] = X.At(i, j)
			}
		}
	}
	if i, j, v, bad := finite.Find(data, n, d, d); bad {
		return nil, n, d, fmt.Errorf("%w: X[%d,%d] = %v", ErrNonFinite, i, j, v)
	}
	return data, n, d, nil
}

// Euclidean returns the condensed matrix of Euclidean distances between the
// rows of X, d(i, j) = sqrt(Σ_k (X_ik − X_jk)²): the same values as
// scipy.spatial.distance.pdist(X), computed from exact differences in the
// same summation order (equal to the last bit on amd64).
//
// Rows are distributed over runtime.GOMAXPROCS(0) goroutines; every entry is
// computed by one goroutine in a fixed order, so the result does not depend
// on the number of threads. Time O(n²d), memory n(n−1)/2 values.
// Errors: ErrEmpty, ErrNonFinite, or ctx.Err() if ctx is cancelled.
func Euclidean(ctx context.Context, X mat.Matrix) (Condensed, error) {
	return pairwise(ctx, X, true)
}

// SqEuclidean is Euclidean without the square root (SciPy "sqeuclidean").
func SqEuclidean(ctx context.Context, X mat.Matrix) (Condensed, error) {
	return pairwise(ctx, X, false)
}

func pairwise(ctx context.Context, X mat.Matrix, root bool) (Condensed, error) {
	data, n, d, err := Points(X)
	if err != nil {
		return Condensed{}, err
	}
	c := NewCondensed(n)
	err = ParallelRows(ctx, n, func(i int) {
		out := c.Data[n*i-i*(i+1)/2:]
		out = out[:n-i-1]
		sqDistRow(out, data[i*d:i*d+d], data[(i+1)*d:], root)
	})
	if err != nil {
		return Condensed{}, err
	}
	return c, nil
}

// Cross returns the n×m matrix of Euclidean distances between the rows of A
// (n×d) and the rows of B (m×d), computed like Euclidean. A nil dst
// allocates; otherwise dst must be n×m. Cross panics if the column counts or
// dst's shape disagree (programmer error, as in gonum/mat); use CrossErr to
// validate user data. NaN inputs propagate.
func Cross(dst *mat.Dense, A, B mat.Matrix) *mat.Dense {
	dst, err := crossInto(context.Background(), dst, A, B, false)
	if err != nil {
		panic(err)
	}
	return dst
}

// CrossErr is Cross for user data: it returns ErrEmpty, ErrShape or
// ErrNonFinite instead of panicking, and honours ctx.
func CrossErr(ctx context.Context, dst *mat.Dense, A, B mat.Matrix) (*mat.Dense, error) {
	return crossInto(ctx, dst, A, B, true)
}

func crossInto(ctx context.Context, dst *mat.Dense, A, B mat.Matrix, check bool) (*mat.Dense, error) {
	ra, ca := A.Dims()
	rb, cb := B.Dims()
	if ca != cb {
		return nil, fmt.Errorf("%w: A has %d columns, B has %d", ErrShape, ca, cb)
	}
	var a, b []float64
	var err error
	if check {
		if a, _, _, err = Points(A); err != nil {
			return nil, fmt.Errorf("A: %w", err)
		}
		if b, _, _, err = Points(B); err != nil {
			return nil, fmt.Errorf("B: %w", err)
		}
	} else {
		a, b = rawRows(A), rawRows(B)
	}
	if dst == nil {
		dst = mat.NewDense(ra, rb, nil)
	} else if r, c := dst.Dims(); r != ra || c != rb {
		return nil, fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, r, c, ra, rb)
	}
	raw := dst.RawMatrix()
	d := ca
	err = ParallelRows(ctx, ra, func(i int) {
		out := raw.Data[i*raw.Stride : i*raw.Stride+rb]
		sqDistRow(out, a[i*d:i*d+d], b, true)
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// rawRows is Points without validation.
func rawRows(X mat.Matrix) []float64 {
	n, d := X.Dims()
	if m, ok := X.(mat.RawMatrixer); ok && m.RawMatrix().Stride == d {
		return m.RawMatrix().Data[:n*d]
	}
	data := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			data[i*d+j] = X.At(i, j)
		}
	}
	return data
}

// ParallelRows calls row(i) for every i in [0, n) on runtime.GOMAXPROCS(0)
// goroutines, handing out small blocks of rows dynamically. row must write
// only to storage owned by row i; then the result does not depend on the
// number of goroutines or the schedule. ctx is checked between blocks; the
// first error is ctx.Err().
func ParallelRows(ctx context.Context, n int, row func(i int)) error {
	return parallel.Chunks(ctx, n, 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row(i)
		}
	})
}
