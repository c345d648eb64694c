package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// ErrMissing reports missing values a kernel cannot work around: a row with
// every value missing, or two rows with no coordinate observed in both.
var ErrMissing = errors.New("kernel: missing values")

// RBFMissing is the RBF kernel for data with missing values of paper 004
// §4.3. Columns are z-scored over their observed entries (mean and
// population standard deviation, numpy's nanmean/nanstd; a constant column
// becomes 0, a column with no observed entry is ignored), and
//
//	K(u, v) = exp(−γ/|E_uv| · Σ_{i∈E_uv} (u_i − v_i)²)
//
// where E_uv is the set of coordinates observed in both u and v (the
// paper uses γ = 32). K(u, u) = 1. Missing values are NaN in X. The kernel
// is the RBF kernel of the mean squared difference over the shared
// coordinates; it is symmetric, and positive semi-definite when every pair
// shares all coordinates (no missing values), but not in general, which
// treelets do not need.
type RBFMissing struct {
	Gamma float64
}

// ParseRBFMissing reads the specification "rbf-missing:GAMMA".
func ParseRBFMissing(s string) (RBFMissing, error) {
	name, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !strings.EqualFold(name, "rbf-missing") || !ok {
		return RBFMissing{}, fmt.Errorf("%w: %q, want rbf-missing:GAMMA", ErrUnknownKernel, s)
	}
	g, err := strconv.ParseFloat(arg, 64)
	if err != nil || !(g > 0) || math.IsInf(g, 1) {
		return RBFMissing{}, fmt.Errorf("%w: rbf-missing gamma %q, want a number > 0", ErrBadParam, arg)
	}
	return RBFMissing{Gamma: g}, nil
}

// String returns "rbf-missing:GAMMA".
func (k RBFMissing) String() string { return "rbf-missing:" + ftoa(k.Gamma) }

// MissingGram is RBFMissing prepared on a data set: the z-scored values
// with their observed-mask, from which kernel blocks are computed on
// demand.
type MissingGram struct {
	gamma float64
	n, d  int
	z     []float64 // n×d, z-scored, 0 where missing
	obs   []bool    // n×d observed mask
}

// Prepare z-scores X's columns over their observed entries (NaN =
// missing). Errors: ErrBadParam (γ ≤ 0), ErrEmpty, ErrNonFinite (±Inf),
// ErrMissing naming the first row (0-based) with every value missing.
// Pairs without a shared coordinate are found by Sym and Cross.
func (k RBFMissing) Prepare(X mat.Matrix) (*MissingGram, error) {
	if !(k.Gamma > 0) || math.IsInf(k.Gamma, 1) {
		return nil, fmt.Errorf("%w: rbf-missing gamma = %v, want > 0", ErrBadParam, k.Gamma)
	}
	n, d := X.Dims()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("%w: rbf-missing on a %d×%d matrix", ErrEmpty, n, d)
	}
	g := &MissingGram{gamma: k.Gamma, n: n, d: d, z: make([]float64, n*d), obs: make([]bool, n*d)}
	for j := 0; j < d; j++ {
		var s float64
		c := 0
		for i := 0; i < n; i++ {
			v := X.At(i, j)
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d column %d is %v", ErrNonFinite, i, j, v)
			}
			if !math.IsNaN(v) {
				s += v
				c++
			}
		}
		if c == 0 {
			continue // no observed entry: the column carries nothing
		}
		mean := s / float64(c)
		var ss float64
		for i := 0; i < n; i++ {
			if v := X.At(i, j); !math.IsNaN(v) {
				ss += (v - mean) * (v - mean)
			}
		}
		sd := math.Sqrt(ss / float64(c))
		for i := 0; i < n; i++ {
			v := X.At(i, j)
			if math.IsNaN(v) {
				continue
			}
			g.obs[i*d+j] = true
			if sd > 0 {
				g.z[i*d+j] = (v - mean) / sd
			}
		}
	}
	for i := 0; i < n; i++ {
		any := false
		for _, o := range g.obs[i*d : i*d+d] {
			any = any || o
		}
		if !any {
			return nil, fmt.Errorf("%w: row %d has every value missing", ErrMissing, i)
		}
	}
	return g, nil
}

