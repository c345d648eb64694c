package dataset

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mustRead(t *testing.T, in string, opt CSVOptions) *Dataset {
	t.Helper()
	d, err := ReadCSV(strings.NewReader(in), "t.csv", opt)
	if err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	if err := d.Check(); err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	return d
}

// A class column not named "label" is found by its name, not read as a
// feature.
func TestAutoLabelColumn(t *testing.T) {
	for _, name := range []string{"target", "Class", "y", "LABEL"} {
		d := mustRead(t, "a,"+name+",b\n1,0,2\n3,1,4\n", CSVOptions{})
		if d.LabelName != name || d.Dim() != 2 || !slices.Equal(d.Features, []string{"a", "b"}) || !slices.Equal(d.Y, []int{0, 1}) {
			t.Errorf("%s: label %q features %v Y %v", name, d.LabelName, d.Features, d.Y)
		}
		if !d.Source.LabelAuto {
			t.Errorf("%s: LabelAuto not set", name)
		}
	}
	// x and y are coordinates
	d0 := mustRead(t, "x,y\n1,0\n3,1\n", CSVOptions{LabelOptional: true})
	if d0.LabelName != "" || d0.Dim() != 2 {
		t.Errorf("x,y: label %q", d0.LabelName)
	}
	// "label" beats "class"
	d := mustRead(t, "class,label\n1,a\n2,b\n", CSVOptions{})
	if d.LabelName != "label" || d.Features[0] != "class" || d.Source.LabelAuto {
		t.Errorf("label and class: %q %v", d.LabelName, d.Features)
	}
	// no label: an error, or features only when optional
	if _, err := ReadCSV(strings.NewReader("a,b\n1,2\n3,4\n"), "t", CSVOptions{}); !errors.Is(err, ErrNoLabelColumn) {
		t.Errorf("no label: %v", err)
	}
	d = mustRead(t, "a,b\n1,2\n3,4\n", CSVOptions{LabelOptional: true})
	if d.LabelName != "" || d.Dim() != 2 || len(d.Labeled()) != 0 {
		t.Errorf("optional: %q dim %d", d.LabelName, d.Dim())
	}
}

func TestHeaderDetection(t *testing.T) {
	// headerless numbers: the first row is data
	d := mustRead(t, "7,2,3\n4,5,6\n", CSVOptions{LabelOptional: true})
	if d.Len() != 2 || d.Source.Header || !d.Source.HeaderSniffed || !slices.Equal(d.Features, []string{"c1", "c2", "c3"}) {
		t.Errorf("headerless: %d rows, header %v, features %v", d.Len(), d.Source.Header, d.Features)
	}
	// UCI iris.data: headerless, text class in the last column becomes the label
	d = mustRead(t, "5.1,3.5,Iris-setosa\n7.0,3.2,Iris-versicolor\n6.3,3.3,Iris-virginica\n", CSVOptions{})
	if d.Len() != 3 || d.LabelName != "c3" || !d.Source.LabelAuto || d.Dim() != 2 || d.Classes[2] != "Iris-virginica" {
		t.Errorf("iris.data: %d rows, label %q, dim %d, classes %v", d.Len(), d.LabelName, d.Dim(), d.Classes)
	}
	// pandas' default column names 0..d-1 are a header
	d = mustRead(t, "0,1,2\n4,5,6\n7,8,9\n", CSVOptions{LabelOptional: true})
	if d.Len() != 2 || !d.Source.Header || d.Features[0] != "0" {
		t.Errorf("pandas header: %d rows %v", d.Len(), d.Features)
	}
	// forced either way; positions name columns
	d = mustRead(t, "0,1,2\n4,5,6\n", CSVOptions{NoHeader: true, Label: "3"})
	if d.Len() != 2 || d.LabelName != "c3" || d.Classes[0] != "2" {
		t.Errorf("NoHeader: %d rows label %q classes %v", d.Len(), d.LabelName, d.Classes)
	}
	d = mustRead(t, "1,2\n3,4\n5,6\n", CSVOptions{Header: true, LabelOptional: true})
	if d.Len() != 2 || d.Features[1] != "2" {
		t.Errorf("Header: %d rows, %v", d.Len(), d.Features)
	}
	// pandas' index column and R's row names have an empty name: row IDs
	d = mustRead(t, ",a,label\n0,1,x\n1,2,y\n", CSVOptions{})
	if d.IDName != "rowname" || !d.Source.IDAuto || d.Dim() != 1 || !slices.Equal(d.IDs, []string{"0", "1"}) {
		t.Errorf("pandas index: id %q features %v", d.IDName, d.Features)
	}
	d = mustRead(t, "\"\",\"a\",\"b\"\n\"r1\",1,2\n\"r2\",3,4\n", CSVOptions{LabelOptional: true})
	if d.IDName != "rowname" || d.Dim() != 2 || d.IDs[1] != "r2" {
		t.Errorf("R row names: id %q features %v", d.IDName, d.Features)
	}
	// unless told otherwise
	d = mustRead(t, ",a,label\n0,1,x\n1,2,y\n", CSVOptions{Ignore: []string{"rowname"}})
	if d.IDName != "" || d.Dim() != 1 {
		t.Errorf("ignored row names: id %q features %v", d.IDName, d.Features)
	}
}

