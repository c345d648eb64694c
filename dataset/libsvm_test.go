package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReadLIBSVM(t *testing.T) {
	in := "# header comment\n+1 1:0.5 3:-2 # trailing\r\n-1 qid:7 2:1e1\n\n?\t1:1\t3:3\n1 \n"
	d, err := ReadLIBSVM(strings.NewReader(in), "t.svm")
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(4, 3, []float64{
		0.5, 0, -2,
		0, 10, 0,
		1, 0, 3,
		0, 0, 0,
	})
	if !mat.Equal(d.X, want) {
		t.Errorf("X =\n%v\nwant\n%v", mat.Formatted(d.X), mat.Formatted(want))
	}
	if !slices.Equal(d.Classes, []string{"-1", "1"}) {
		t.Errorf("classes %q", d.Classes)
	}
	if !slices.Equal(d.Y, []int{1, 0, Unlabeled, 1}) {
		t.Errorf("Y = %v", d.Y)
	}
	if !slices.Equal(d.Features, []string{"f1", "f2", "f3"}) {
		t.Errorf("features %q", d.Features)
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, tc := range []struct {
		what, in string
		want     error
		msg      string
	}{
		{"empty", "", ErrEmpty, `bad.svm:1: empty input: no data lines`},
		{"comments only", "# x\n\n", ErrEmpty, `bad.svm:1: empty input: no data lines`},
		{"one row", "# c\n1 1:2\n", ErrTooFewRows, `bad.svm:2: too few rows: need at least 2: only one data line`},
		{"no features", "1\n2\n", ErrNoFeatures, `bad.svm:2: no feature columns: no index:value on any line`},
		{"bad label", "1 1:2\nyes 1:2\n", ErrNotNumber, `bad.svm:2: column "label": not a number "yes"`},
		{"nan label", "1 1:2\nnan 1:2\n", ErrNonFinite, `bad.svm:2: column "label": non-finite value "nan"`},
		{"bad value", "1 1:2\n1 1:2 4:x\n", ErrNotNumber, `bad.svm:2: column "f4": not a number "x"`},
		{"inf value", "1 1:2\n1 2:inf\n", ErrNonFinite, `bad.svm:2: column "f2": non-finite value "inf"`},
		{"no colon", "1 1:2\n1 3\n", ErrSyntax, `bad.svm:2: syntax error: token "3" is not index:value`},
		{"negative index", "1 1:2\n1 -1:1\n", ErrBadIndex, `bad.svm:2: bad feature index "-1" in "-1:1": want an integer >= 1 (or >= 0 in a 0-based file)`},
		{"bad index", "1 1:2\n1 a:1\n", ErrBadIndex, `bad.svm:2: bad feature index "a" in "a:1": want an integer >= 1 (or >= 0 in a 0-based file)`},
		{"decreasing", "1 1:2\n1 3:1 2:1\n", ErrBadIndex, `bad.svm:2: bad feature index 2 after 3: indices must increase`},
		{"repeated", "1 1:2\n1 3:1 3:1\n", ErrBadIndex, `bad.svm:2: bad feature index 3 after 3: indices must increase`},
		{"huge index", "1 1:2\n1 999999999999:1\n", ErrTooLarge, `bad.svm:2: data too large: index 999999999999 > 268435456`},
	} {
		d, err := ReadLIBSVM(strings.NewReader(tc.in), "bad.svm")
		if err == nil {
			t.Errorf("%s: no error, %d rows", tc.what, d.Len())
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.what, err, tc.want)
		}
		if err.Error() != tc.msg {
			t.Errorf("%s:\n got %s\nwant %s", tc.what, err, tc.msg)
		}
	}
}

