package dataset

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/quote"
)

// ErrUnknownImpute is returned for an imputation strategy other than
// none, mean, median, most_frequent or zero.
var ErrUnknownImpute = errors.New("unknown imputation strategy")

// Imputer holds the per-column values that replace missing cells (NaN),
// fitted on the data as scikit-learn's SimpleImputer:
//
//	mean           the mean of the column's present values
//	median         their median (the mean of the two middle values for an
//	               even count, numpy.median)
//	most_frequent  their most frequent value, the smallest on ties
//	zero           0 (SimpleImputer(strategy="constant", fill_value=0))
//
// Points seen later are filled with the same values (Transform), so a
// saved model imputes new rows exactly as its training rows.
type Imputer struct {
	Strategy string
	Fill     []float64 // per column, in the data's original units
}

// ImputeStrategies lists the strategies FitImputer accepts besides "none".
var ImputeStrategies = []string{"mean", "median", "most_frequent", "zero"}

// FitImputer computes the fill value of every column of X from its
// present (non-NaN) values. Strategy "none" or "" returns nil (no
// imputation). A column whose every value is missing cannot be filled
// (except by zero): ErrMissing naming it (features[j] when features is
// long enough). O(n·d) (median, most_frequent: O(n log n) per column).
func FitImputer(X *mat.Dense, strategy string, features []string) (*Imputer, error) {
	if strategy == "" || strategy == "none" {
		return nil, nil
	}
	if !slices.Contains(ImputeStrategies, strategy) {
		return nil, fmt.Errorf("%w %q (want none, mean, median, most_frequent or zero)", ErrUnknownImpute, strategy)
	}
	n, d := X.Dims()
	im := &Imputer{Strategy: strategy, Fill: make([]float64, d)}
	if strategy == "zero" {
		return im, nil
	}
	col := make([]float64, 0, n)
	for j := 0; j < d; j++ {
		col = col[:0]
		for i := 0; i < n; i++ {
			if v := X.At(i, j); !math.IsNaN(v) {
				col = append(col, v)
			}
		}
		if len(col) == 0 {
			name := fmt.Sprintf("%d", j+1)
			if j < len(features) {
				name = quote.Cell(features[j])
			}
			return nil, fmt.Errorf("%w: column %s has no value to compute its %s from (every cell is missing): drop it (--ignore)", ErrMissing, name, strategy)
		}
		switch strategy {
		case "mean":
			var s float64
			for _, v := range col {
				s += v
			}
			im.Fill[j] = s / float64(len(col))
		case "median":
			slices.Sort(col)
			m := len(col) / 2
			if len(col)%2 == 1 {
				im.Fill[j] = col[m]
			} else {
				im.Fill[j] = (col[m-1] + col[m]) / 2
			}
		case "most_frequent":
			slices.Sort(col)
			best, bestN := col[0], 0
			for a := 0; a < len(col); {
				b := a
				for b < len(col) && col[b] == col[a] {
					b++
				}
				if b-a > bestN {
					best, bestN = col[a], b-a
				}
				a = b
			}
			im.Fill[j] = best
		}
	}
	return im, nil
}

// Transform replaces the missing cells of X (NaN) in place by the fitted
// values and returns how many it filled. X must have as many columns as
// the data the Imputer was fitted on (ErrInconsistent otherwise).
func (im *Imputer) Transform(X *mat.Dense) (int, error) {
	n, d := X.Dims()
	if d != len(im.Fill) {
		return 0, fmt.Errorf("dataset: imputer: %w: %d columns, fitted on %d", ErrInconsistent, d, len(im.Fill))
	}
	filled := 0
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for j, v := range row {
			if math.IsNaN(v) {
				row[j] = im.Fill[j]
				filled++
			}
		}
	}
	return filled, nil
}
