package dataset

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Standardize returns a new matrix with every column z-scored over all
// rows: (x − mean) / std with the population standard deviation
// (divisor n, numpy's X.std(0)). Constant columns become exactly 0, as in
// peers.py scale(X, "std"). X is not modified. O(n·d).
func Standardize(X *mat.Dense) *mat.Dense {
	n, d := X.Dims()
	out := mat.DenseCopyOf(X)
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		mat.Col(col, j, X)
		lo, hi := minMax(col)
		if lo == hi {
			zeroCol(out, j)
			continue
		}
		var sum float64
		for _, v := range col {
			sum += v
		}
		mean := sum / float64(n)
		var ss float64
		for _, v := range col {
			ss += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(ss / float64(n))
		if sd == 0 {
			sd = 1 // peers.py: sd[sd == 0] = 1
		}
		for i, v := range col {
			out.Set(i, j, (v-mean)/sd)
		}
	}
	return out
}

// MinMax returns a new matrix with every column mapped linearly onto [0, 1]:
// (x − min) / (max − min). Constant columns become 0, as in peers.py
// scale(X, "minmax"). X is not modified. O(n·d).
func MinMax(X *mat.Dense) *mat.Dense {
	n, d := X.Dims()
	out := mat.DenseCopyOf(X)
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		mat.Col(col, j, X)
		lo, hi := minMax(col)
		if lo == hi {
			zeroCol(out, j)
			continue
		}
		rng := hi - lo
		for i, v := range col {
			out.Set(i, j, (v-lo)/rng)
		}
	}
	return out
}

// Scale applies the named scaling to a copy of X: "none" (a plain copy),
// "std" (Standardize) or "minmax" (MinMax) — the --scale values of
// peers.py. Any other name gives ErrUnknownScale.
func Scale(X *mat.Dense, how string) (*mat.Dense, error) {
	switch how {
	case "none":
		return mat.DenseCopyOf(X), nil
	case "std":
		return Standardize(X), nil
	case "minmax":
		return MinMax(X), nil
	}
	return nil, fmt.Errorf("%w %q (want none, std or minmax)", ErrUnknownScale, how)
}

func minMax(col []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range col {
		lo = math.Min(lo, v)
		hi = math.Max(hi, v)
	}
	return lo, hi
}

func zeroCol(m *mat.Dense, j int) {
	n, _ := m.Dims()
	for i := 0; i < n; i++ {
		m.Set(i, j, 0)
	}
}
