package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Unlabeled marks a row whose class is unknown in Dataset.Y. It equals
// learner.Unlabeled, so label vectors pass to any learner unchanged (the
// data come first: this package imports no learner).
const Unlabeled = -1

// Dataset is a table of points with optional class labels.
type Dataset struct {
	Name     string     // file name or embedded set name, used in messages
	X        *mat.Dense // n×d features; NaN only at the cells listed in Missing
	Y        []int      // len n: index into Classes, or Unlabeled
	Classes  []string   // class names; numeric names sort numerically, others lexically
	Features []string   // feature (column) names, len d

	// Sets holds the classes of each row of multi-label data (indices into
	// Classes, increasing; nil for a row without labels), nil for
	// single-label data; Y is then the smallest class of each row.
	Sets [][]int

	// LabelName is the column the labels came from ("" when none).
	LabelName string
	// IDName and IDs: the ID column, one string per row (nil when none).
	// Programs carry IDs into their outputs; they are never features.
	IDName string
	IDs    []string
	// Missing lists the missing feature values (X is NaN there) in row
	// order, when the reader was told to keep them
	// (CSVOptions.AllowMissing). Methods that cannot use them call
	// MissingError.
	Missing []Cell
	// Source says how the file was read (nil for embedded and generated sets).
	Source *Source
	// Lines gives the 1-based physical line of each row in the file it
	// was read from (for messages: "data.csv:12"); nil when unknown
	// (embedded and generated sets, sets built by hand).
	Lines []int
}

// Cell is one cell of a data file: row and feature column of X, and the
// 1-based physical line of the file (0 when unknown).
type Cell struct {
	Row, Col, Line int
}

// Len returns the number of rows.
func (d *Dataset) Len() int { r, _ := d.X.Dims(); return r }

// Dim returns the number of features.
func (d *Dataset) Dim() int { _, c := d.X.Dims(); return c }

// Points returns the rows' features, or nil for a nil data set (no test
// set, say).
func (d *Dataset) Points() *mat.Dense {
	if d == nil {
		return nil
	}
	return d.X
}

// Labeled returns the indices of labelled rows in increasing order.
func (d *Dataset) Labeled() []int {
	var idx []int
	for i, y := range d.Y {
		if y != Unlabeled {
			idx = append(idx, i)
		}
	}
	return idx
}

// UnlabeledRows returns the indices of unlabelled rows in increasing order.
func (d *Dataset) UnlabeledRows() []int {
	var idx []int
	for i, y := range d.Y {
		if y == Unlabeled {
			idx = append(idx, i)
		}
	}
	return idx
}

// ErrInconsistent: a Dataset whose parts do not fit together (see Check).
var ErrInconsistent = errors.New("inconsistent dataset")

// Check reports whether d is well formed: X non-nil, len(Y) = rows of X,
// every Y in 0..len(Classes)-1 or Unlabeled, len(Features) = columns of X
// (or no feature names at all), and every X entry finite. Readers and
// generators always return checked sets; Check is for sets built by hand.
func (d *Dataset) Check() error {
	if d.X == nil {
		return fmt.Errorf("dataset %s: %w: nil X", d.Name, ErrInconsistent)
	}
	n, dim := d.X.Dims()
	if len(d.Y) != n {
		return fmt.Errorf("dataset %s: %w: %d labels for %d rows", d.Name, ErrInconsistent, len(d.Y), n)
	}
	for i, y := range d.Y {
		if y != Unlabeled && (y < 0 || y >= len(d.Classes)) {
			return fmt.Errorf("dataset %s: %w: row %d has label %d, %d classes", d.Name, ErrInconsistent, i, y, len(d.Classes))
		}
	}
	if len(d.Features) != 0 && len(d.Features) != dim {
		return fmt.Errorf("dataset %s: %w: %d feature names for %d columns", d.Name, ErrInconsistent, len(d.Features), dim)
	}
	if d.IDs != nil && len(d.IDs) != n {
		return fmt.Errorf("dataset %s: %w: %d IDs for %d rows", d.Name, ErrInconsistent, len(d.IDs), n)
	}
	if d.Lines != nil && len(d.Lines) != n {
		return fmt.Errorf("dataset %s: %w: %d lines for %d rows", d.Name, ErrInconsistent, len(d.Lines), n)
	}
	miss := make(map[[2]int]bool, len(d.Missing))
	for _, c := range d.Missing {
		if c.Row < 0 || c.Row >= n || c.Col < 0 || c.Col >= dim {
			return fmt.Errorf("dataset %s: %w: missing cell (%d, %d) outside %d×%d", d.Name, ErrInconsistent, c.Row, c.Col, n, dim)
		}
		miss[[2]int{c.Row, c.Col}] = true
	}
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			v := d.X.At(i, j)
			if math.IsNaN(v) && miss[[2]int{i, j}] {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("dataset %s: row %d column %d: %w %v", d.Name, i, j, ErrNonFinite, v)
			}
			if miss[[2]int{i, j}] {
				return fmt.Errorf("dataset %s: %w: cell (%d, %d) listed as missing holds %v", d.Name, ErrInconsistent, i, j, v)
			}
		}
	}
	return nil
}

