package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// writeText writes text to a file name in a temporary directory.
func writeText(t *testing.T, name, text string) string {
	return writeTemp(t, name, []byte(text))
}

// Load reports how the file was read (before filling: the missing cell
// is counted), how it was filled, and prepares the data: the filled value
// is the column's mean of the other rows, and std scaling leaves each
// column with mean 0.
func TestOptionsLoadReport(t *testing.T) {
	path := writeText(t, "d.csv", "id,a,b,label\nr1,1,10,x\nr2,,20,y\nr3,3,30,?\nr4,5,40,x\n")
	d, rep, err := Options{Path: path, ID: "id", Prep: Prep{Impute: "mean", Scale: "std"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := "data: " + path + ": separator comma (found; --sep to set), a header row, 4 rows\n" +
		`  label     column "label": 2 classes ("x", "y"); unlabelled rows marked by an empty cell, "?" or "NA": 1` + "\n" +
		`  id        column "id" (in every output file)` + "\n" +
		`  features  2: "a", "b"` + "\n" +
		"  missing   1 values (empty, NA, ? or NaN) in 1 columns\n"
	if rep.Description != want {
		t.Errorf("description\n%s\nwant\n%s", rep.Description, want)
	}
	if w := "  imputed   1 missing values in 1 columns by each column's mean (--impute mean)\n"; rep.Imputation != w {
		t.Errorf("imputation %q, want %q", rep.Imputation, w)
	}
	if rep.Notices(false) != want+rep.Imputation || rep.Notices(true) != "" {
		t.Errorf("notices %q, quiet %q", rep.Notices(false), rep.Notices(true))
	}
	if rep.Imputed != 1 || rep.Scaler == nil || len(d.Missing) != 0 {
		t.Errorf("prepared %+v, missing %v", rep.Prepared, d.Missing)
	}
	// Column a is 1, 3, 3, 5 once filled (mean of 1, 3, 5): scaled, the
	// filled row equals row 3 and the column sums to 0.
	var sum float64
	for i := 0; i < 4; i++ {
		sum += d.X.At(i, 0)
	}
	if d.X.At(1, 0) != d.X.At(2, 0) || sum > 1e-12 || sum < -1e-12 {
		t.Errorf("column a scaled %v %v %v %v", d.X.At(0, 0), d.X.At(1, 0), d.X.At(2, 0), d.X.At(3, 0))
	}
	// The scaler fills and scales new points as the data: a new point
	// with a missing a lands where the filled row did.
	newPath := writeText(t, "new.csv", "id,a,b\nn1,,20\n")
	o := Options{Path: path, ID: "id", Prep: Prep{Impute: "mean", Scale: "std"}}
	nd, err := o.LoadNew(newPath, d, rep.Scaler)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rep.Scaler.Transform(nd.X, nd.X); err != nil {
		t.Fatal(err)
	}
	if nd.X.At(0, 0) != d.X.At(1, 0) || nd.X.At(0, 1) != d.X.At(1, 1) {
		t.Errorf("new point %v %v, want row 2's %v %v", nd.X.At(0, 0), nd.X.At(0, 1), d.X.At(1, 0), d.X.At(1, 1))
	}
}

// Without imputation, missing values are refused naming the method and
// the remedy; the report still describes the file.
func TestOptionsLoadMissing(t *testing.T) {
	path := writeText(t, "d.csv", "a,b,label\n1,,x\n2,3,y\n4,5,x\n")
	_, rep, err := Options{Path: path, Prep: Prep{Scale: "none", MissingHint: "fill them"}}.Load()
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "this command") || !strings.Contains(err.Error(), "fill them") {
		t.Errorf("error %v", err)
	}
	if !strings.Contains(rep.Description, "  missing   1 values") || rep.Imputation != "" {
		t.Errorf("report %+v", rep)
	}
}

// The options' mistakes are sentinel errors, and a reader's error gets
// the remedy naming every text column.
func TestOptionsLoadErrors(t *testing.T) {
	if _, _, err := (Options{Path: "iris", Sep: "colon"}).Load(); !errors.Is(err, ErrBadSep) || !errors.Is(err, ErrOption) || !strings.HasPrefix(err.Error(), "--sep: ") {
		t.Errorf("sep: %v", err)
	}
	if _, _, err := (Options{Path: "iris", ID: "x"}).Load(); !errors.Is(err, ErrFileOption) || !errors.Is(err, ErrOption) || err.Error() != "--id applies to data files, not the embedded set iris" {
		t.Errorf("embedded with --id: %v", err)
	}
	if _, _, err := (Options{Path: filepath.Join(t.TempDir(), "none.csv")}).Load(); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "embedded sets: ") {
		t.Errorf("no file: %v", err)
	}
	if _, _, err := (Options{Path: "embedded:iris", Prep: Prep{Scale: "log"}}).Load(); !errors.Is(err, ErrUnknownScale) || !errors.Is(err, ErrOption) || !strings.HasPrefix(err.Error(), "--scale: ") {
		t.Errorf("scale: %v", err)
	}
	if _, _, err := (Options{Path: "iris", Prep: Prep{Impute: "mode"}}).Load(); !errors.Is(err, ErrUnknownImpute) || !errors.Is(err, ErrOption) || !strings.HasPrefix(err.Error(), "--impute: ") {
		t.Errorf("impute: %v", err)
	}
	path := writeText(t, "t.csv", "pid,date,a,note,dx\np1,2020-01-01,1,ok,sick\np2,2020-01-02,2,ok,well\n")
	_, _, err := Options{Path: path, LabelOptional: true, Prep: Prep{Scale: "none"}}.Load()
	want := `columns "pid", "date", "note" and "dx" hold text on that line: give each a role (--id NAME keeps one as row IDs, --ignore A,B skips columns, --label NAME makes one the classes), e.g. --id pid --ignore date,note --label dx`
	if !errors.Is(err, ErrNotNumber) || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("text columns: %v\nwant suffix %s", err, want)
	}
	_, _, err = Options{Path: path, ID: "pid", Ignore: "date,note", Label: "dx", Prep: Prep{Scale: "none"}}.Load()
	if err != nil {
		t.Errorf("with the suggested roles: %v", err)
	}
}

