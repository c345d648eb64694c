package gemm

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestSymvPanel: SymvPanel equals, bit for bit, the sequence of gonum
// calls it documents (floats.Dot and floats.AddScaled per row, the axpy
// skipped for x_p = 0 as the callers do), for every alignment of the tail
// (m mod 4), padded rows and zero entries of x.
func TestSymvPanel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{8, 9, 10, 11, 12, 13, 17, 31, 64, 65, 66, 67, 100, 259} {
		for _, pad := range []int{0, 3} {
			for _, zero := range []int{-1, 0, 2} {
				lda := m + pad
				a := make([]float64, 4*lda)
				for i := range a {
					a[i] = r.NormFloat64()
				}
				x, y := make([]float64, m+1), make([]float64, m+1)
				for i := range x {
					x[i], y[i] = r.NormFloat64(), r.NormFloat64()
				}
				if zero >= 0 {
					x[zero] = 0
				}
				want := slices.Clone(y)
				for p := range 4 {
					ap := a[p*lda : p*lda+m]
					want[p] += floats.Dot(ap[p:m], x[p:m])
					if x[p] != 0 {
						floats.AddScaled(want[p+1:m], x[p], ap[p+1:m])
					}
				}
				got := slices.Clone(y)
				SymvPanel(m, a, lda, x, got)
				if !slices.Equal(got, want) {
					for i := range got {
						if got[i] != want[i] {
							t.Errorf("m=%d lda=%d zero=%d (%s): y[%d] = %v, gonum %v", m, lda, zero, symvKernel(), i, got[i], want[i])
							break
						}
					}
				}
			}
		}
	}
}

func symvKernel() string {
	if haveSymvPanel {
		return "avx2"
	}
	return "go"
}