// Clone returns a deep copy of d.
func (d *Dataset) Clone() *Dataset {
	return &Dataset{
		Name:      d.Name,
		X:         mat.DenseCopyOf(d.X),
		Y:         slices.Clone(d.Y),
		Classes:   slices.Clone(d.Classes),
		Features:  slices.Clone(d.Features),
		LabelName: d.LabelName,
		IDName:    d.IDName,
		IDs:       slices.Clone(d.IDs),
		Missing:   slices.Clone(d.Missing),
		Source:    d.Source,
		Sets:      cloneSets(d.Sets),
		Lines:     slices.Clone(d.Lines),
	}
}

func cloneSets(sets [][]int) [][]int {
	if sets == nil {
		return nil
	}
	out := make([][]int, len(sets))
	for i, s := range sets {
		out[i] = slices.Clone(s)
	}
	return out
}

// WithLabeled returns a deep copy of d in which only the rows in idx keep
// their labels; all other rows become Unlabeled. Rows of idx that are
// already unlabelled stay so. It is how a split (EmbeddedSplits,
// ReadSplits) turns a fully labelled benchmark into a semi-supervised
// problem. It panics if an index is out of range.
func (d *Dataset) WithLabeled(idx []int) *Dataset {
	c := d.Clone()
	for i := range c.Y {
		c.Y[i] = Unlabeled
	}
	for i := range c.Sets {
		c.Sets[i] = nil
	}
	for _, i := range idx {
		c.Y[i] = d.Y[i]
		if d.Sets != nil {
			c.Sets[i] = slices.Clone(d.Sets[i])
		}
	}
	return c
}

// Subset returns a deep copy of the given rows of d, in the order given
// (rows may repeat). Classes and Features are kept whole, so label indices
// keep their meaning. It panics if a row is out of range.
func (d *Dataset) Subset(rows []int) *Dataset {
	_, dim := d.X.Dims()
	X := mat.NewDense(max(len(rows), 1), dim, nil)
	y := make([]int, len(rows))
	var sets [][]int
	if d.Sets != nil {
		sets = make([][]int, len(rows))
	}
	var ids []string
	if d.IDs != nil {
		ids = make([]string, len(rows))
	}
	var lines []int
	if d.Lines != nil {
		lines = make([]int, len(rows))
	}
	var byRow map[int][]Cell
	if len(d.Missing) > 0 {
		byRow = map[int][]Cell{}
		for _, c := range d.Missing {
			byRow[c.Row] = append(byRow[c.Row], c)
		}
	}
	var missing []Cell
	for k, i := range rows {
		copy(X.RawRowView(k), d.X.RawRowView(i))
		y[k] = d.Y[i]
		if ids != nil {
			ids[k] = d.IDs[i]
		}
		if lines != nil {
			lines[k] = d.Lines[i]
		}
		if sets != nil {
			sets[k] = slices.Clone(d.Sets[i])
		}
		for _, c := range byRow[i] {
			c.Row = k
			missing = append(missing, c)
		}
	}
	if len(rows) == 0 {
		X = &mat.Dense{} // gonum has no 0-row Dense; an empty one
	}
	return &Dataset{
		Name:      d.Name,
		X:         X,
		Y:         y,
		Classes:   slices.Clone(d.Classes),
		Features:  slices.Clone(d.Features),
		LabelName: d.LabelName,
		IDName:    d.IDName,
		IDs:       ids,
		Missing:   missing,
		Source:    d.Source,
		Sets:      sets,
		Lines:     lines,
	}
}

