package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// baseRows is a 40-row table x1,x2,x3,label (classes a and b).
func baseRows() []string {
	rows := []string{"x1,x2,x3,label"}
	for i := range 40 {
		c := i % 2
		rows = append(rows, fmt.Sprintf("%g,%g,%g,%c", float64(i%7)/7+2*float64(c), float64(c)+float64(i%5)/5, float64(i%3)/3, 'a'+c))
	}
	return rows
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A 20 MB cell is quoted by its start and its length: the error stays a
// short line.
func TestHugeCellQuoted(t *testing.T) {
	rows := baseRows()
	rows[5] = strings.Repeat("1", 20<<20) + ",1,1,a"
	rows[9] = "1," + strings.Repeat("x", 1<<20) + ",1,a"
	for k, want := range []string{
		`d.csv:6: column "x1": non-finite value: "11111111111111111111111111111111"… (20971520 bytes) overflows float64`,
		`d.csv:10: column "x2": not a number "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes)`,
	} {
		in := slices2(rows, k)
		_, err := ReadCSV(strings.NewReader(strings.Join(in, "\n")+"\n"), "d.csv", CSVOptions{})
		if err == nil || err.Error() != want {
			t.Errorf("error %.300v\nwant  %s", err, want)
		}
	}
}

// slices2 drops the huge row 5 for case 1, so that row 9 is reached.
func slices2(rows []string, k int) []string {
	out := append([]string(nil), rows...)
	if k == 1 {
		out[5] = "1,1,1,a"
	}
	return out
}

// One bad line in a LIBSVM file: the file is still read as LIBSVM and the
// error names that line.
func TestLIBSVMBadLine(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("%d 1:%g 2:%g 3:%g", 2*(i%2)-1, float64(i)/10, float64(i%3), float64(i%5)))
	}
	for _, tc := range []struct {
		at   int
		bad  string
		want string
	}{
		{10, "1 1:2.0 3:", `b.txt:11: syntax error: token "3:" has no value after the colon`},
		{10, "1 1 2.0", `b.txt:11: syntax error: token "1" is not index:value`},
		{0, "1 1 2.0", `b.txt:1: syntax error: token "1" is not index:value`},
		{30, "1 1:x", `b.txt:31: column "f1": not a number "x"`},
	} {
		in := append([]string(nil), lines...)
		in[tc.at] = tc.bad
		p := writeTemp(t, "b.txt", []byte(strings.Join(in, "\n")+"\n"))
		_, err := Load(p, CSVOptions{})
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("line %d %q: error %v, want …%s", tc.at+1, tc.bad, err, tc.want)
		}
	}
	// a blank-separated table is still delimited text
	p := writeTemp(t, "t.txt", []byte("1 2 3\n4 5 6\n7 8 9\n"))
	d, err := Load(p, CSVOptions{NoLabel: true})
	if err != nil || d.Source.Format != "csv" || d.Dim() != 3 {
		t.Errorf("blank-separated table: %v %+v", err, d)
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Compressed files: empty, not gzip, truncated, damaged or with trailing
// garbage say so; concatenated members are read in full.
func TestGzipErrors(t *testing.T) {
	text := []byte(strings.Join(baseRows(), "\n") + "\n")
	z := gz(text)
	damaged := bytes.Clone(z)
	damaged[len(damaged)-6] ^= 0xff // the CRC-32 in the trailer
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty.csv.gz", nil, "empty.csv.gz: bad compressed file: empty file (0 bytes), no gzip data"},
		{"plain.csv.gz", text, "plain.csv.gz: bad compressed file: not gzip data (no gzip header; is the file compressed?)"},
		{"short.csv.gz", []byte("x\n1\n"), "short.csv.gz: bad compressed file: not gzip data (no gzip header; is the file compressed?)"},
		{"header.csv.gz", z[:5], "header.csv.gz: bad compressed file: truncated inside the gzip header"},
		{"nothing.csv.gz", gz(nil), "nothing.csv.gz:1: empty input: no header row"},
		{"trail.csv.gz", append(bytes.Clone(z), "garbage!!"...), "trail.csv.gz: bad compressed file: bytes after the end of the gzip stream (after line 41) are not gzip data (trailing garbage)"},
		{"cut.csv.gz", z[:len(z)-4], "cut.csv.gz: bad compressed file: truncated gzip stream: the file ends inside the compressed data, after line 41"},
		{"crc.csv.gz", damaged, "crc.csv.gz: bad compressed file: damaged gzip stream after line 41 (gzip: invalid checksum)"},
	} {
		p := writeTemp(t, tc.name, tc.data)
		_, err := Load(p, CSVOptions{})
		if err == nil || err.Error() != filepath.Join(filepath.Dir(p), tc.want) { // the messages start with the path
			t.Errorf("%s: error %v\nwant %s", tc.name, err, tc.want)
		} else if tc.name != "nothing.csv.gz" && !errors.Is(err, ErrCompressed) {
			t.Errorf("%s: not ErrCompressed", tc.name)
		}
	}
	half := len(text) / 2
	for half > 0 && text[half-1] != '\n' {
		half--
	}
	two := append(gz(text[:half]), gz(text[half:])...)
	d, err := Load(writeTemp(t, "two.csv.gz", two), CSVOptions{})
	if err != nil || d.Len() != 40 {
		t.Errorf("two members: %v", err)
	}
}

