package gzfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func compress(t *testing.T, parts ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readAll(t *testing.T, path string) (string, error) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), err
}

// Gzip data are found by their magic bytes whatever the name, members
// read one after the other; plain text is the file itself.
func TestOpen(t *testing.T) {
	text := "a,b\n1,2\n3,4\n5,6" // the last line without a newline
	z := compress(t, text[:8], text[8:])
	for _, name := range []string{"x.csv.gz", "x.csv", "x.GZ", "x"} {
		got, err := readAll(t, write(t, name, z))
		if err != nil || got != text {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	p := write(t, "plain.csv", []byte(text))
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(*os.File); !ok {
		t.Errorf("plain text: %T, want the *os.File", r)
	}
	r.Close()
	for _, data := range [][]byte{nil, {0x1f}, {0x1f, 0x8c, 'x'}} {
		if got, err := readAll(t, write(t, "plain", data)); err != nil || got != string(data) {
			t.Errorf("plain %q: %q, %v", data, got, err)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.gz")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no file: %v", err)
	}
}

// Open's errors name the file and wrap ErrCompressed.
func TestOpenErrors(t *testing.T) {
	z := compress(t, "x\n1\n")
	bad := bytes.Clone(z)
	bad[2] = 9 // compression method other than deflate
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty.gz", nil, "empty.gz: bad compressed file: empty file (0 bytes), no gzip data"},
		{"plain.gz", []byte("x\n1\n"), "plain.gz: bad compressed file: not gzip data (no gzip header; is the file compressed?)"},
		{"one.gz", []byte{0x1f}, "one.gz: bad compressed file: truncated inside the gzip header"},
		{"head.gz", z[:6], "head.gz: bad compressed file: truncated inside the gzip header"},
		{"head", z[:6], "head: bad compressed file: truncated inside the gzip header"},
		{"method.gz", bad, "method.gz: bad compressed file: damaged gzip header (gzip: invalid header)"},
	} {
		p := write(t, c.name, c.data)
		_, err := readAll(t, p)
		if !errors.Is(err, ErrCompressed) || err.Error() != filepath.Join(filepath.Dir(p), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

// A stream cut anywhere hands out whole lines of the text only, then the
// error: a reader never sees a line cut short by the damage.
func TestCutStreamWholeLines(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i, i*i, i%7)
	}
	text := b.String()
	z := compress(t, text[:len(text)/3], text[len(text)/3:])
	for cut := 10; cut < len(z); cut++ {
		r, err := Reader(bytes.NewReader(z[:cut]), "in", nil)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		got, err := io.ReadAll(r)
		if err == nil && string(got) == text[:len(text)/3] {
			continue // cut between the members: the first is whole
		}
		if !errors.Is(err, ErrCompressed) {
			t.Fatalf("cut %d: error %v", cut, err)
		}
		if !strings.HasPrefix(text, string(got)) || len(got) > 0 && got[len(got)-1] != '\n' {
			t.Fatalf("cut %d: %d bytes handed out, not whole lines of the text (ends %q)", cut, len(got), got[max(0, len(got)-20):])
		}
		if want := fmt.Sprintf("after line %d", bytes.Count(got, []byte{'\n'})); !strings.Contains(err.Error(), want) && !strings.Contains(err.Error(), "trailing garbage") {
			t.Fatalf("cut %d: %v, want %q", cut, err, want)
		}
	}
}

// A stream is read once, never closed; no byte at all is the error asked
// for, or empty input.
func TestReader(t *testing.T) {
	empty := errors.New("nothing")
	if _, err := Reader(strings.NewReader(""), "in", empty); err != empty {
		t.Errorf("empty: %v", err)
	}
	for _, data := range []string{"", "a\nb\n", string(compress(t, "a\n", "b\n"))} {
		r, err := Reader(strings.NewReader(data), "in", nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if want := strings.ReplaceAll(data, string(compress(t, "a\n", "b\n")), "a\nb\n"); err != nil || string(got) != want {
			t.Errorf("%q: %q, %v", data, got, err)
		}
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	}
	z := append(compress(t, "a\n"), "junk"...)
	r, _ := Reader(bytes.NewReader(z), "in", nil)
	if got, err := io.ReadAll(r); string(got) != "a\n" || err == nil || err.Error() != "bad compressed file: bytes after the end of the gzip stream (after line 1) are not gzip data (trailing garbage)" {
		t.Errorf("trailing garbage: %q, %v", got, err)
	}
}

// Check reads a gzip stream on to its end: nil for one that ends
// cleanly or for plain text, the stream's error for one damaged after
// the bytes a reader took.
func TestCheck(t *testing.T) {
	var b strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i%7)
	}
	text := b.String()
	damaged := compress(t, text)
	damaged[len(damaged)-6] ^= 0xff // the CRC-32 in the trailer
	for _, c := range []struct {
		name string
		r    func() (io.ReadCloser, error)
		want string
	}{
		{"sound", func() (io.ReadCloser, error) { return Reader(strings.NewReader(string(compress(t, text))), "in", nil) }, ""},
		{"plain", func() (io.ReadCloser, error) { return Reader(strings.NewReader(text), "in", nil) }, ""},
		{"damaged", func() (io.ReadCloser, error) { return Reader(bytes.NewReader(damaged), "in", nil) }, "bad compressed file: damaged gzip stream after line 30000 (gzip: invalid checksum)"},
	} {
		r, err := c.r()
		if err != nil {
			t.Fatal(err)
		}
		line := make([]byte, 10)
		if _, err := io.ReadFull(r, line); err != nil || string(line) != text[:10] {
			t.Fatalf("%s: %q, %v", c.name, line, err)
		}
		err = Check(r)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want || !errors.Is(err, ErrCompressed)) {
			t.Errorf("%s: Check: %v, want %q", c.name, err, c.want)
		}
	}
	if err := Check(strings.NewReader("x")); err != nil {
		t.Errorf("another reader: %v", err)
	}
}

// BenchmarkRead reads 16 MB of CSV text compressed: gzfile's Reader
// (members, whole lines held back) beside compress/gzip's own reader.
func BenchmarkRead(b *testing.B) {
	var t strings.Builder
	for i := 0; t.Len() < 16<<20; i++ {
		fmt.Fprintf(&t, "%d,%.6f,%.6f,%d\n", i, float64(i)*0.37, float64(i%1000)/7, i%10)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(t.String()))
	zw.Close()
	buf := make([]byte, 64<<10)
	for _, c := range []struct {
		name string
		open func(r io.Reader) (io.Reader, error)
	}{
		{"compress-gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"gzfile", func(r io.Reader) (io.Reader, error) { return Reader(r, "in", nil) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(t.Len()))
			b.ReportAllocs()
			for range b.N {
				r, err := c.open(bytes.NewReader(z.Bytes()))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{r}, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
