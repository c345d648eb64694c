package dataset

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestReadCSVBasic(t *testing.T) {
	in := "\xef\xbb\xbf f1 , label ,f2\r\n1, 0 ,2\r\n 3.5,1, -4e1\r\n\r\n5,?,6\r\n7,,8\r\n"
	d, err := ReadCSV(strings.NewReader(in), "t.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 4 || d.Dim() != 2 {
		t.Fatalf("dims %d×%d, want 4×2", d.Len(), d.Dim())
	}
	if got := strings.Join(d.Features, ","); got != "f1,f2" {
		t.Errorf("features %q", got)
	}
	if got := strings.Join(d.Classes, ","); got != "0,1" {
		t.Errorf("classes %q", got)
	}
	wantY := []int{0, 1, Unlabeled, Unlabeled}
	for i, y := range wantY {
		if d.Y[i] != y {
			t.Errorf("Y[%d] = %d, want %d", i, d.Y[i], y)
		}
	}
	wantX := [][]float64{{1, 2}, {3.5, -40}, {5, 6}, {7, 8}}
	for i, row := range wantX {
		for j, v := range row {
			if d.X.At(i, j) != v {
				t.Errorf("X[%d,%d] = %v, want %v", i, j, d.X.At(i, j), v)
			}
		}
	}
	if d.Name != "t.csv" {
		t.Errorf("name %q", d.Name)
	}
}

