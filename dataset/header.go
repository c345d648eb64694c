package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/gzfile"
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

// Open opens path for reading, decompressed on the fly when it is gzip
// data (gzfile.Open: it starts with gzip's magic bytes 1f 8b, whatever
// its name), as Load and the readers of splits, folds, edge lists and
// saved models read files; concatenated gzip members are read one after
// the other, as gzip -d does. Errors name path: the file's own, and
// ErrCompressed for a .gz file (any case) that is empty (0 bytes) or not
// gzip data, or a gzip header cut short or damaged; a read of a
// truncated or damaged stream, or of trailing bytes that are not gzip,
// fails with ErrCompressed saying after which line of the decompressed
// text.
func Open(path string) (io.ReadCloser, error) {
	return gzfile.Open(path)
}

// ErrCompressed: a .gz file that is empty, not gzip data, truncated or
// damaged (gzfile.ErrCompressed).
var ErrCompressed = gzfile.ErrCompressed

// StreamError returns err, an error met in the text read from r (named
// name), or the error of r's gzip stream instead when r is gzip input
// (Open, OpenInput) that turns out damaged or cut short further on: a
// damaged stream may decompress to garbled text, a cell that is not a
// number or a ragged row, before gzip finds the damage at the end of its
// member. Only a *ParseError is checked, by reading the rest of r.
func StreamError(r io.Reader, name string, err error) error {
	var pe *ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if zerr := gzfile.Check(r); zerr != nil {
		return fmt.Errorf("%s: %w", name, zerr)
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
