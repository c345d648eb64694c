package dataset

import (
	"math"
	"strconv"
)

// HintKind is what a column looks like that it was not read as.
type HintKind int

const (
	// HintRowID: a feature column of integers, all distinct (20 rows or
	// more): a row ID.
	HintRowID HintKind = iota + 1
	// HintClass: in a file read without a label column, a feature column
	// of 2 to 10 distinct integers, at least 5 rows for each: a class.
	HintClass
	// HintManyClasses: a label column chosen by its name or place
	// (Source.LabelAuto) with more than max(10, rows/2) classes: perhaps
	// not a class at all.
	HintManyClasses
	// HintMinusOne: class "-1" beside two or more classes that are
	// non-negative integers: perhaps scikit-learn's mark of unlabelled
	// rows.
	HintMinusOne
)

// ColumnHint says that a column of a data file looks like something it
// was not read as.
type ColumnHint struct {
	Kind     HintKind
	Column   string // the feature column, or the label column (HintManyClasses, HintMinusOne)
	Distinct int    // distinct values (HintRowID, HintClass) or classes (HintManyClasses)
	Rows     int
}

// ColumnHints returns the hints about d's columns: at most five about
// feature columns (HintRowID, HintClass, in column order), then those
// about the label column. Missing values (NaN) are passed over. Only data
// read from a file (Source not nil) get hints. O(rows · features).
func (d *Dataset) ColumnHints() []ColumnHint {
	if d.Source == nil {
		return nil
	}
	var out []ColumnHint
	n, dim := d.X.Dims()
	for j := 0; j < dim && len(out) < 5; j++ {
		distinct := map[float64]bool{}
		integer := true
		for i := 0; i < n && integer; i++ {
			v := d.X.At(i, j)
			if math.IsNaN(v) {
				continue
			}
			if v != math.Trunc(v) {
				integer = false
			}
			if len(distinct) <= n {
				distinct[v] = true
			}
		}
		if !integer {
			continue
		}
		k := len(distinct)
		switch {
		case n >= 20 && k == n:
			out = append(out, ColumnHint{Kind: HintRowID, Column: d.Features[j], Distinct: k, Rows: n})
		case d.LabelName == "" && d.Source.Format != "libsvm" && k >= 2 && k <= 10 && n >= 5*k:
			out = append(out, ColumnHint{Kind: HintClass, Column: d.Features[j], Distinct: k, Rows: n})
		}
	}
	if d.Source.LabelAuto && len(d.Classes) > max(10, n/2) {
		out = append(out, ColumnHint{Kind: HintManyClasses, Column: d.LabelName, Distinct: len(d.Classes), Rows: n})
	}
	minus, others := false, 0
	for _, c := range d.Classes {
		if c == "-1" {
			minus = true
		} else if v, err := strconv.Atoi(c); err == nil && v >= 0 {
			others++
		}
	}
	if minus && others >= 2 {
		out = append(out, ColumnHint{Kind: HintMinusOne, Column: d.LabelName, Distinct: len(d.Classes), Rows: n})
	}
	return out
}