func FuzzReadLIBSVM(f *testing.F) {
	for _, s := range []string{"1 1:2\n-1 3:4\n", "? qid:1 1:1 #c\n1 2:2\n", "1 2:1 1:1\n", "", "1 0:1\n2 1:x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > fuzzMaxLen {
			return
		}
		d, err := ReadLIBSVM(strings.NewReader(in), "fuzz.svm")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.svm:") {
				t.Fatalf("message %q lacks file:line", err)
			}
			return
		}
		if err := d.Check(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	csvText := "f1,f2,label\n1,2,a\n3,4,b\n"
	svmText := "1 1:1 2:2\n2 1:3 2:4\n"
	write := func(name, text string, gz bool) string {
		p := filepath.Join(dir, name)
		var b bytes.Buffer
		if gz {
			zw := gzip.NewWriter(&b)
			zw.Write([]byte(text))
			zw.Close()
		} else {
			b.WriteString(text)
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, p := range []string{
		write("a.csv", csvText, false), write("a.CSV.gz", csvText, true),
		write("a.libsvm", svmText, false), write("a.svm", svmText, false),
		write("a.txt", svmText, false), write("a.svmlight.gz", svmText, true),
	} {
		d, err := Load(p, CSVOptions{})
		if err != nil {
			t.Errorf("Load(%s): %v", p, err)
			continue
		}
		if !mat.Equal(d.X, want) || !slices.Equal(d.Y, []int{0, 1}) || d.Name != p {
			t.Errorf("Load(%s): X %v Y %v name %q", p, d.X.RawMatrix().Data, d.Y, d.Name)
		}
	}
	// the file name is in parse errors
	bad := write("bad.csv.gz", "f1,label\n1,0\nx,1\n", true)
	if _, err := Load(bad, CSVOptions{}); !errors.Is(err, ErrNotNumber) || !strings.HasPrefix(err.Error(), bad+":3: ") {
		t.Errorf("Load(bad): %v", err)
	}
	if _, err := Load(write("a.json", "{}", false), CSVOptions{}); !errors.Is(err, ErrFormat) {
		t.Errorf("Load(a.json): %v", err)
	}
	if _, err := Load(write("notgz.csv.gz", csvText, false), CSVOptions{}); err == nil || !strings.Contains(err.Error(), "notgz.csv.gz") {
		t.Errorf("Load(notgz): %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.csv"), CSVOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing): %v", err)
	}
}

func TestReadLIBSVMTooSparse(t *testing.T) {
	_, err := ReadLIBSVM(strings.NewReader("00\n0 80000800:0"), "s.svm")
	if !errors.Is(err, ErrTooLarge) || err.Error() != "s.svm:2: data too large: 2 rows × 80000800 features dense for only 1 index:value pairs (density < 1/1024)" {
		t.Errorf("got %v", err)
	}
	// just under the refusal threshold: 4 rows × 1Mi features, 16 pairs
	in := strings.Repeat("1 1:1 2:1 3:1 1048576:2\n", 4)
	d, err := ReadLIBSVM(strings.NewReader(in), "ok.svm")
	if err != nil || d.Dim() != 1<<20 || d.X.At(3, 1<<20-1) != 2 {
		t.Errorf("4×1Mi: %v", err)
	}
}

// A CSV or TSV file named .txt is read as delimited text: the format
// comes from the content, not from the name (a TSV saved as .txt is not
// read as LIBSVM).
func TestLoadCSVNamedTxt(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"data.txt":  "a,b,label\n1,2,0\n3,4,1\n",
		"tab.txt":   "a\tb\tlabel\n1\t2\t0\n3\t4\t1\n",
		"tab.svm":   "a\tb\tlabel\n1\t2\t0\n3\t4\t1\n",
		"plain.dat": "1 2 0\n3 4 1\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Load(p, CSVOptions{LabelOptional: true})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if d.Source.Format != "csv" || d.X.At(1, 1) != 4 || d.X.At(0, 0) != 1 {
			t.Errorf("%s: format %s, X %v", name, d.Source.Format, d.X.RawMatrix().Data)
		}
	}
}
