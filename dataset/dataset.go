package dataset

import "gonum.org/v1/gonum/mat"

// Unlabeled marks a row whose class is unknown in Dataset.Y.
const Unlabeled = -1

// Dataset is a table of points with optional class labels.
type Dataset struct {
	Name     string     // file name or embedded set name, used in messages
	X        *mat.Dense // n×d features
	Y        []int      // len n: index into Classes, or Unlabeled
	Classes  []string   // class names; numeric names sort numerically, others lexically
	Features []string   // feature (column) names, len d
}

// Len returns the number of rows.
func (d *Dataset) Len() int { r, _ := d.X.Dims(); return r }

// Dim returns the number of features.
func (d *Dataset) Dim() int { _, c := d.X.Dims(); return c }

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