// Len returns the number of rows.
func (g *MissingGram) Len() int { return g.n }

// Diag returns K(u, u) = 1 for each of rows.
func (g *MissingGram) Diag(rows []int) []float64 {
	out := make([]float64, len(rows))
	for i := range out {
		out[i] = 1
	}
	return out
}

// eval returns K(u, v), or ok = false when u and v share no coordinate.
func (g *MissingGram) eval(u, v int) (float64, bool) {
	d := g.d
	zu, zv := g.z[u*d:u*d+d], g.z[v*d:v*d+d]
	ou, ov := g.obs[u*d:u*d+d], g.obs[v*d:v*d+d]
	var s float64
	c := 0
	for i := range zu {
		if ou[i] && ov[i] {
			t := zu[i] - zv[i]
			s += t * t
			c++
		}
	}
	if c == 0 {
		return 0, false
	}
	return math.Exp(-g.gamma * s / float64(c)), true
}

// Sym returns K(rows, rows) (both triangles of the storage written), in
// parallel by rows. A nil dst allocates. Errors: ErrShape, ErrMissing
// naming the first pair of rows (in row order) that share no observed
// coordinate, ctx.Err().
func (g *MissingGram) Sym(ctx context.Context, dst *mat.SymDense, rows []int) (*mat.SymDense, error) {
	m := len(rows)
	if dst == nil {
		dst = mat.NewSymDense(m, nil)
	} else if dst.SymmetricDim() != m {
		return nil, fmt.Errorf("%w: rbf-missing dst is %d×%d, want %d×%d", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), m, m)
	}
	raw := dst.RawSymmetric()
	bad := make([]int, m)
	err := parallel.Chunks(ctx, m, 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			bad[i] = -1
			row := raw.Data[i*raw.Stride : i*raw.Stride+m]
			row[i] = 1
			for j := i + 1; j < m; j++ {
				v, ok := g.eval(rows[i], rows[j])
				if !ok && bad[i] < 0 {
					bad[i] = j
				}
				row[j] = v
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for i, j := range bad {
		if j >= 0 {
			return nil, fmt.Errorf("%w: rows %d and %d share no observed column", ErrMissing, rows[i], rows[j])
		}
	}
	if err := mirrorUpper(ctx, raw.Data, raw.Stride, m); err != nil {
		return nil, err
	}
	return dst, nil
}

// Cross returns K(rows, cols). A nil dst allocates. Errors: ErrShape,
// ErrEmpty, ErrMissing (as Sym), ctx.Err().
func (g *MissingGram) Cross(ctx context.Context, dst *mat.Dense, rows, cols []int) (*mat.Dense, error) {
	if len(rows) == 0 || len(cols) == 0 {
		return nil, fmt.Errorf("%w: empty cross block", ErrEmpty)
	}
	if dst == nil {
		dst = mat.NewDense(len(rows), len(cols), nil)
	} else if r, c := dst.Dims(); r != len(rows) || c != len(cols) {
		return nil, fmt.Errorf("%w: rbf-missing dst is %d×%d, want %d×%d", ErrShape, r, c, len(rows), len(cols))
	}
	raw := dst.RawMatrix()
	bad := make([]int, len(rows))
	err := parallel.Chunks(ctx, len(rows), 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			bad[i] = -1
			row := raw.Data[i*raw.Stride : i*raw.Stride+len(cols)]
			for j, c := range cols {
				v, ok := g.eval(rows[i], c)
				if !ok && bad[i] < 0 {
					bad[i] = j
				}
				row[j] = v
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for i, j := range bad {
		if j >= 0 {
			return nil, fmt.Errorf("%w: rows %d and %d share no observed column", ErrMissing, rows[i], cols[j])
		}
	}
	return dst, nil
}