func TestColumnRoles(t *testing.T) {
	in := "id,kind,a,b,c,d,class\nm1,x,1,2,3,4,p\nm2,y,5,6,7,8,q\n"
	d := mustRead(t, in, CSVOptions{ID: "id", Ignore: []string{"kind"}})
	if !slices.Equal(d.Features, []string{"a", "b", "c", "d"}) || !slices.Equal(d.IDs, []string{"m1", "m2"}) || d.IDName != "id" || !slices.Equal(d.Source.Ignored, []string{"kind"}) {
		t.Errorf("id+ignore: features %v ids %v ignored %v", d.Features, d.IDs, d.Source.Ignored)
	}
	d = mustRead(t, in, CSVOptions{ID: "ID", Features: []string{"b..d", "a"}})
	if !slices.Equal(d.Features, []string{"b", "c", "d", "a"}) || d.X.At(1, 3) != 5 || !slices.Equal(d.Source.Ignored, []string{"kind"}) {
		t.Errorf("features range: %v %v ignored %v", d.Features, d.X.RawRowView(1), d.Source.Ignored)
	}
	d = mustRead(t, in, CSVOptions{ID: "1", Features: []string{"3..6"}})
	if !slices.Equal(d.Features, []string{"a", "b", "c", "d"}) {
		t.Errorf("positions: %v", d.Features)
	}
	// sub slices keep IDs
	if s := d.Subset([]int{1}); !slices.Equal(s.IDs, []string{"m2"}) {
		t.Errorf("Subset IDs %v", s.IDs)
	}
	for _, tc := range []struct {
		opt  CSVOptions
		want error
		msg  string
	}{
		{CSVOptions{ID: "nope"}, ErrUnknownColumn, `t.csv:1: column "nope": no such column (ID column; header has "id", "kind", "a", "b", "c", "d", "class")`},
		{CSVOptions{ID: "class"}, ErrRoles, `t.csv:1: column "class": conflicting column roles: the ID column is the label column`},
		{CSVOptions{ID: "id", Features: []string{"d..a"}}, ErrRoles, `t.csv:1: column "d..a": conflicting column roles: feature range "d..a" runs backwards (column 6 to 3)`},
		{CSVOptions{ID: "id", Ignore: []string{"class"}}, ErrRoles, `t.csv:1: column "class": conflicting column roles: an ignored column cannot be the label or ID column`},
		{CSVOptions{ID: "id", Ignore: []string{"kind", "a", "b", "c", "d"}}, ErrNoFeatures, `t.csv:1: no feature columns: every column is the label, the ID or ignored (header has "id", "kind", "a", "b", "c", "d", "class")`},
		// a text column is not silently skipped: the error names it
		{CSVOptions{ID: "id"}, ErrNotNumber, `t.csv:2: column "kind": not a number "x"`},
	} {
		_, err := ReadCSV(strings.NewReader(in), "t.csv", tc.opt)
		if !errors.Is(err, tc.want) || err.Error() != tc.msg {
			t.Errorf("%+v:\n got %v\nwant %s", tc.opt, err, tc.msg)
		}
	}
}