// MagnitudeLimit is the largest |value| of n points with d features whose
// sums of squares (squared distances, inner products, variances: at most
// 4·d·n·max²) stay finite in float64: √(MaxFloat64 / (4·d·n)), about
// 1.3e154 / √(d·n).
func MagnitudeLimit(d, n int) float64 {
	return math.Sqrt(math.MaxFloat64 / (4 * float64(max(d, 1)) * float64(max(n, 1))))
}

// CheckMagnitude returns a *ParseError wrapping ErrMagnitude for the first
// feature value (in row order) with |v| > limit, naming the file's line
// (Lines) and the feature; nil when every value is within. Missing values
// (NaN) are not checked.
func (d *Dataset) CheckMagnitude(limit float64) error {
	n, dim := d.X.Dims()
	for i := 0; i < n; i++ {
		for j, v := range d.X.RawRowView(i)[:dim] {
			if math.Abs(v) > limit {
				return d.MagnitudeError(i, j, fmt.Sprintf("%g", v), limit)
			}
		}
	}
	return nil
}

// MagnitudeError is the *ParseError wrapping ErrMagnitude of the value
// described by what (its text) at row i, feature j of d, beyond limit:
// the file, the row's line (or the row when Lines is nil) and the
// feature's name.
func (d *Dataset) MagnitudeError(i, j int, what string, limit float64) error {
	pe := &ParseError{File: d.Name, Err: fmt.Errorf("%w: %s: sums of squares of such values overflow float64 (limit ±%.3g here)", ErrMagnitude, what, limit)}
	if d.Lines != nil {
		pe.Line = d.Lines[i]
	} else {
		pe.Err = fmt.Errorf("row %d (counting from 0): %w", i, pe.Err)
	}
	pe.Column = fmt.Sprintf("f%d", j+1)
	if j < len(d.Features) {
		pe.Column = d.Features[j]
	}
	return pe
}

// ErrMagnitude: a finite feature value so large that the sums of squares
// of the methods overflow float64 (see MagnitudeLimit).
var ErrMagnitude = errors.New("value too large")

// ClassCounts returns the number of labelled rows of each class.
func (d *Dataset) ClassCounts() []int {
	c := make([]int, len(d.Classes))
	for _, y := range d.Y {
		if y >= 0 && y < len(c) {
			c[y]++
		}
	}
	return c
}

// LabelNames returns the class name of each row, "" for Unlabeled.
func (d *Dataset) LabelNames() []string {
	s := make([]string, len(d.Y))
	for i, y := range d.Y {
		if y != Unlabeled {
			s[i] = d.Classes[y]
		}
	}
	return s
}

// WriteCSV writes d in the format ReadCSV reads: a header of the feature
// names (f1..fd when d.Features is empty) and "label", then one row per
// point with values in shortest round-trip form (strconv 'g', -1) and the
// class name, or an empty label cell for an unlabelled row. Reading the
// output back with ReadCSV gives d again (class names that are numbers are
// canonicalised). A feature named "label" gives ErrDuplicateColumn.
func (d *Dataset) WriteCSV(w io.Writer) error {
	n, dim := d.X.Dims()
	feat := d.Features
	if len(feat) == 0 {
		feat = make([]string, dim)
		for j := range feat {
			feat[j] = "f" + strconv.Itoa(j+1)
		}
	}
	if slices.Contains(feat, "label") {
		return fmt.Errorf("dataset %s: %w: a feature is named \"label\"", d.Name, ErrDuplicateColumn)
	}
	cw := csv.NewWriter(w)
	rec := make([]string, dim+1)
	copy(rec, feat)
	rec[dim] = "label"
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			rec[j] = strconv.FormatFloat(d.X.At(i, j), 'g', -1, 64)
		}
		rec[dim] = ""
		if i < len(d.Y) && d.Y[i] != Unlabeled {
			rec[dim] = d.Classes[d.Y[i]]
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