func utf16Bytes(s string, big bool, bom bool) []byte {
	var out []byte
	u := utf16.Encode([]rune(s))
	if bom {
		u = append([]uint16{0xfeff}, u...)
	}
	for _, c := range u {
		if big {
			out = append(out, byte(c>>8), byte(c))
		} else {
			out = append(out, byte(c), byte(c>>8))
		}
	}
	return out
}

// UTF-16 and UTF-32 files are named as such with the command that
// converts them; a UTF-8 byte-order mark is skipped.
func TestEncoding(t *testing.T) {
	text := strings.Join(baseRows(), "\n") + "\n"
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"le.csv", utf16Bytes(text, false, true), "le.csv:1: not UTF-8 text: the file is UTF-16 (little-endian, byte-order mark FF FE); convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8 le.csv > le.utf8.csv"},
		{"be.txt", utf16Bytes(text, true, true), "be.txt:1: not UTF-8 text: the file is UTF-16 (big-endian, byte-order mark FE FF); convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8 be.txt > be.utf8.txt"},
		{"nobom.csv", utf16Bytes(text, false, false), "nobom.csv:1: not UTF-8 text: the file is UTF-16 (little-endian, no byte-order mark); convert it to UTF-8, e.g. iconv -f UTF-16LE -t UTF-8 nobom.csv > nobom.utf8.csv"},
		{"u32.csv", append([]byte{0xff, 0xfe, 0, 0}, "x\x00\x00\x00"...), "u32.csv:1: not UTF-8 text: the file is UTF-32 (little-endian, byte-order mark FF FE 00 00); convert it to UTF-8, e.g. iconv -f UTF-32 -t UTF-8 u32.csv > u32.utf8.csv"},
		{"le.csv.gz", gz(utf16Bytes(text, false, true)), "le.csv.gz:1: not UTF-8 text: the file is UTF-16 (little-endian, byte-order mark FF FE); convert it to UTF-8, e.g. gunzip -c le.csv.gz | iconv -f UTF-16 -t UTF-8 > le.utf8.csv"},
	} {
		p := writeTemp(t, tc.name, tc.data)
		_, err := Load(p, CSVOptions{})
		want := strings.ReplaceAll(tc.want, tc.name+" ", p+" ")
		want = strings.ReplaceAll(want, tc.name+":1", p+":1")
		want = strings.ReplaceAll(want, "-c "+tc.name, "-c "+p)
		if err == nil || err.Error() != want || !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: error %v\nwant %s", tc.name, err, want)
		}
	}
	d, err := ReadCSV(strings.NewReader("\xef\xbb\xbf"+text), "bom.csv", CSVOptions{})
	if err != nil || d.Features[0] != "x1" || d.Len() != 40 {
		t.Errorf("UTF-8 BOM: %v", err)
	}
}

// garbled returns text compressed in stored (uncompressed) deflate blocks
// with the first occurrence of from changed to to after the checksum was
// taken: the stream decompresses to text with that change, and gzip finds
// the damage only at its end.
func garbled(t *testing.T, text []byte, from, to string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(text)
	w.Close()
	z := buf.Bytes()
	i := bytes.Index(z, []byte(from))
	if i < 0 || len(from) != len(to) {
		t.Fatalf("garbled: %q not in the stored text", from)
	}
	copy(z[i:], to)
	return z
}

// A damaged gzip stream that decompresses to garbled text is the
// stream's error, not the garbled line's: a file and standard input,
// read whole or as new points.
func TestGzipGarbledText(t *testing.T) {
	// 20,000 rows (more than the gzip reader decompresses at once), the
	// damage on line 4
	var b strings.Builder
	b.WriteString("f1,f2,label\n1,2,a\n3,4,b\n5,6,a\n")
	for i := range 19997 {
		fmt.Fprintf(&b, "%d,%d,%c\n", i, i%7, 'a'+i%2)
	}
	text := []byte(b.String())
	z := garbled(t, text, "5,6", "5,x")
	p := writeTemp(t, "g.csv.gz", z)
	want := p + ": bad compressed file: damaged gzip stream after line 20001 (gzip: invalid checksum)"
	if _, err := Load(p, CSVOptions{}); err == nil || err.Error() != want || !errors.Is(err, ErrCompressed) {
		t.Errorf("Load: %v, want %s", err, want)
	}
	train, err := Load(writeTemp(t, "train.csv", text), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNew(p, train, CSVOptions{}); err == nil || err.Error() != want {
		t.Errorf("LoadNew: %v, want %s", err, want)
	}
	want = StdinName + ": bad compressed file: damaged gzip stream after line 20001 (gzip: invalid checksum)"
	if _, err := ReadData(bytes.NewReader(z), StdinName, CSVOptions{}); err == nil || err.Error() != want {
		t.Errorf("ReadData: %v, want %s", err, want)
	}
	if _, err := (Options{Stdin: bytes.NewReader(z)}).LoadNew(Stdin, train, nil); err == nil || err.Error() != want {
		t.Errorf("Options.LoadNew: %v, want %s", err, want)
	}
	// the same change in a sound stream is the cell's error
	if _, err := Load(writeTemp(t, "x.csv.gz", gz([]byte(strings.Replace(string(text), "5,6", "5,x", 1)))), CSVOptions{}); !errors.Is(err, ErrNotNumber) {
		t.Errorf("sound stream: %v", err)
	}
}
