package main

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
)

// checkMagnitude fails when a feature value is so large that the squared
// distances (and inner products) of the methods overflow float64: the
// file's line, the feature and the value, and a remedy (a cell of 1e300
// would otherwise surface as "distance (0, 3) is +Inf" or "rbf Gamma = 0").
func checkMagnitude(ds *dataset.Dataset) error {
	n, d := ds.X.Dims()
	if n == 0 || d == 0 {
		return nil
	}
	return magnitudeHint(ds.CheckMagnitude(dataset.MagnitudeLimit(d, n)))
}

// magnitudeHint adds the remedy to an ErrMagnitude error.
func magnitudeHint(err error) error {
	var pe *dataset.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, dataset.ErrMagnitude) {
		return err
	}
	return fmt.Errorf("%w; rescale that column (e.g. to other units) or drop it (--ignore %s)", err, shellWord(pe.Column))
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
