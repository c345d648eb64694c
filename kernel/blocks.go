package kernel

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Points is a point kernel on the rows of X, seen as a matrix whose blocks
// K(rows, cols) are computed on demand, like GraphKernel and MissingGram:
// the form sampled methods (treelets.Sample) take.
type Points struct {
	K Kernel
	X mat.Matrix
}

// Len returns the number of rows of X.
func (p Points) Len() int { r, _ := p.X.Dims(); return r }

// Diag returns k(x, x) for each of rows.
func (p Points) Diag(rows []int) []float64 {
	_, d := p.X.Dims()
	out := make([]float64, len(rows))
	x := make([]float64, d)
	for i, r := range rows {
		mat.Row(x, r, p.X)
		out[i] = p.K.Eval(x, x)
	}
	return out
}

func (p Points) subset(rows []int) mat.Matrix {
	n, d := p.X.Dims()
	if len(rows) == n {
		id := true
		for i, r := range rows {
			if r != i {
				id = false
				break
			}
		}
		if id {
			return p.X
		}
	}
	s := mat.NewDense(max(1, len(rows)), d, nil)
	for i, r := range rows {
		s.SetRow(i, mat.Row(nil, r, p.X))
	}
	return s
}

// Sym returns K(rows, rows) by Gram. Errors as Gram.
func (p Points) Sym(ctx context.Context, dst *mat.SymDense, rows []int) (*mat.SymDense, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrEmpty)
	}
	return Gram(ctx, dst, p.K, p.subset(rows))
}

// Cross returns K(rows, cols) by Cross. Errors as Cross.
func (p Points) Cross(ctx context.Context, dst *mat.Dense, rows, cols []int) (*mat.Dense, error) {
	if len(rows) == 0 || len(cols) == 0 {
		return nil, fmt.Errorf("%w: empty cross block", ErrEmpty)
	}
	return Cross(ctx, dst, p.K, p.subset(rows), p.subset(cols))
}
