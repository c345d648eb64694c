package dataset

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func readString(t *testing.T, in string, opt CSVOptions) *Dataset {
	t.Helper()
	opt.AllowMissing = true
	d, err := ReadCSV(strings.NewReader(in), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPrepApply: missing values filled by the column mean, then z-scored
// (closed form: column a = 1, 3 and the filled 2 has mean 2 and population
// standard deviation √(2/3)); the Scaler carries the imputation for new
// points.
func TestPrepApply(t *testing.T) {
	d := readString(t, "a,b,label\n1,5,x\n3,5,y\n,5,x\n", CSVOptions{})
	got, err := Prep{Impute: "mean", Scale: "std"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got.Imputed != 1 || got.ImputedColumns != 1 || d.Missing != nil || got.Scaler.Impute == nil {
		t.Errorf("imputed %d in %d columns, missing %v, scaler %+v", got.Imputed, got.ImputedColumns, d.Missing, got.Scaler)
	}
	sd := math.Sqrt(2.0 / 3)
	for i, want := range []float64{-1 / sd, 1 / sd, 0} {
		if v := d.X.At(i, 0); math.Abs(v-want) > 1e-15 {
			t.Errorf("row %d: a = %v, want %v", i, v, want)
		}
		if v := d.X.At(i, 1); v != 0 {
			t.Errorf("row %d: constant b = %v, want 0", i, v)
		}
	}
}

// TestPrepApplyErrors: each step's error, in the order the steps run, and
// the filling done before a later step's error.
func TestPrepApplyErrors(t *testing.T) {
	const missing = "a,label\n1,x\n,y\n3,x\n"
	if _, err := (Prep{Impute: "mode", Scale: "std"}).Apply(readString(t, missing, CSVOptions{})); !errors.Is(err, ErrUnknownImpute) {
		t.Errorf("impute mode: %v", err)
	}
	_, err := Prep{Scale: "std", Method: "arbor cluster", MissingHint: "try --impute"}.Apply(readString(t, missing, CSVOptions{}))
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "arbor cluster cannot use them; try --impute") {
		t.Errorf("missing: %v", err)
	}
	if _, err := (Prep{Scale: "std", AllowMissing: true}).Apply(readString(t, missing, CSVOptions{})); err != nil {
		t.Errorf("missing allowed: %v", err)
	}
	got, err := Prep{Impute: "zero", Scale: "log"}.Apply(readString(t, missing, CSVOptions{}))
	if !errors.Is(err, ErrUnknownScale) || got.Imputed != 1 {
		t.Errorf("scale log: %v, imputed %d", err, got.Imputed)
	}
	big := readString(t, "a,label\n1,x\n1e300,y\n", CSVOptions{})
	var pe *ParseError
	if _, err := (Prep{Scale: "none"}).Apply(big); !errors.Is(err, ErrMagnitude) || !errors.As(err, &pe) || pe.Line != 3 || pe.Column != "a" {
		t.Errorf("1e300: %v", err)
	}
}

// TestPrepMultiLabel: multi-label data are refused unless MultiLabel,
// counting the rows in two or more classes.
func TestPrepMultiLabel(t *testing.T) {
	read := func() *Dataset {
		d, err := ReadLIBSVM(strings.NewReader("1,2 1:1\n2 1:2\n1,3 1:3\n"), "m.svm")
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	_, err := Prep{Scale: "none"}.Apply(read())
	if !errors.Is(err, ErrMultiLabel) || err.Error() != "m.svm is multi-label data (2 rows in 2 or more classes)" {
		t.Errorf("got %v", err)
	}
	if _, err := (Prep{Scale: "none", MultiLabel: true}).Apply(read()); err != nil {
		t.Error(err)
	}
}

// TestPrepCheckNew: a new point's missing value is an error unless the
// data's scaler fills it; an overflowing value is one always.
func TestPrepCheckNew(t *testing.T) {
	p := Prep{Impute: "mean", Scale: "none", Method: "m"}
	prep, err := p.Apply(readString(t, "a,b,label\n1,1,x\n3,2,y\n", CSVOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckNew(readString(t, "a,b\n,1\n", CSVOptions{NoLabel: true, OneRow: true}), nil); !errors.Is(err, ErrMissing) {
		t.Errorf("no scaler: %v", err)
	}
	if err := p.CheckNew(readString(t, "a,b\n,1\n", CSVOptions{NoLabel: true, OneRow: true}), prep.Scaler); err != nil {
		t.Errorf("imputing scaler: %v", err)
	}
	if err := p.CheckNew(readString(t, "a,b\n-1e200,1\n", CSVOptions{NoLabel: true, OneRow: true}), prep.Scaler); !errors.Is(err, ErrMagnitude) {
		t.Errorf("-1e200: %v", err)
	}
}

// TestCheckTwoClasses: one class among the labelled rows is ErrOneClass
// naming it and the label column; two classes, or none, pass.
func TestCheckTwoClasses(t *testing.T) {
	err := readString(t, "a,label\n1,x\n2,?\n3,x\n", CSVOptions{}).CheckTwoClasses()
	if !errors.Is(err, ErrOneClass) || err.Error() != `t.csv: every labelled row has class "x" (label column "label"): a classifier needs at least two classes` {
		t.Errorf("got %v", err)
	}
	for _, in := range []string{"a,label\n1,x\n2,y\n", "a,label\n1,?\n2,?\n"} {
		if err := readString(t, in, CSVOptions{}).CheckTwoClasses(); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestLoadNew: a test file's columns are read by the training file's
// names (an extra text column left unread, the label column optional and
// found by its name); a file without a header is read by position.
func TestLoadNew(t *testing.T) {
	train := readString(t, "id,x1,x2,class\na,1,2,u\nb,3,4,v\n", CSVOptions{ID: "id"})
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	d, err := LoadNew(write("new.csv", "note,x2,class,x1,id\nhello,20,v,10,c\n"), train, CSVOptions{ID: "id"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1 || d.Dim() != 2 || d.X.At(0, 0) != 20 || d.X.At(0, 1) != 10 || d.LabelName != "class" || d.IDs[0] != "c" {
		t.Errorf("got features %v, X %v, label %q, ids %v", d.Features, d.X.RawMatrix().Data, d.LabelName, d.IDs)
	}
	d, err = LoadNew(write("nolabel.csv", "x1,x2\n5,6\n"), train, CSVOptions{Label: "class"})
	if err != nil || d.LabelName != "" || d.Y[0] != Unlabeled {
		t.Errorf("no label column: %v", err)
	}
	d, err = LoadNew(write("plain.csv", "5,6\n7,8\n"), train, CSVOptions{NoHeader: true, NoLabel: true})
	if err != nil || d.Len() != 2 || d.X.At(1, 1) != 8 {
		t.Errorf("no header: %v", err)
	}
}

// TestColumnHints: an integer column of distinct values is an ID, one of
// few values a class when the file has no label column; class "-1" among
// other integer classes is flagged.
func TestColumnHints(t *testing.T) {
	var b strings.Builder
	b.WriteString("n,k,x\n")
	for i := 0; i < 30; i++ {
		b.WriteString(strconv.Itoa(i+100) + "," + strconv.Itoa(i%3) + "," + strconv.Itoa(i) + ".5" + "\n")
	}
	got := readString(t, b.String(), CSVOptions{NoLabel: true}).ColumnHints()
	want := []ColumnHint{{Kind: HintRowID, Column: "n", Distinct: 30, Rows: 30}, {Kind: HintClass, Column: "k", Distinct: 3, Rows: 30}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
	got = readString(t, "x,label\n0.5,-1\n1.5,0\n2.5,1\n", CSVOptions{}).ColumnHints()
	if len(got) != 1 || got[0].Kind != HintMinusOne || got[0].Column != "label" {
		t.Errorf("-1: got %+v", got)
	}
}