func TestSeparators(t *testing.T) {
	for _, tc := range []struct {
		in, sep string
		want    []float64
	}{
		{"a\tb\tlabel\n1.5\t2\tx\n3\t4\ty\n", "\t", []float64{1.5, 2, 3, 4}},
		{"a;b;label\n1,5;2;x\n3;4,25;y\n", ";", []float64{1.5, 2, 3, 4.25}},
		{"a b  label\n 1.5 2 x\n3\t4 y\n", " ", []float64{1.5, 2, 3, 4}},
		{"a|b|label\n1.5|2|x\n3|4|y\n", "|", []float64{1.5, 2, 3, 4}},
		{"a,b,label\n\"1.5\",2,\"x;y\"\n3,4,y\n", ",", []float64{1.5, 2, 3, 4}},
	} {
		d := mustRead(t, tc.in, CSVOptions{})
		if d.Source.Sep != tc.sep || !d.Source.SepSniffed || !slices.Equal(d.X.RawMatrix().Data, tc.want) || d.LabelName != "label" {
			t.Errorf("%q: sep %q X %v", tc.in, d.Source.Sep, d.X.RawMatrix().Data)
		}
	}
	d := mustRead(t, "a;b;label\n1,5;2;x\n3;4,25;y\n", CSVOptions{})
	if d.Source.DecimalCommas != 2 {
		t.Errorf("decimal commas %d", d.Source.DecimalCommas)
	}
	// given: a comma-separated file read with tabs is one column per line
	d = mustRead(t, "a\tb,c\tlabel\n1\t2\tx\n3\t4\ty\n", CSVOptions{Sep: "tab"})
	if !slices.Equal(d.Features, []string{"a", "b,c"}) {
		t.Errorf("--sep tab: %v", d.Features)
	}
	if _, err := ReadCSV(strings.NewReader("a\n"), "t", CSVOptions{Sep: "colon"}); !errors.Is(err, ErrBadSep) {
		t.Errorf("bad sep: %v", err)
	}
}

// Bare CR line ends (classic Mac OS) are lines, not one long header.
func TestCROnlyLineEnds(t *testing.T) {
	d := mustRead(t, "a,b,label\r1,2,x\r3,4,y\r", CSVOptions{})
	if d.Len() != 2 || d.Dim() != 2 || !d.Source.CROnly {
		t.Errorf("CR only: %d×%d", d.Len(), d.Dim())
	}
	l, err := ReadLIBSVM(strings.NewReader("1 1:2\r2 2:3\r"), "t.svm")
	if err != nil || l.Len() != 2 || l.X.At(1, 1) != 3 {
		t.Errorf("LIBSVM CR only: %v", err)
	}
}

// Labels are strings: distinct numbers stay distinct however long.
func TestLabelsExact(t *testing.T) {
	d := mustRead(t, "x,label\n1,12345678901234567\n2,12345678901234568\n3,100000000000000000000000\n4,1.0\n5,+1\n6,0.10\n", CSVOptions{})
	want := []string{"0.1", "1", "12345678901234567", "12345678901234568", "100000000000000000000000"}
	if !slices.Equal(d.Classes, want) || !slices.Equal(d.Y, []int{2, 3, 4, 1, 1, 0}) {
		t.Errorf("classes %q Y %v, want %q", d.Classes, d.Y, want)
	}
	l, err := ReadLIBSVM(strings.NewReader("12345678901234567 1:1\n12345678901234568 1:2\n"), "t.svm")
	if err != nil || len(l.Classes) != 2 {
		t.Errorf("LIBSVM long labels: %v %v", err, l.Classes)
	}
}

