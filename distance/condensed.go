package distance

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Condensed is a symmetric n×n dissimilarity matrix with a zero diagonal,
// stored as its strict upper triangle in row-major order: the layout of
// SciPy's pdist and squareform. Pair (i, j), i < j, lives at
// Data[n*i - i*(i+1)/2 + (j - i - 1)].
type Condensed struct {
	N    int
	Data []float64 // len N*(N-1)/2
}

// NewCondensed returns a zero Condensed matrix for n points.
func NewCondensed(n int) Condensed {
	if n < 0 {
		panic("distance: negative size")
	}
	return Condensed{N: n, Data: make([]float64, n*(n-1)/2)}
}

// Index returns the position of pair (i, j), i != j, in Data.
func (c Condensed) Index(i, j int) int {
	if i > j {
		i, j = j, i
	}
	if i == j || i < 0 || j >= c.N {
		panic(fmt.Sprintf("distance: bad pair (%d, %d) for n=%d", i, j, c.N))
	}
	return c.N*i - i*(i+1)/2 + (j - i - 1)
}

// At returns the dissimilarity of i and j (0 when i == j).
func (c Condensed) At(i, j int) float64 {
	if i == j {
		return 0
	}
	return c.Data[c.Index(i, j)]
}

// Square expands c into a full symmetric matrix. A nil dst allocates.
func (c Condensed) Square(dst *mat.SymDense) *mat.SymDense {
	if dst == nil {
		dst = mat.NewSymDense(c.N, nil)
	}
	raw := dst.RawSymmetric()
	k := 0
	for i := 0; i < c.N; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c.N]
		row[i] = 0
		for j := i + 1; j < c.N; j++ {
			row[j] = c.Data[k]
			raw.Data[j*raw.Stride+i] = c.Data[k]
			k++
		}
	}
	return dst
}

// FromSymmetric condenses the strict upper triangle of m.
func FromSymmetric(m mat.Symmetric) Condensed {
	n := m.SymmetricDim()
	c := NewCondensed(n)
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			c.Data[k] = m.At(i, j)
			k++
		}
	}
	return c
}
