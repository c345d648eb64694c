package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// once is b as standard input: read once, from start to end (no Seek, no
// ReaderAt), so a reader that went back for a second look would see
// nothing and fail to give the file's data.
func once(b []byte) io.Reader { return io.MultiReader(bytes.NewReader(b)) }

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sameData fails unless a and b hold the same points, labels, names and
// reading decisions; only the names differ (a file's path, standard input).
func sameData(t *testing.T, what string, a, b *Dataset) {
	t.Helper()
	a2, b2 := *a, *b
	a2.Name, b2.Name = "", ""
	if !reflect.DeepEqual(&a2, &b2) {
		t.Errorf("%s: the data read from standard input differ from the file's", what)
	}
}

// Options.Load with Path "-" reads Stdin as Load reads the file, CSV and
// LIBSVM text (format by content, no name to go by), plain or gzip
// (magic bytes), once, naming it "standard input".
func TestLoadStdin(t *testing.T) {
	csv := []byte(strings.Join(baseRows(), "\n") + "\n")
	var lib bytes.Buffer
	for i := range 30 {
		fmt.Fprintf(&lib, "%d 1:%g 3:%g\n", 2*(i%2)-1, float64(i)/10, float64(i%4))
	}
	for _, tc := range []struct {
		name string
		text []byte
	}{{"d.csv", csv}, {"d.libsvm", lib.Bytes()}} {
		file := writeTemp(t, tc.name, tc.text)
		want, _, err := Options{Path: file, Prep: Prep{Scale: "none"}}.Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{tc.text, gzipped(t, tc.text)} {
			got, _, err := Options{Path: Stdin, Stdin: once(in), Prep: Prep{Scale: "none"}}.Load()
			if err != nil {
				t.Fatalf("%s on standard input: %v", tc.name, err)
			}
			if got.Name != StdinName {
				t.Errorf("name %q, want %q", got.Name, StdinName)
			}
			sameData(t, tc.name, want, got)
		}
	}
	if _, _, err := (Options{Path: Stdin}).Load(); !errors.Is(err, ErrNoStdin) {
		t.Errorf("no stdin: %v, want ErrNoStdin", err)
	}
}

// Options.LoadNew with path "-" reads new points from Stdin once although
// it reads their header first (and a file it reads again without the
// label column named, which the new points here lack), and gives what it
// gives for the same file.
func TestLoadNewStdin(t *testing.T) {
	rows := baseRows()
	train, _, err := Options{Path: writeTemp(t, "train.csv", []byte(strings.Join(rows, "\n")+"\n")), Prep: Prep{Scale: "none"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	// new points: columns in another order, no label, a text column;
	// 5 rows, and 20,000 (more than the header's first look takes)
	var b strings.Builder
	b.WriteString("note,x3,x1,x2\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "n%d,%d,%g,%g\n", i, i%3, float64(i%9)/2, float64(i%7)/3)
	}
	long := b.String()
	short := long[:strings.Index(long, "n5,")]
	o := Options{Prep: Prep{Scale: "none"}}
	for _, text := range []string{short, long} {
		for _, label := range []string{"", "label"} { // "label": not in the file, not read
			o.Label = label
			want, err := o.LoadNew(writeTemp(t, "new.csv", []byte(text)), train, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range [][]byte{[]byte(text), gzipped(t, []byte(text))} {
				o.Stdin = once(in)
				got, err := o.LoadNew(Stdin, train, nil)
				if err != nil {
					t.Fatal(err)
				}
				sameData(t, fmt.Sprintf("%d new points, label %q", want.Len(), label), want, got)
				if err := train.MatchNew(got, Stdin, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	o.Label = ""
	// LIBSVM new points on standard input are padded as a .libsvm file's.
	lib := "1 1:0.5\n-1 2:1\n"
	o.Stdin = strings.NewReader(lib)
	ltrain, err := ReadLIBSVM(strings.NewReader("1 1:1 3:2\n-1 2:1\n1 3:1\n"), "t.libsvm")
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.LoadNew(Stdin, ltrain, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ltrain.MatchNew(got, Stdin, nil); err != nil || got.Dim() != 3 {
		t.Errorf("LIBSVM new points on standard input: %d features, %v; want 3, nil", got.Dim(), err)
	}
}

// Errors name "standard input" where they name the file, with its line
// and column, for plain and gzip input; an empty standard input is
// ErrEmpty, not an empty data set.
func TestStdinErrors(t *testing.T) {
	bad := baseRows()
	bad[7] = "1,1,1x,a"
	text := []byte(strings.Join(bad, "\n") + "\n")
	_, _, fileErr := Options{Path: writeTemp(t, "d.csv", text)}.Load()
	if fileErr == nil {
		t.Fatal("a bad cell read without error")
	}
	want := `standard input:8: column "x3": not a number "1x"`
	for _, in := range [][]byte{text, gzipped(t, text)} {
		_, _, err := Options{Path: Stdin, Stdin: bytes.NewReader(in)}.Load()
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v\nwant  %s…", err, want)
		}
		if err != nil && strings.Replace(fileErr.Error(), fileErrName(fileErr), StdinName, 1) != err.Error() {
			t.Errorf("error %v\nwant the file's %v", err, fileErr)
		}
	}
	good := []byte(strings.Join(baseRows(), "\n") + "\n")
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{nil, "standard input: empty input: nothing was read (0 bytes)"},
		{[]byte("x,label\n"), "standard input:2: header only, no data rows"},
		{gzipped(t, good)[:len(gzipped(t, good))-4], "standard input: bad compressed file: truncated gzip stream: the input ends inside the compressed data, after line 41"},
		{append(gzipped(t, good), "garbage"...), "standard input: bad compressed file: bytes after the end of the gzip stream (after line 41) are not gzip data (trailing garbage)"},
		{[]byte{0x1f, 0x8b, 8}, "standard input: bad compressed file: truncated inside the gzip header"},
		{[]byte{0xff, 0xfe, 'a', 0, ',', 0, 'b', 0, '\n', 0}, "standard input:1: not UTF-8 text: the input is UTF-16 (little-endian, byte-order mark FF FE); convert it to UTF-8, e.g. pass it through iconv -f UTF-16 -t UTF-8 on its way in"},
	} {
		_, _, err := Options{Path: Stdin, Stdin: bytes.NewReader(tc.in)}.Load()
		if err == nil || err.Error() != tc.want {
			t.Errorf("% x: error %v\nwant  %s", tc.in[:min(len(tc.in), 8)], err, tc.want)
		}
	}
	if _, _, err := (Options{Path: Stdin, Stdin: strings.NewReader("")}).Load(); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty standard input: %v, want ErrEmpty", err)
	}
	if _, err := (Options{Stdin: strings.NewReader("")}).LoadNew(Stdin, nil, nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty standard input of new points: %v, want ErrEmpty", err)
	}
}

// fileErrName is the file a *ParseError names.
func fileErrName(err error) string {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.File
	}
	return ""
}