func TestUnlabeledMarkers(t *testing.T) {
	in := "x,label\n1,0\n2,1\n3,-1\n4,NA\n5,?\n6,\n"
	d := mustRead(t, in, CSVOptions{})
	if !slices.Equal(d.Classes, []string{"-1", "0", "1"}) || len(d.UnlabeledRows()) != 3 {
		t.Errorf("default: classes %v, %d unlabelled", d.Classes, len(d.UnlabeledRows()))
	}
	d = mustRead(t, in, CSVOptions{Unlabeled: []string{"-1", "NA"}})
	if !slices.Equal(d.Classes, []string{"0", "1", "?"}) || !slices.Equal(d.UnlabeledRows(), []int{2, 3, 5}) {
		t.Errorf("-1,NA: classes %v, unlabelled %v", d.Classes, d.UnlabeledRows())
	}
	l, err := readLIBSVM(strings.NewReader("1 1:1\n-1 1:2\n2 1:3\n"), "t.svm", CSVOptions{Unlabeled: []string{"-1"}})
	if err != nil || !slices.Equal(l.UnlabeledRows(), []int{1}) {
		t.Errorf("LIBSVM -1: %v", err)
	}
}

func TestLIBSVMZeroBased(t *testing.T) {
	d, err := ReadLIBSVM(strings.NewReader("1 0:1 2:3\n2 1:2\n"), "t.svm")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Source.ZeroBased || d.Dim() != 3 || d.Features[0] != "f0" || !slices.Equal(d.X.RawMatrix().Data, []float64{1, 0, 3, 0, 2, 0}) {
		t.Errorf("0-based: dim %d features %v X %v", d.Dim(), d.Features, d.X.RawMatrix().Data)
	}
	d, err = ReadLIBSVM(strings.NewReader("1 1:1 3:3\n2 2:2\n"), "t.svm")
	if err != nil || d.Source.ZeroBased || d.Dim() != 3 || d.X.At(0, 2) != 3 {
		t.Errorf("1-based: %v", err)
	}
}

func TestMissingValues(t *testing.T) {
	in := "a,b,label\n1,,x\n2,NA,y\n?,3,x\n4,NaN,y\n5,6,x\n"
	if _, err := ReadCSV(strings.NewReader(in), "m.csv", CSVOptions{}); !errors.Is(err, ErrMissing) || err.Error() != `m.csv:2: column "b": missing value: empty cell` {
		t.Errorf("not allowed: %v", err)
	}
	d := mustRead(t, in, CSVOptions{AllowMissing: true})
	want := []Cell{{0, 1, 2}, {1, 1, 3}, {2, 0, 4}, {3, 1, 5}}
	if !slices.Equal(d.Missing, want) {
		t.Errorf("Missing %v, want %v", d.Missing, want)
	}
	nan := 0
	for _, v := range d.X.RawMatrix().Data {
		if math.IsNaN(v) {
			nan++
		}
	}
	if nan != 4 || d.X.At(4, 1) != 6 {
		t.Errorf("%d NaN", nan)
	}
	err := d.MissingError("cluster", "use rbf-missing")
	if !errors.Is(err, ErrMissing) || err.Error() != `t.csv: missing value: 4 missing values (empty, NA, ? or NaN cells) in 2 of 2 columns, first at line 2 column "b", line 3 column "b", line 4 column "a", …: cluster cannot use them; use rbf-missing` {
		t.Errorf("MissingError: %v", err)
	}
	s := d.Subset([]int{4, 2})
	if !slices.Equal(s.Missing, []Cell{{1, 0, 4}}) || s.Check() != nil {
		t.Errorf("Subset missing %v", s.Missing)
	}
	// a NaN not listed is still an inconsistency
	c := d.Clone()
	c.Missing = c.Missing[1:]
	if err := c.Check(); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Check: %v", err)
	}
}

// The shared mice protein file reads with explicit roles: 1,396 missing
// cells kept, 77 features, 8 classes, IDs.
func TestMiceProtein(t *testing.T) {
	p := filepath.Join("..", "..", "shared", "data", "mice_protein.csv")
	if _, err := os.Stat(p); err != nil {
		t.Skip("shared data not here")
	}
	d, err := Load(p, CSVOptions{Label: "class", ID: "MouseID", Ignore: []string{"Genotype", "Treatment", "Behavior"}, AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1080 || d.Dim() != 77 || len(d.Classes) != 8 || len(d.Missing) != 1396 || d.IDs[0] != "309_1" {
		t.Errorf("%d×%d, %d classes, %d missing, id %q", d.Len(), d.Dim(), len(d.Classes), len(d.Missing), d.IDs[0])
	}
}
