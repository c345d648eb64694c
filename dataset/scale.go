package dataset

import (
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/internal/parallel"

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
// The column sums of "std" are summed by blocks of parallel.BlockRows rows
// (ScalerSums), so that a fit in parts (the Beam module's fit job)
// reproduces them exactly. O(n·d).
func FitScaler(X *mat.Dense, how string) (*Scaler, error) {
	if err := checkScale(how); err != nil {
		return nil, err
	}
	n, d := X.Dims()
	if how == "none" {
		return FitScalerSums(how, NewScalerSums(d), nil)
	}
	sums := NewScalerSums(d)
	for b := 0; b < parallel.Blocks(n); b++ {
		lo, hi := parallel.Block(b, n)
		part := NewScalerSums(d)
		part.Add(X.Slice(lo, hi, 0, d).(*mat.Dense))
		sums.Merge(part)
	}
	var ss []float64
	if how == "std" {
		mean := sums.Means()
		ss = make([]float64, d)
		for b := 0; b < parallel.Blocks(n); b++ {
			lo, hi := parallel.Block(b, n)
			for j, v := range SquaredDeviations(X.Slice(lo, hi, 0, d).(*mat.Dense), mean) {
				ss[j] += v
			}
		}
	}
	return FitScalerSums(how, sums, ss)
}

func checkScale(how string) error {
	if how != "none" && how != "std" && how != "minmax" {
		return fmt.Errorf("%w %q (want none, std or minmax)", ErrUnknownScale, how)
	}
	return nil
}

// ScalerSums are the per-column statistics of a scaling over some rows:
// the count of present (non-NaN) values, their minimum, maximum and sum.
// A fit in parts sums each block of parallel.BlockRows rows with Add
// (one block's ScalerSums from NewScalerSums) and merges the blocks'
// sums in block order with Merge: then FitScalerSums gives FitScaler's
// scaler bit for bit.
type ScalerSums struct {
	Count  []int64
	Lo, Hi []float64
	Sum    []float64
}

// NewScalerSums returns the empty sums of d columns.
func NewScalerSums(d int) ScalerSums {
	s := ScalerSums{Count: make([]int64, d), Lo: make([]float64, d), Hi: make([]float64, d), Sum: make([]float64, d)}
	for j := range s.Lo {
		s.Lo[j], s.Hi[j] = math.Inf(1), math.Inf(-1)
	}
	return s
}

// Add adds the rows of X to the sums, in row order.
func (s *ScalerSums) Add(X *mat.Dense) {
	n, _ := X.Dims()
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) {
				continue
			}
			s.Count[j]++
			if v < s.Lo[j] {
				s.Lo[j] = v
			}
			if v > s.Hi[j] {
				s.Hi[j] = v
			}
			s.Sum[j] += v
		}
	}
}

// Merge adds the sums of the next block, o, to s (the blocks before it).
// A sum summed from +0 is never −0, so merging the first block into empty
// sums gives that block's sums exactly: with one block, the plain sums.
func (s *ScalerSums) Merge(o ScalerSums) {
	for j := range s.Sum {
		s.Count[j] += o.Count[j]
		s.Lo[j] = min(s.Lo[j], o.Lo[j])
		s.Hi[j] = max(s.Hi[j], o.Hi[j])
		s.Sum[j] += o.Sum[j]
	}
}

// Means returns the column means of the sums (0 for a column without
// values).
func (s ScalerSums) Means() []float64 {
	mean := make([]float64, len(s.Sum))
	for j := range mean {
		if s.Count[j] > 0 {
			mean[j] = s.Sum[j] / float64(s.Count[j])
		}
	}
	return mean
}

// SquaredDeviations returns Σ_i (X_ij − mean_j)² over the rows of X (one
// block), in row order, NaN left out: the second pass of "std".
func SquaredDeviations(X *mat.Dense, mean []float64) []float64 {
	n, d := X.Dims()
	ss := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if !math.IsNaN(v) {
				ss[j] += (v - mean[j]) * (v - mean[j])
			}
		}
	}
	return ss
}

// FitScalerSums returns the scaler of the named scaling from the sums of
// all rows and, for "std", the squared deviations ss from Means summed
// over the blocks in block order (each block's from SquaredDeviations;
// nil otherwise). Errors: ErrUnknownScale.
func FitScalerSums(how string, sums ScalerSums, ss []float64) (*Scaler, error) {
	if err := checkScale(how); err != nil {
		return nil, err
	}
	d := len(sums.Sum)
	s := &Scaler{How: how, Shift: make([]float64, d), Factor: make([]float64, d)}
	for j := range s.Factor {
		s.Factor[j] = 1
	}
	if how == "none" {
		return s, nil
	}
	lo, hi := slices.Clone(sums.Lo), slices.Clone(sums.Hi)
	cnt := slices.Clone(sums.Count)
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
	if len(ss) != d {
		panic("dataset: FitScalerSums: std without the squared deviations")
	}
	for j := 0; j < d; j++ {
		if lo[j] == hi[j] {
			s.Shift[j] = lo[j] // constant column: exactly 0
			continue
		}
		s.Shift[j] = sums.Sum[j] / float64(cnt[j])
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
