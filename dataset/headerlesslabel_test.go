package dataset

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// In a file without a header the last column of text is the label even
// when the first rows are unlabelled: the detection looks past "?" and
// empty cells to the first labelled one.
func TestHeaderlessLabelAfterUnlabelledRows(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      CSVOptions
	}{
		{"question marks", "5.1,3.5,?\n4.9,3.0,?\n7.0,3.2,versicolor\n6.3,3.3,virginica\n", CSVOptions{NoHeader: true}},
		{"question marks, header sniffed", "5.1,3.5,?\n4.9,3.0,?\n7.0,3.2,versicolor\n6.3,3.3,virginica\n", CSVOptions{}},
		{"empty cells", "5.1,3.5,\n4.9,3.0,\n7.0,3.2,versicolor\n6.3,3.3,virginica\n", CSVOptions{NoHeader: true}},
		{"NA", "5.1,3.5,NA\n4.9,3.0,NA\n7.0,3.2,versicolor\n6.3,3.3,virginica\n", CSVOptions{}},
		{"own marker", "5.1,3.5,-1\n4.9,3.0,-1\n7.0,3.2,versicolor\n6.3,3.3,virginica\n", CSVOptions{NoHeader: true, Unlabeled: []string{"-1"}}},
	} {
		d := mustRead(t, tc.in, tc.opt)
		if d.LabelName != "c3" || !d.Source.LabelAuto || d.Dim() != 2 || d.Len() != 4 ||
			!slices.Equal(d.Classes, []string{"versicolor", "virginica"}) || !slices.Equal(d.Y, []int{Unlabeled, Unlabeled, 0, 1}) {
			t.Errorf("%s: label %q auto %v, %d rows, dim %d, classes %v, Y %v", tc.name, d.LabelName, d.Source.LabelAuto, d.Len(), d.Dim(), d.Classes, d.Y)
		}
	}
}

// The first labelled cell decides: a number there makes the last column a
// feature (with missing values), as does a column with no value at all.
func TestHeaderlessLastColumnNotText(t *testing.T) {
	for _, in := range []string{
		"5.1,3.5,?\n4.9,3.0,?\n7.0,3.2,2.5\n6.3,3.3,1.5\n",
		"5.1,3.5,?\n4.9,3.0,\n7.0,3.2,?\n",
	} {
		_, err := ReadCSV(strings.NewReader(in), "t.csv", CSVOptions{NoHeader: true})
		if !errors.Is(err, ErrNoLabelColumn) {
			t.Errorf("%q: %v, want ErrNoLabelColumn", in, err)
			continue
		}
		// one instruction: the CLI adds how to name the column
		if msg := err.Error(); strings.Contains(msg, "name") || !strings.Contains(msg, "c1..c3") {
			t.Errorf("%q: message %q", in, msg)
		}
		d := mustRead(t, in, CSVOptions{NoHeader: true, LabelOptional: true, AllowMissing: true})
		if d.LabelName != "" || d.Dim() != 3 {
			t.Errorf("%q optional: label %q dim %d", in, d.LabelName, d.Dim())
		}
	}
}

// The rows read ahead are still read in order: their errors and their
// line numbers are those of a plain read.
func TestHeaderlessLookaheadErrors(t *testing.T) {
	_, err := ReadCSV(strings.NewReader("1,2,?\n3,4\n5,6,a\n7,8,b\n"), "t.csv", CSVOptions{NoHeader: true})
	var pe *ParseError
	if !errors.Is(err, ErrRagged) || !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("ragged row read ahead: %v", err)
	}
	_, err = ReadCSV(strings.NewReader("1,2,?\n3,4,?\n5,6,\"a\n"), "t.csv", CSVOptions{NoHeader: true})
	if !errors.Is(err, ErrSyntax) || !errors.As(err, &pe) || pe.Line != 3 {
		t.Errorf("syntax error read ahead: %v", err)
	}
}
