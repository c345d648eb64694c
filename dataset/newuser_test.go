package dataset

import (
	"errors"
	"strings"
	"testing"
)

// A file whose class column has another name (covtype's Cover_Type, a
// wine file's cultivar) sits last: the no-label error names the last
// column even when the header is too long to list.
func TestNoLabelErrorNamesLastColumn(t *testing.T) {
	head := "Id,e0,e1,e2,e3,e4,e5,e6,e7,e8,e9,Cover_Type"
	_, err := ReadCSV(strings.NewReader(head+"\n1,2,3,4,5,6,7,8,9,10,11,3\n"), "cov.csv", CSVOptions{})
	if !errors.Is(err, ErrNoLabelColumn) {
		t.Fatalf("err = %v, want ErrNoLabelColumn", err)
	}
	want := `cov.csv:1: no such label column: none is named label, class, target or y (header has "Id", "e0", "e1", "e2", "e3", "e4", "e5", "e6", ... (12 columns), "Cover_Type")`
	if err.Error() != want {
		t.Errorf("\n got %s\nwant %s", err, want)
	}
	// Nine names: all listed, the last once.
	if got := listNames(strings.Split("a,b,c,d,e,f,g,h,i", ","), 8); got != `"a", "b", "c", "d", "e", "f", "g", "h", "i"` {
		t.Errorf("listNames(9 names) = %s", got)
	}
}

// A row with several text feature columns: the error is at the first, and
// names the others (not the label, not numbers, not missing markers).
func TestNotNumberNamesOtherTextColumns(t *testing.T) {
	in := "pid,date,x,note,y2,class\nP1,2020-01-01,1.5,\"ok, seen\",NA,a\nP2,2020-01-02,2,b,3,b\n"
	_, err := ReadCSV(strings.NewReader(in), "p.csv", CSVOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrNotNumber) {
		t.Fatalf("err = %v", err)
	}
	if pe.Line != 2 || pe.Column != "pid" || strings.Join(pe.TextColumns, "|") != "date|note" || pe.LabelColumn != "class" {
		t.Errorf("line %d column %q text %q label %q, want 2 pid date|note class", pe.Line, pe.Column, pe.TextColumns, pe.LabelColumn)
	}
	if err.Error() != `p.csv:2: column "pid": not a number "P1"` {
		t.Errorf("message changed: %s", err)
	}
}
