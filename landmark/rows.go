package landmark

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/finite"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// rows is a row-major view of a data matrix.
type rows struct {
	data      []float64
	n, d, str int
}

func (r rows) row(i int) []float64 { return r.data[i*r.str : i*r.str+r.d] }

// newRows views X row-major (no copy for *mat.Dense) and checks it is
// non-empty (kernel.ErrEmpty) and finite (kernel.ErrNonFinite).
func newRows(X mat.Matrix, name string) (rows, error) {
	if X == nil {
		return rows{}, fmt.Errorf("%w: %s is nil", kernel.ErrEmpty, name)
	}
	n, d := X.Dims()
	if n == 0 || d == 0 {
		return rows{}, fmt.Errorf("%w: %s is %d×%d", kernel.ErrEmpty, name, n, d)
	}
	r := rows{n: n, d: d, str: d}
	if m, ok := X.(*mat.Dense); ok {
		raw := m.RawMatrix()
		r.data, r.str = raw.Data, raw.Stride
	} else {
		r.data = make([]float64, n*d)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				r.data[i*d+j] = X.At(i, j)
			}
		}
	}
	if i, j, v, bad := finite.Find(r.data, n, d, r.str); bad {
		return rows{}, fmt.Errorf("%w: %s[%d,%d] = %v", kernel.ErrNonFinite, name, i, j, v)
	}
	return r, nil
}

// treeKernel is the cluster kernel −½·J·M·J of the ultrametric M of t.
func treeKernel(ctx context.Context, t *hclust.Tree) (*mat.SymDense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	M := t.Ultrametric(nil)
	return kernel.Center(M, M), ctx.Err()
}

// graphOrDefault is s, or kernel.DefaultGraph when s is the zero Spec.
func graphOrDefault(s graph.Spec) graph.Spec {
	if s.Kind == "" {
		return kernel.DefaultGraph()
	}
	return s
}
