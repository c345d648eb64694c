package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// Sentinel errors. Readers wrap them in a *ParseError that says where the
// problem is; test for them with errors.Is.
var (
	ErrEmpty           = errors.New("empty input")
	ErrNoRows          = errors.New("header only, no data rows")
	ErrRagged          = errors.New("ragged row")
	ErrNotNumber       = errors.New("not a number")
	ErrNonFinite       = errors.New("non-finite value")
	ErrDuplicateColumn = errors.New("duplicate column name")
	ErrNoLabelColumn   = errors.New("no such label column")
	ErrTooFewRows      = errors.New("too few rows: need at least 2")

	// ErrNoFeatures: the input has no feature column (CSV) or no feature
	// index on any row (LIBSVM).
	ErrNoFeatures = errors.New("no feature columns")
	// ErrSyntax: malformed CSV quoting or a malformed LIBSVM token.
	ErrSyntax = errors.New("syntax error")
	// ErrBadIndex: a LIBSVM feature index that is not a positive integer,
	// is not strictly increasing, or is too large.
	ErrBadIndex = errors.New("bad feature index")
	// ErrTooLarge: the dense matrix would exceed MaxCells values, or a
	// line of text MaxLineBytes bytes.
	ErrTooLarge = errors.New("data too large")
	// ErrFormat: Load cannot tell the format from the file name.
	ErrFormat = errors.New("unknown data format")
	// ErrUnknownName: no embedded set or split of that name.
	ErrUnknownName = errors.New("unknown embedded data set")
	// ErrIndexRange: a split index outside 0..n-1.
	ErrIndexRange = errors.New("index out of range")
	// ErrDuplicateIndex: the same index twice on one split line.
	ErrDuplicateIndex = errors.New("duplicate index")
	// ErrUnknownScale: Scale was given a method other than "none", "std" or "minmax".
	ErrUnknownScale = errors.New("unknown scaling")
)

// MaxCells bounds the number of matrix entries (rows × features) a reader
// will allocate: a sparse LIBSVM line "1 2000000000:1" must not make the
// reader try to allocate terabytes. 1<<28 values are 2 GiB.
const MaxCells = 1 << 28

// MaxLineBytes bounds a line of a text data file (CSV, TSV, LIBSVM,
// splits, arbor predict's input) and a CSV record whose quoted field spans
// lines: a longer one is ErrTooLarge, found once that many bytes are read,
// not after the whole line (a file that is one 300 MB line, such as a
// binary file or a JSON array, would otherwise be held whole and split).
// 64 MiB is a line of some six million numeric cells, more than MaxCells
// allows in a dozen rows.
const MaxLineBytes = 64 << 20

// errLineTooLong is the error of a line longer than MaxLineBytes.
func errLineTooLong() error {
	return fmt.Errorf("%w: a line longer than %d MiB (not delimited text with one row per line?)", ErrTooLarge, MaxLineBytes>>20)
}

// ReadLine appends the next line of br, with its '\n' when it has one, to
// dst[:0] and returns it. A line longer than MaxLineBytes is ErrTooLarge
// (wrapped), returned once MaxLineBytes bytes of it are read; at the end
// of the input the error is io.EOF, with the last line (if unterminated).
func ReadLine(br *bufio.Reader, dst []byte) ([]byte, error) {
	dst = dst[:0]
	for {
		b, err := br.ReadSlice('\n')
		if len(dst)+len(b) > MaxLineBytes {
			return nil, errLineTooLong()
		}
		dst = append(dst, b...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return dst, err
		}
	}
}

// ParseError records where reading a data file failed.
//
// Its message has the form
//
//	data.csv:12: column "x3": not a number "1,5"
//
// with the line (1-based, physical: a quoted field spanning lines counts
// every line) and the column left out when unknown (Line 0, Column "").
type ParseError struct {
	File   string // file name as given to the reader
	Line   int    // 1-based physical line, 0 if not applicable
	Column string // column name (CSV header, "label", or LIBSVM index), "" if not applicable
	Err    error  // wraps one of the sentinel errors above
	// TextColumns, for ErrNotNumber in a delimited file, names the other
	// feature columns whose cell on the same row is text too (not a number,
	// not a missing-value marker), so that one message can name every
	// column that needs a role (--id, --ignore, --label).
	TextColumns []string
	// LabelColumn, with TextColumns, is the label column in use ("" when
	// the file is read without one).
	LabelColumn string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Column != "" {
		b.WriteString("column ")
		b.WriteString(quote.Cell(e.Column))
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error, so errors.Is(err, ErrNotNumber) works.
func (e *ParseError) Unwrap() error { return e.Err }

// More sentinel errors of the readers.
var (
	// ErrMissing: a missing feature value (empty cell, NA, ?, NaN) where
	// the caller did not allow them (CSVOptions.AllowMissing), or a
	// method that cannot use them (Dataset.MissingError).
	ErrMissing = errors.New("missing value")
	// ErrUnknownColumn: a column named in CSVOptions (ID, Ignore,
	// Features) is not in the file.
	ErrUnknownColumn = errors.New("no such column")
	// ErrBadSep: an unknown separator name (ParseSep).
	ErrBadSep = errors.New("unknown separator")
	// ErrRoles: CSVOptions give one column two roles (label and id, a
	// feature that is also ignored, ...).
	ErrRoles = errors.New("conflicting column roles")
)
