package svm

import (
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// symTol is the relative tolerance of the symmetry check of a SymDense
// backing store: |K_ij − K_ji| ≤ symTol·max|K| (rounding noise of a
// numerically symmetric computation such as −½JMJ stays far below it).
const symTol = 1e-12

// gramSource validates a Gram matrix and returns a column source over it.
// A *mat.SymDense is read in place (no copy); its lower triangle is used
// when it mirrors the upper one exactly (kernel.Gram fills it), otherwise
// it must be all zero or agree within symTol. Any other mat.Symmetric is
// read through At. Cost: one O(N²) pass.
func gramSource(K mat.Symmetric) (source, int, error) {
	if K == nil {
		return nil, 0, fmt.Errorf("%w: nil kernel matrix", ErrEmpty)
	}
	n := K.SymmetricDim()
	if n == 0 {
		return nil, 0, fmt.Errorf("%w: 0×0 kernel matrix", ErrEmpty)
	}
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		g := &denseGram{data: raw.Data, stride: raw.Stride, n: n}
		if err := g.check(); err != nil {
			return nil, 0, err
		}
		return g, n, nil
	}
	for i := range n {
		for j := i; j < n; j++ {
			if v := K.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	return symGram{K}, n, nil
}

// check scans the upper triangle for NaN/Inf and classifies the lower one:
// an exact mirror (rows are then read in place), all zero (upper-only
// storage), or within symTol; anything else is ErrNotSymmetric.
func (g *denseGram) check() error {
	n, s, d := g.n, g.stride, g.data
	maxAbs := 0.0
	for i := range n {
		row := d[i*s+i : i*s+n]
		for t, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, i+t, v)
			}
			maxAbs = max(maxAbs, math.Abs(v))
		}
	}
	exact, zero := true, true
	bi, bj, bad := -1, -1, 0.0
	const tile = 64
	for i0 := 0; i0 < n; i0 += tile {
		for j0 := 0; j0 <= i0; j0 += tile {
			for i := i0; i < min(n, i0+tile); i++ {
				for j := j0; j < min(i, j0+tile); j++ {
					lo, up := d[i*s+j], d[j*s+i]
					if lo == up {
						if lo != 0 {
							zero = false
						}
						continue
					}
					exact = false
					if lo != 0 {
						zero = false
					}
					if diff := math.Abs(lo - up); diff > bad {
						bad, bi, bj = diff, i, j
					}
				}
			}
		}
	}
	switch {
	case exact:
		g.mirrored = true
	case zero:
	case bad > symTol*maxAbs:
		return fmt.Errorf("%w: K[%d][%d] = %v but K[%d][%d] = %v (lower triangle of the SymDense store)",
			ErrNotSymmetric, bi, bj, d[bi*s+bj], bj, bi, d[bj*s+bi])
	}
	return nil
}

// pointSource validates X (finite, non-empty) and returns a column source
// evaluating k on its rows, read in place.
func pointSource(X *mat.Dense, k kernel.Kernel) (*points, int, error) {
	if X == nil || X.IsEmpty() {
		return nil, 0, fmt.Errorf("%w: no rows in X", ErrEmpty)
	}
	r, c := X.Dims()
	raw := X.RawMatrix()
	for i := range r {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	return &points{x: raw.Data, d: c, stride: raw.Stride, k: k}, r, nil
}

// classes groups labels: the sorted distinct labels, the class index of
// every row, and the rows of every class in their original order.
func groupClasses(y []int) (labels []int, idx []int, members [][]int, err error) {
	for i, v := range y {
		if v < 0 {
			return nil, nil, nil, fmt.Errorf("%w: y[%d] = %d (labels must be ≥ 0; -1 marks unlabelled rows)", ErrBadLabel, i, v)
		}
	}
	labels = slices.Clone(y)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	idx = make([]int, len(y))
	members = make([][]int, len(labels))
	for i, v := range y {
		c, _ := slices.BinarySearch(labels, v)
		idx[i] = c
		members[c] = append(members[c], i)
	}
	return labels, idx, members, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
