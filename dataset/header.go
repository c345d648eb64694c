package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ReadHeader reads the start of delimited text as ReadCSV does and returns
// the names ReadCSV gives its columns, before any role is assigned or any
// cell parsed: a header's names (an unnamed first column is "rowname", the
// row names pandas and R write; another unnamed one cN), or c1, c2, … when
// the file has no header. The Source says which separator and whether a
// header were found; only opt.Sep, opt.NoHeader and opt.Header are read.
// A caller that knows which columns it wants (arbor predict: a model's
// features) can then give ReadCSV options that leave every other column
// unread. Errors are ReadCSV's for the same lines (ErrEmpty, ErrSyntax,
// ErrDuplicateColumn, ErrBadSep) as *ParseError values naming the file.
func ReadHeader(r io.Reader, name string, opt CSVOptions) ([]string, *Source, error) {
	sep, err := ParseSep(opt.Sep)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	src := &Source{Format: "csv", Markers: markerSet(opt.Unlabeled)}
	sample, rest, _, err := readSample(r)
	if err != nil {
		return nil, nil, readFailure(name, 1, err)
	}
	if err := checkEncoding(sample, name); err != nil {
		return nil, nil, err
	}
	sample = bytes.TrimPrefix(sample, []byte(utf8BOM))
	in := io.MultiReader(bytes.NewReader(sample), rest)
	if crOnly(sample) {
		src.CROnly = true
		sample = bytes.ReplaceAll(sample, []byte{'\r'}, []byte{'\n'})
		in = crToLF{io.MultiReader(bytes.NewReader(sample), rest)}
	}
	if sep == 0 {
		sep = sniffSep(sample)
		src.SepSniffed = true
	}
	src.Sep = string(sep)
	cr := &recordReader{br: bufio.NewReader(in), sep: sep}
	perr := func(line int, col string, err error) error {
		return &ParseError{File: name, Line: line, Column: col, Err: err}
	}
	readErr := func(err error) error {
		if se, ok := err.(*errSyntax); ok {
			return perr(se.line, "", fmt.Errorf("%w: %s", ErrSyntax, se.msg))
		}
		return readFailure(name, cr.line+1, err)
	}
	rec, err := cr.read()
	if err == io.EOF {
		return nil, nil, perr(1, "", fmt.Errorf("%w: no header row", ErrEmpty))
	}
	if err != nil {
		return nil, nil, readErr(err)
	}
	first := make([][]byte, len(rec))
	for j, c := range rec {
		first[j] = bytes.Clone(c)
	}
	line := cr.lines[0]
	if len(first) == 1 && len(bytes.TrimSpace(first[0])) == 0 {
		return nil, nil, perr(line, "", fmt.Errorf("%w: blank header row", ErrEmpty))
	}
	hasHeader := true
	switch {
	case opt.NoHeader:
		hasHeader = false
	case opt.Header:
	default:
		second, err := cr.read()
		if err != nil && err != io.EOF {
			return nil, nil, readErr(err)
		}
		hasHeader = looksLikeHeader(first, second, sep != ',')
		src.HeaderSniffed = true
	}
	src.Header = hasHeader
	names := make([]string, len(first))
	seen := make(map[string]int, len(first))
	for j, c := range first {
		h := string(bytes.TrimSpace(c))
		switch {
		case !hasHeader:
			h = "c" + strconv.Itoa(j+1)
		case h == "" && j == 0:
			h = "rowname"
		case h == "":
			h = "c" + strconv.Itoa(j+1)
		}
		if k, dup := seen[h]; dup && hasHeader {
			return nil, nil, perr(line, h, fmt.Errorf("%w: columns %d and %d", ErrDuplicateColumn, k+1, j+1))
		}
		seen[h] = j
		names[j] = h
	}
	return names, src, nil
}

// ColumnIndex resolves a column reference as CSVOptions do (Label, ID,
// Ignore): an exact name, a unique case-insensitive name, or a 1-based
// position; false when it names no column of header.
func ColumnIndex(header []string, ref string) (int, bool) {
	return findColumn(header, ref)
}