// An embedded set is read as the file it ships as.
func TestOptionsLoadEmbedded(t *testing.T) {
	d, rep, err := Options{Path: "iris", Prep: Prep{Scale: "none"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	e, _ := Embedded("iris")
	if !strings.HasPrefix(rep.Description, "data: iris: separator comma") || rep.Warnings != nil || d.Len() != e.Len() || d.X.At(7, 2) != e.X.At(7, 2) {
		t.Errorf("iris: %+v", rep)
	}
}

// Warnings word each column hint with the flags acting on it.
func TestWarnings(t *testing.T) {
	var b strings.Builder
	b.WriteString("n,x,label\n")
	for i := 0; i < 30; i++ {
		b.WriteString(strings.Join([]string{strconv.Itoa(i), strconv.Itoa(i % 3 * 7), []string{"-1", "0", "1"}[i%3]}, ",") + "\n")
	}
	d, rep, err := Options{Path: writeText(t, "w.csv", b.String()), Prep: Prep{Scale: "none"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`feature column "n" looks like a row ID (30 distinct integers, one per row): --id n keeps it as IDs, --ignore n drops it`,
		`class "-1" is taken as a class; if it marks unlabelled rows (scikit-learn's convention), add --unlabeled-marker -1`,
	}
	if quiet := rep.Notices(true); quiet != "warning: "+want[0]+"\nwarning: "+want[1]+"\n" {
		t.Errorf("quiet notices %q", quiet)
	}
	if strings.Join(rep.Warnings, "\n") != strings.Join(want, "\n") || len(d.Warnings()) != 2 {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(rep.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

// WriteLabels writes row[,ID],column with the IDs quoted as CSV needs,
// and reads back.
func TestWriteLabels(t *testing.T) {
	d := &Dataset{IDName: "patient id", IDs: []string{"a", "b,c"}}
	var b strings.Builder
	if err := d.WriteLabels(&b, "cluster", []int{1, 0}); err != nil {
		t.Fatal(err)
	}
	if want := "row,patient id,cluster\n0,a,1\n1,\"b,c\",0\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
	b.Reset()
	(&Dataset{}).WriteLabels(&b, "label", []int{2})
	if b.String() != "row,label\n0,2\n" {
		t.Errorf("no IDs: %q", b.String())
	}
}

// An embedded set's own label column may be named (by name in any case,
// or by position), giving the set as Embedded does; another column, no
// column, none and the options of files are ErrFileOption.
func TestLoadEmbeddedOptions(t *testing.T) {
	want, err := Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"", "label", "Label", "242", " label "} {
		d, err := LoadEmbedded("embedded:usps", CSVOptions{Label: label, AllowMissing: true})
		if err != nil || !reflect.DeepEqual(d, want) {
			t.Errorf("--label %q: %v", label, err)
		}
	}
	const usps = ": the embedded set usps (columns f1, f2, …, f241, label) has its labels in column label (242): --label can name only that column"
	for _, c := range []struct {
		opt  CSVOptions
		want string
	}{
		{CSVOptions{Label: "f241"}, "--label f241" + usps},
		{CSVOptions{Label: "243"}, "--label 243" + usps},
		{CSVOptions{Label: "class"}, "--label class" + usps},
		{CSVOptions{Label: "none", NoLabel: true}, "--label none" + usps},
		{CSVOptions{NoLabel: true}, "--label none" + usps},
		{CSVOptions{Label: "label", Ignore: []string{"f1"}}, "--ignore applies to data files, not the embedded set usps"},
		{CSVOptions{Unlabeled: []string{""}}, "--unlabeled-marker applies to data files, not the embedded set usps"},
	} {
		if _, err := LoadEmbedded("usps", c.opt); !errors.Is(err, ErrFileOption) || !errors.Is(err, ErrOption) || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.opt, err, c.want)
		}
	}
	if _, err := LoadEmbedded("reuters10", CSVOptions{Label: "label"}); !errors.Is(err, ErrFileOption) ||
		err.Error() != "--label label: the embedded set reuters10 (LIBSVM text, features f1, f2, …, f499, f500) has its labels at the start of each line, not in a column: --label cannot name them" {
		t.Errorf("reuters10: %v", err)
	}
	if _, err := LoadEmbedded("nosuch", CSVOptions{}); !errors.Is(err, ErrUnknownName) {
		t.Errorf("unknown set: %v", err)
	}
}

// Data read as LIBSVM text take no options of delimited text; their
// unlabelled markers apply.
func TestOptionsLoadLIBSVM(t *testing.T) {
	path := writeText(t, "s.svm", "1 1:0.5 2:1.0\n2 1:0.1 2:0.3\n1 1:0.6 2:0.9\n")
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Label: "1"}, "--label 1: " + path + " is LIBSVM text (features f1, f2): its labels are at the start of each line, not in a column, and --label cannot name them"},
		{Options{Features: "f1"}, "--features applies to delimited text, not to " + path + ", which is LIBSVM text (features f1, f2)"},
		{Options{Sep: "space"}, "--sep applies to delimited text, not to " + path + ", which is LIBSVM text (features f1, f2)"},
	} {
		c.o.Path, c.o.Prep.Scale = path, "none"
		if _, _, err := c.o.Load(); !errors.Is(err, ErrFileOption) || !errors.Is(err, ErrOption) || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	d, _, err := Options{Path: path, Unlabeled: "2", Prep: Prep{Scale: "none"}}.Load()
	if err != nil || len(d.UnlabeledRows()) != 1 {
		t.Errorf("--unlabeled-marker 2: %v", err)
	}
}