func TestReadCSVClassOrder(t *testing.T) {
	for _, tc := range []struct {
		in      string
		classes string
		y       []int
	}{
		// numeric: sorted by value, not lexically ("10" after "9"), canonical form
		{"x,label\n1,10\n2,9\n3,-1\n4,9.0\n5,1e1\n", "-1,9,10", []int{2, 1, 0, 1, 2}},
		// not all numeric: lexical
		{"x,label\n1,b\n2,a\n3,10\n4,9\n", "10,9,a,b", []int{3, 2, 0, 1}},
		{"x,label\n1,?\n2,\n", "", []int{Unlabeled, Unlabeled}},
	} {
		d, err := ReadCSV(strings.NewReader(tc.in), "t", CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(d.Classes, ","); got != tc.classes {
			t.Errorf("%q: classes %q, want %q", tc.in, got, tc.classes)
		}
		for i := range tc.y {
			if d.Y[i] != tc.y[i] {
				t.Errorf("%q: Y = %v, want %v", tc.in, d.Y, tc.y)
				break
			}
		}
	}
}

func TestReadCSVOptions(t *testing.T) {
	in := "a,b,cls\n1,2,x\n3,4,y\n"
	d, err := ReadCSV(strings.NewReader(in), "t", CSVOptions{Label: "cls"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Dim() != 2 || strings.Join(d.Classes, ",") != "x,y" || d.Y[1] != 1 {
		t.Errorf("Label=cls: dim %d classes %v Y %v", d.Dim(), d.Classes, d.Y)
	}
	d, err = ReadCSV(strings.NewReader("a,label\n1,2\n3,4\n"), "t", CSVOptions{NoLabel: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Dim() != 2 || len(d.Classes) != 0 || len(d.Y) != 2 || d.Y[0] != Unlabeled || d.Y[1] != Unlabeled {
		t.Errorf("NoLabel: dim %d classes %v Y %v", d.Dim(), d.Classes, d.Y)
	}
	if d.Features[1] != "label" || d.X.At(1, 1) != 4 {
		t.Errorf("NoLabel: features %v", d.Features)
	}
	// Quoted cells, including a header name, a multi-line label (CRLF
	// inside quotes becomes LF), "" escapes, spaces around quotes.
	d, err = ReadCSV(strings.NewReader("\"f 1\",label\n\"1\",\"a\r\nb\"\n2, \"c\"\"d\" \n\"\",\"3\"\n"), "t", CSVOptions{NoLabel: true})
	if err == nil || !errors.Is(err, ErrNotNumber) {
		t.Errorf("NoLabel with text cells: %v", err)
	}
	d, err = ReadCSV(strings.NewReader("\"f 1\",label\n\"1\",\"a\r\nb\"\n2, \"c\"\"d\" \n \"3\" ,\"\"\n"), "t", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Features[0] != "f 1" || !slices.Equal(d.Classes, []string{"a\nb", "c\"d"}) || d.X.At(2, 0) != 3 || d.Y[2] != Unlabeled {
		t.Errorf("quoted: %q %q %v", d.Features, d.Classes, d.Y)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		what string
		in   string
		opt  CSVOptions
		want error
		msg  string // exact message
	}{
		{"empty file", "", CSVOptions{}, ErrEmpty, `bad.csv:1: empty input: no header row`},
		{"blank lines only", "\n\n  \n", CSVOptions{}, ErrEmpty, `bad.csv:3: empty input: blank header row`},
		{"header only", "f1,label\n", CSVOptions{}, ErrNoRows, `bad.csv:2: header only, no data rows`},
		{"header only no newline", "f1,label", CSVOptions{}, ErrNoRows, `bad.csv:2: header only, no data rows`},
		{"ragged short", "f1,f2,label\n1,2,0\n3,4\n", CSVOptions{}, ErrRagged, `bad.csv:3: column "label": ragged row: 2 fields, header has 3`},
		{"ragged long", "f1,label\n1,0\n3,4,5\n", CSVOptions{}, ErrRagged, `bad.csv:3: ragged row: 3 fields, header has 2`},
		{"not a number", "f1,x3,label\n1,2,0\n1,\"1,5\",0\n", CSVOptions{}, ErrNotNumber, `bad.csv:3: column "x3": not a number "1,5"`},
		{"empty cell", "f1,x3,label\n1,2,0\n1, ,0\n", CSVOptions{}, ErrMissing, `bad.csv:3: column "x3": missing value: empty cell`},
		{"NaN", "f1,f2,label\n1,2,0\n1,NaN,0\n", CSVOptions{}, ErrMissing, `bad.csv:3: column "f2": missing value "NaN"`},
		{"Inf", "f1,f2,label\n1,2,0\n-inf,1,0\n", CSVOptions{}, ErrNonFinite, `bad.csv:3: column "f1": non-finite value "-inf"`},
		{"overflow", "f1,f2,label\n1,2,0\n1,1e999,0\n", CSVOptions{}, ErrNonFinite, `bad.csv:3: column "f2": non-finite value: "1e999" overflows float64`},
		{"duplicate header", "f1,f2, f1,label\n1,2,3,0\n", CSVOptions{}, ErrDuplicateColumn, `bad.csv:1: column "f1": duplicate column name: columns 1 and 3`},
		{"no label column", "f1,f2\n1,2\n3,4\n", CSVOptions{}, ErrNoLabelColumn, `bad.csv:1: no such label column: none is named label, class, target or y (header has "f1", "f2")`},
		{"unknown label column", "f1,label\n1,2\n3,4\n", CSVOptions{Label: "y"}, ErrNoLabelColumn, `bad.csv:1: column "y": no such label column (header has "f1", "label")`},
		{"single row", "f1,label\n\n1,0\n\n", CSVOptions{}, ErrTooFewRows, `bad.csv:3: too few rows: need at least 2: only one data row`},
		{"label only", "label\n1\n2\n", CSVOptions{}, ErrNoFeatures, `bad.csv:1: no feature columns: the only column is the label column "label"`},
		{"empty header name repeated", "c2,,label\n1,2,0\n3,4,5\n", CSVOptions{}, ErrDuplicateColumn, `bad.csv:1: column "c2": duplicate column name: columns 1 and 2`},
		{"bad quote", "f1,label\n1,0\n\"2\"x,0\n", CSVOptions{}, ErrSyntax, `bad.csv:3: syntax error: unexpected 'x' after a closing quote`},
		{"bare quote", "f1,label\n1,0\n2,a\"b\n", CSVOptions{}, ErrSyntax, `bad.csv:3: syntax error: bare " in a field that does not start with a quote`},
		{"unclosed quote", "f1,label\n1,0\n2,\"ab\n\n3,0\n", CSVOptions{}, ErrSyntax, `bad.csv:5: syntax error: quoted field opened on line 3 is not closed`},
		// line numbers are physical lines: a quoted label spans lines 2-3
		{"line after multiline", "f1,label\n1,\"a\nb\"\nz,0\n", CSVOptions{}, ErrNotNumber, `bad.csv:4: column "f1": not a number "z"`},
		// strconv.ParseFloat reads "309_1" as 3091: a sample ID is not a number
		{"underscore", "f1,label\n1,0\n309_1,0\n", CSVOptions{}, ErrNotNumber, `bad.csv:3: column "f1": not a number "309_1"`},
		{"hex", "f1,label\n1,0\n0x1p3,0\n", CSVOptions{}, ErrNotNumber, `bad.csv:3: column "f1": not a number "0x1p3"`},
		{"CRLF line", "f1,label\r\n1,0\r\n2,0\r\n3,0\r\nx,0\r\n", CSVOptions{}, ErrNotNumber, `bad.csv:5: column "f1": not a number "x"`},
	} {
		d, err := ReadCSV(strings.NewReader(tc.in), "bad.csv", tc.opt)
		if err == nil {
			t.Errorf("%s: no error, got %d rows", tc.what, d.Len())
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.what, err, tc.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "bad.csv" {
			t.Errorf("%s: %T is not a *ParseError for bad.csv", tc.what, err)
		}
		if err.Error() != tc.msg {
			t.Errorf("%s:\n got %s\nwant %s", tc.what, err, tc.msg)
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadCSVReaderError(t *testing.T) {
	_, err := ReadCSV(errReader{}, "r.csv", CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), "r.csv") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v", err)
	}
}

// FuzzCSVRecords checks the record splitter against encoding/csv on every
// input both accept: same fields (after trimming spaces), same line of the
// first field.
func FuzzCSVRecords(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"a\nb\",\"c\"\"\"\r\n\n\nx,\n", ",,\n\"\"\n", "a\r\n\"b\r\nc\"\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > fuzzMaxLen {
			return
		}
		want := csv.NewReader(strings.NewReader(in))
		want.FieldsPerRecord = -1
		var recs [][]string
		var lines []int
		for {
			rec, err := want.Read()
			if err != nil {
				if err != io.EOF {
					return // encoding/csv rejects it; ours may be more lenient
				}
				break
			}
			l, _ := want.FieldPos(0)
			recs = append(recs, rec)
			lines = append(lines, l)
		}
		got := &recordReader{br: bufio.NewReaderSize(strings.NewReader(in), 16)}
		for k, rec := range recs {
			fields, err := got.read()
			if err != nil {
				t.Fatalf("record %d: %v, encoding/csv read %q", k, err, rec)
			}
			if len(fields) != len(rec) || got.lines[0] != lines[k] {
				t.Fatalf("record %d: %q on line %d, encoding/csv %q on line %d", k, fields, got.lines[0], rec, lines[k])
			}
			for j := range rec {
				if g, w := strings.TrimSpace(string(fields[j])), strings.TrimSpace(rec[j]); g != w {
					t.Fatalf("record %d field %d: %q, encoding/csv %q", k, j, g, w)
				}
			}
		}
		if _, err := got.read(); err != io.EOF {
			t.Fatalf("extra record or error after %d records: %v", len(recs), err)
		}
	})
}

// FuzzParseFloatBytes checks the fast path bit for bit against strconv.
func FuzzParseFloatBytes(f *testing.F) {
	for _, s := range []string{"-0.5153949624", "1e22", "123456789012345", "1234567890123456", "0.000000000000000000000001", "-0", "+.5e-3", "5.", "9007199254740993", "1e-22", "4.9e-324"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		v, ok := fastFloat([]byte(s))
		if !ok {
			return
		}
		w, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("fastFloat(%q) = %v, strconv: %v", s, v, err)
		}
		if math.Float64bits(v) != math.Float64bits(w) {
			t.Fatalf("fastFloat(%q) = %v, strconv %v", s, v, w)
		}
	})
}

// fuzzMaxLen bounds fuzz inputs. Longer ones add no coverage a short one
// lacks, but the fuzzer's minimisation of a long interesting input runs the
// target byte by byte for most of a minute: the targets return
// at once on them, so a 60-second run keeps executing.
const fuzzMaxLen = 256

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"f1,f2,label\n1,2,0\n3,4,1\n",
		"\xef\xbb\xbff1,label\r\n1,?\r\n2,\r\n",
		"f1,label\n\"1\",\"a\nb\"\n2,c\n",
		"f1,f1\n1,2\n", "f1,label\n1,0\n", "", "label\n1\n2\n",
		"a,b,label\n1,NaN,0\n1,2\n", "x,label\n1e999,0\n0x1p-2,1\n",
		"a;b;class\n1,5;2;x\n3;;y\n", "1 2 x\n3 4 y\n", "id\ta\ttarget\ns1\t1\t0\ns2\t\t1\n", "a,b\r1,2\r3,4\r",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, in string, opts uint8) {
		if len(in) > fuzzMaxLen {
			return
		}
		// the options' bits: no label, label optional, no header, keep
		// missing values, ID column 1, ignore column 2, features "2..3",
		// -1 as unlabelled marker
		opt := CSVOptions{NoLabel: opts&1 != 0, LabelOptional: opts&2 != 0, NoHeader: opts&4 != 0, AllowMissing: opts&8 != 0}
		if opts&16 != 0 {
			opt.ID = "1"
		}
		if opts&32 != 0 {
			opt.Ignore = []string{"2"}
		}
		if opts&64 != 0 {
			opt.Features = []string{"2..3"}
		}
		if opts&128 != 0 {
			opt.Unlabeled = []string{"-1"}
		}
		d, err := ReadCSV(strings.NewReader(in), "fuzz.csv", opt)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
				t.Fatalf("message %q lacks file:line", err)
			}
			return
		}
		n, dim := d.X.Dims()
		if n < 2 || dim < 1 || len(d.Y) != n || len(d.Features) != dim {
			t.Fatalf("bad shape %d×%d, |Y|=%d, |Features|=%d", n, dim, len(d.Y), len(d.Features))
		}
		if err := d.Check(); err != nil { // labels in range, NaN only where Missing says
			t.Fatal(err)
		}
		if !opt.AllowMissing && len(d.Missing) > 0 {
			t.Fatalf("%d missing cells kept without AllowMissing", len(d.Missing))
		}
	})
}

// OneRow accepts a single data row (CSV and, through Load, LIBSVM).
func TestOneRow(t *testing.T) {
	if _, err := ReadCSV(strings.NewReader("a,b\n1,2\n"), "x.csv", CSVOptions{NoLabel: true}); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("default: err = %v, want ErrTooFewRows", err)
	}
	d, err := ReadCSV(strings.NewReader("a,b\n1,2\n"), "x.csv", CSVOptions{NoLabel: true, OneRow: true})
	if err != nil || d.Len() != 1 || d.X.At(0, 1) != 2 {
		t.Errorf("OneRow CSV: %v %v", d, err)
	}
	p := filepath.Join(t.TempDir(), "x.svm")
	if err := os.WriteFile(p, []byte("1 2:5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p, CSVOptions{}); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("Load default: err = %v, want ErrTooFewRows", err)
	}
	d, err = Load(p, CSVOptions{OneRow: true})
	if err != nil || d.Len() != 1 || d.X.At(0, 1) != 5 {
		t.Errorf("Load OneRow: %v %v", d, err)
	}
}