// OpenData opens a data argument of the commands that read delimited text
// in chunks: the file path (Open), or, when no such file exists, the CSV
// text of the embedded set it names ("iris" or "embedded:iris"), so that
// new points can come from the name a model was fitted on. An embedded set
// kept as LIBSVM text (not in EmbeddedDelimited) is an error saying so. Other
// errors are Open's.
func OpenData(path string) (io.ReadCloser, error) {
	r, err := Open(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !IsEmbedded(path) {
		return r, err
	}
	name := strings.TrimPrefix(path, "embedded:")
	b, err := openEmbedded(name + ".csv")
	if err != nil {
		return nil, fmt.Errorf("%s: no such file, and the embedded set %s is LIBSVM text, which is not read in chunks", path, name)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// Open opens path for reading, decompressed on the fly when its name ends
// in ".gz" (any case), as Load reads it; concatenated gzip members are
// read one after the other, as gzip -d does. Errors name path: the
// file's own, and ErrCompressed for a .gz file that is empty (0 bytes) or
// not gzip data; a read of a truncated or damaged stream, or of trailing
// bytes that are not gzip, fails with ErrCompressed saying after which
// line of the decompressed text.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		return f, nil
	}
	br := bufio.NewReaderSize(f, 1<<16)
	if _, err := br.Peek(1); err == io.EOF {
		f.Close()
		return nil, fmt.Errorf("%s: %w: empty file (0 bytes), no gzip data", path, ErrCompressed)
	}
	if head, _ := br.Peek(2); !bytes.HasPrefix([]byte{0x1f, 0x8b}, head) {
		// gzip's magic number, looked at before the header is read: a
		// file shorter than a header is not "truncated" unless it starts
		// as gzip data does.
		f.Close()
		return nil, fmt.Errorf("%s: %w: not gzip data (no gzip header; is the file compressed?)", path, ErrCompressed)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		f.Close()
		switch {
		case errors.Is(err, gzip.ErrHeader):
			return nil, fmt.Errorf("%s: %w: not gzip data (no gzip header; is the file compressed?)", path, ErrCompressed)
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: %w: truncated inside the gzip header", path, ErrCompressed)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	zr.Multistream(false)
	return &gzFile{zr: zr, br: br, f: f}, nil
}

// ErrCompressed: a .gz file that is empty, not gzip data, truncated or
// damaged.
var ErrCompressed = errors.New("bad compressed file")

// gzFile reads the gzip members of a file one after the other, counting
// the lines it has handed out for its errors, and closes the file (f; nil
// for standard input, which is not closed).
type gzFile struct {
	zr    *gzip.Reader
	br    *bufio.Reader
	f     *os.File
	lines int
	err   error // sticky: the first error (or io.EOF)
}

func (g *gzFile) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.zr.Read(p)
	g.lines += bytes.Count(p[:n], []byte{'\n'})
	switch {
	case err == io.EOF:
		// the end of one member: the end of the file, or the next member
		if _, e := g.br.Peek(1); e == io.EOF {
			g.err = io.EOF
			return n, io.EOF
		}
		if e := g.zr.Reset(g.br); e != nil {
			g.err = fmt.Errorf("%w: bytes after the end of the gzip stream (after line %d) are not gzip data (trailing garbage)", ErrCompressed, g.lines)
			return n, g.err
		}
		g.zr.Multistream(false)
		return n, nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		what := "the file"
		if g.f == nil {
			what = "the input"
		}
		g.err = fmt.Errorf("%w: truncated gzip stream: %s ends inside the compressed data, after line %d", ErrCompressed, what, g.lines)
	case err != nil:
		g.err = fmt.Errorf("%w: damaged gzip stream after line %d (%v)", ErrCompressed, g.lines, err)
	}
	return n, g.err
}

func (g *gzFile) Close() error {
	err := g.zr.Close()
	if g.f == nil {
		return err
	}
	if e := g.f.Close(); err == nil {
		err = e
	}
	return err
}

// readFailure is the error of reading name at line: "name:line: err", or
// "name: err" for a compressed stream's error (it says after which line).
func readFailure(name string, line int, err error) error {
	if errors.Is(err, ErrCompressed) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return fmt.Errorf("%s:%d: %w", name, line, err)
}

// Unread returns the columns of header that are neither one of features
// nor named by one of refs (names or positions as ColumnIndex reads them;
// empty refs skipped): the Ignore list of a reader that knows the columns
// it wants, so that no other column is parsed. absent lists the features
// header lacks.
func Unread(header, features []string, refs ...string) (unread, absent []string) {
	want := make([]bool, len(header))
	for _, f := range features {
		j := slices.Index(header, f)
		if j < 0 {
			absent = append(absent, f)
			continue
		}
		want[j] = true
	}
	for _, ref := range refs {
		if ref == "" {
			continue
		}
		if j, ok := ColumnIndex(header, ref); ok {
			want[j] = true
		}
	}
	for j, h := range header {
		if !want[j] {
			unread = append(unread, h)
		}
	}
	return unread, absent
}
