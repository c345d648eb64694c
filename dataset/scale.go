package dataset

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Scaler holds per-column statistics of a fitted scaling, so that points
// seen later (a test set, out-of-sample points) are scaled exactly like the
// data it was fitted on, as scikit-learn's fit/transform:
//
//	x'_j = (x_j − Shift[j]) / Factor[j]
//
// For "std" Shift is the column mean and Factor the population standard
// deviation, for "minmax" the minimum and the range, for "none" 0 and 1. A
// constant column gets Shift = its value and Factor = 1, so it becomes
// exactly 0 (peers.py: sd[sd == 0] = 1).
type Scaler struct {
	How    string    // "none", "std" or "minmax"
	Shift  []float64 // per column
	Factor []float64 // per column, > 0
	// Impute, if not nil, fills missing values (NaN) before scaling, with
	// the values fitted on the data (FitImputer); nil keeps NaN as NaN.
	Impute *Imputer `json:",omitempty"`
}

// FitScaler computes the statistics of the named scaling over all rows of
// X; missing values (NaN) are left out of them and stay NaN after Transform. Any method other than "none", "std" or "minmax" gives ErrUnknownScale.
// O(n·d).
func FitScaler(X *mat.Dense, how string) (*Scaler, error) {
	if how != "none" && how != "std" && how != "minmax" {
		return nil, fmt.Errorf("%w %q (want none, std or minmax)", ErrUnknownScale, how)
	}
	n, d := X.Dims()
	s := &Scaler{How: how, Shift: make([]float64, d), Factor: make([]float64, d)}
	for j := range s.Factor {
		s.Factor[j] = 1
	}
	if how == "none" {
		return s, nil
	}
	// Row-major passes (cache friendly); each column is still summed in
	// row order, as a column-wise loop would.
	lo, hi, sum := make([]float64, d), make([]float64, d), make([]float64, d)
	cnt := make([]int, d) // present (non-NaN) values: missing cells are skipped
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) {
				continue
			}
			cnt[j]++
			if v < lo[j] {
				lo[j] = v
			}
			if v > hi[j] {
				hi[j] = v
			}
			sum[j] += v
		}
	}
	for j := range lo {
		if cnt[j] == 0 { // every value missing: leave the column alone
			lo[j], hi[j], cnt[j] = 0, 0, 1
		}
	}
	if how == "minmax" {
		for j := range lo {
			s.Shift[j] = lo[j]
			if hi[j] != lo[j] {
				s.Factor[j] = hi[j] - lo[j]
			}
		}
		return s, nil
	}
	mean, ss := sum, make([]float64, d)
	for j := range mean {
		mean[j] /= float64(cnt[j])
	}
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if !math.IsNaN(v) {
				ss[j] += (v - mean[j]) * (v - mean[j])
			}
		}
	}
	for j := range mean {
		if lo[j] == hi[j] {
			s.Shift[j] = lo[j] // constant column: exactly 0
			continue
		}
		s.Shift[j] = mean[j]
		if sd := math.Sqrt(ss[j] / float64(cnt[j])); sd > 0 {
			s.Factor[j] = sd
		}
	}
	return s, nil
}

// Transform scales the rows of X into dst and returns it; a nil dst
// allocates, dst may be X itself. X must have as many columns as the data
// the Scaler was fitted on (ErrInconsistent otherwise).
func (s *Scaler) Transform(dst, X *mat.Dense) (*mat.Dense, error) {
	n, d := X.Dims()
	if d != len(s.Shift) {
		return nil, fmt.Errorf("dataset: scaler: %w: %d columns, fitted on %d", ErrInconsistent, d, len(s.Shift))
	}
	if dst == nil {
		dst = mat.NewDense(n, d, nil)
	} else if r, c := dst.Dims(); r != n || c != d {
		return nil, fmt.Errorf("dataset: scaler: %w: destination %d×%d for %d×%d", ErrInconsistent, r, c, n, d)
	}
	if im := s.Impute; im != nil && len(im.Fill) != d {
		return nil, fmt.Errorf("dataset: scaler: %w: imputer for %d columns, scaler for %d", ErrInconsistent, len(im.Fill), d)
	}
	for i := 0; i < n; i++ {
		src, out := X.RawRowView(i), dst.RawRowView(i)
		for j, v := range src {
			if math.IsNaN(v) && s.Impute != nil {
				v = s.Impute.Fill[j]
			}
			out[j] = (v - s.Shift[j]) / s.Factor[j]
		}
	}
	return dst, nil
}

// Standardize returns a new matrix with every column z-scored over all
// rows: (x − mean) / std with the population standard deviation
// (divisor n, numpy's X.std(0)). Constant columns become exactly 0, as in
// peers.py scale(X, "std"). X is not modified. O(n·d).
func Standardize(X *mat.Dense) *mat.Dense {
	Z, _ := Scale(X, "std")
	return Z
}

// MinMax returns a new matrix with every column mapped linearly onto [0, 1]:
// (x − min) / (max − min). Constant columns become 0, as in peers.py
// scale(X, "minmax"). X is not modified. O(n·d).
func MinMax(X *mat.Dense) *mat.Dense {
	Z, _ := Scale(X, "minmax")
	return Z
}

// Scale applies the named scaling to a copy of X: "none" (a plain copy),
// "std" (Standardize) or "minmax" (MinMax) — the --scale values of
// peers.py. Any other name gives ErrUnknownScale. Use FitScaler to scale
// further points with the same statistics.
func Scale(X *mat.Dense, how string) (*mat.Dense, error) {
	s, err := FitScaler(X, how)
	if err != nil {
		return nil, err
	}
	return s.Transform(nil, X)
}
