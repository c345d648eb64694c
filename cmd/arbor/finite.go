package main

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
)

// checkMagnitude fails when a feature value is so large that the squared
// distances (and inner products) of the methods overflow float64: it names
// the feature, the row and the value and suggests a remedy (a cell of
// 1e300 would otherwise surface as "distance (0, 3) is +Inf" or
// "rbf Gamma = 0").
func checkMagnitude(ds *dataset.Dataset) error {
	n, d := ds.X.Dims()
	if n == 0 || d == 0 {
		return nil
	}
	limit := math.Sqrt(math.MaxFloat64 / (4 * float64(d) * float64(n)))
	for i := 0; i < n; i++ {
		for j, v := range ds.X.RawRowView(i) {
			if math.Abs(v) > limit {
				name := fmt.Sprintf("f%d", j+1)
				if j < len(ds.Features) {
					name = ds.Features[j]
				}
				return fmt.Errorf("%s: feature %q is %g in data row %d (counting from 0): sums of squares of such values overflow float64 (limit ±%.3g here); rescale that column (e.g. to other units) or drop it (--ignore %s)",
					ds.Name, name, v, i, limit, shellWord(name))
			}
		}
	}
	return nil
}

// checkKernelFinite fails when a kernel matrix has an infinite or NaN
// entry (poly:1:1:200 on unscaled data, say): it is never written or
// learnt from.
func checkKernelFinite(spec string, K mat.Matrix) error {
	bad := func(i, j int, v float64) error {
		return fmt.Errorf("kernel %s: entry (%d, %d) is %v: its values overflow float64 (or are undefined) for these data; scale the features (--scale std or minmax) or choose smaller parameters (degree, a, b, gamma)", spec, i, j, v)
	}
	r, c := K.Dims()
	if s, ok := K.(*mat.SymDense); ok && s.RawSymmetric().Uplo == blas.Upper {
		// The upper triangle in row order finds the same first entry as
		// the whole matrix: a bad (p, q), p ≤ q, shows first in row p.
		raw := s.RawSymmetric()
		for i := 0; i < r; i++ {
			for j, v := range raw.Data[i*raw.Stride+i : i*raw.Stride+r] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return bad(i, i+j, v)
				}
			}
		}
		return nil
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := K.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return bad(i, j, v)
			}
		}
	}
	return nil
}
