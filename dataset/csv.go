package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// CSVOptions selects the label column of a CSV file.
type CSVOptions struct {
	// Label is the name of the label column; "" means "label".
	Label string
	// NoLabel reads every column as a feature; all rows are Unlabeled.
	// It overrides Label.
	NoLabel bool
	// OneRow accepts a file with a single data row (new points to label);
	// by default one row is ErrTooFewRows. Load passes it to ReadLIBSVM too.
	OneRow bool
}

func (o CSVOptions) labelName() string {
	if o.Label == "" {
		return "label"
	}
	return o.Label
}

// utf8BOM is the byte-order mark some editors put at the start of a CSV file.
const utf8BOM = "\xef\xbb\xbf"

// ReadCSV reads a comma-separated table with a header row.
//
// The column named opt.Label ("label" by default) holds the class names; an
// empty cell or "?" there marks an unlabelled row (Y = Unlabeled). With
// opt.NoLabel there is no label column. Every other column is a numeric
// feature parsed as float64 (strconv.ParseFloat syntax); NaN and ±Inf are
// rejected. Quoting follows RFC 4180, like encoding/csv; CRLF line ends, blank
// lines, a trailing newline, a UTF-8 byte-order mark and spaces around
// cells (also around a quoted cell) and header names are accepted.
//
// Class names are sorted numerically when all of them are numbers (and then
// written in canonical form, so "1.0" and "1" are one class "1"; a file with
// integer labels 0..C-1 gets Y equal to the integer), lexically otherwise.
//
// name is used for messages and Dataset.Name. Errors are *ParseError values
// wrapping ErrEmpty, ErrNoRows, ErrRagged, ErrNotNumber, ErrNonFinite,
// ErrDuplicateColumn, ErrNoLabelColumn, ErrTooFewRows, ErrNoFeatures,
// ErrSyntax or ErrTooLarge; an error of r itself is returned wrapped with
// the file name.
//
// Time and memory are linear in the input size.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, err := br.Peek(len(utf8BOM)); err == nil && string(b) == utf8BOM {
		br.Discard(len(utf8BOM))
	}
	cr := &recordReader{br: br}

	perr := func(line int, col string, err error) error {
		return &ParseError{File: name, Line: line, Column: col, Err: err}
	}
	readErr := func(err error) error {
		var se *errSyntax
		if errors.As(err, &se) {
			return perr(se.line, "", fmt.Errorf("%w: %s", ErrSyntax, se.msg))
		}
		return fmt.Errorf("%s:%d: %w", name, cr.line+1, err)
	}

	rec, err := cr.read()
	if err == io.EOF {
		return nil, perr(1, "", fmt.Errorf("%w: no header row", ErrEmpty))
	}
	if err != nil {
		return nil, readErr(err)
	}
	headerLine := cr.lines[0]
	if len(rec) == 1 && len(bytes.TrimSpace(rec[0])) == 0 {
		return nil, perr(headerLine, "", fmt.Errorf("%w: blank header row", ErrEmpty))
	}
	ncol := len(rec)
	header := make([]string, ncol)
	seen := make(map[string]int, ncol)
	for j, hb := range rec {
		h := string(bytes.TrimSpace(hb))
		if h == "" {
			return nil, perr(headerLine, "", fmt.Errorf("%w: empty name for column %d of the header", ErrSyntax, j+1))
		}
		if k, dup := seen[h]; dup {
			return nil, perr(headerLine, h, fmt.Errorf("%w: columns %d and %d", ErrDuplicateColumn, k+1, j+1))
		}
		seen[h] = j
		header[j] = h
	}

	labelCol := -1
	if !opt.NoLabel {
		ln := opt.labelName()
		j, ok := seen[ln]
		if !ok {
			return nil, perr(headerLine, ln, fmt.Errorf("%w (header has %s)", ErrNoLabelColumn, listNames(header, 8)))
		}
		labelCol = j
	}
	d := ncol
	if labelCol >= 0 {
		d--
	}
	if d == 0 {
		return nil, perr(headerLine, "", fmt.Errorf("%w: the only column is the label column %q", ErrNoFeatures, header[labelCol]))
	}
	features := make([]string, 0, d)
	for j, h := range header {
		if j != labelCol {
			features = append(features, h)
		}
	}

	var (
		data     = make([]float64, 0, min(64*d, 1<<16))
		rawY     []int // index into rawNames, or Unlabeled
		rawNames []string
		rawIdx   = map[string]int{}
		n        int
		lastLine int
	)
	for {
		rec, err = cr.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readErr(err)
		}
		line := cr.lines[0]
		lastLine = line
		if len(rec) != ncol {
			col := ""
			if len(rec) < ncol {
				col = header[len(rec)]
			}
			return nil, perr(line, col, fmt.Errorf("%w: %d fields, header has %d", ErrRagged, len(rec), ncol))
		}
		if (n+1)*d > MaxCells {
			return nil, perr(line, "", fmt.Errorf("%w: more than %d values", ErrTooLarge, MaxCells))
		}
		for j, cell := range rec {
			s := bytes.TrimSpace(cell)
			if j == labelCol {
				if len(s) == 0 || (len(s) == 1 && s[0] == '?') {
					rawY = append(rawY, Unlabeled)
					continue
				}
				k, ok := rawIdx[string(s)]
				if !ok {
					k = len(rawNames)
					rawNames = append(rawNames, string(s))
					rawIdx[string(s)] = k
				}
				rawY = append(rawY, k)
				continue
			}
			v, err := parseFloatBytes(s)
			if err != nil {
				return nil, perr(cr.lines[j], header[j], err)
			}
			data = append(data, v)
		}
		if labelCol < 0 {
			rawY = append(rawY, Unlabeled)
		}
		n++
	}
	switch n {
	case 0:
		return nil, perr(headerLine+1, "", ErrNoRows)
	case 1:
		if !opt.OneRow {
			return nil, perr(lastLine, "", fmt.Errorf("%w: only one data row", ErrTooFewRows))
		}
	}
	classes, remap := sortClasses(rawNames)
	for i, k := range rawY {
		if k != Unlabeled {
			rawY[i] = remap[k]
		}
	}
	return &Dataset{
		Name:     name,
		X:        mat.NewDense(n, d, data),
		Y:        rawY,
		Classes:  classes,
		Features: features,
	}, nil
}

// parseFloat parses a trimmed numeric cell; errors wrap ErrNotNumber or
// ErrNonFinite and quote the cell.
func parseFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: %q overflows float64", ErrNonFinite, s)
		}
		if s == "" {
			return 0, fmt.Errorf("%w: empty cell", ErrNotNumber)
		}
		return 0, fmt.Errorf("%w %q", ErrNotNumber, s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w %q", ErrNonFinite, s)
	}
	return v, nil
}

// listNames quotes up to max names for a message.
func listNames(names []string, max int) string {
	var b strings.Builder
	for i, s := range names {
		if i == max {
			fmt.Fprintf(&b, ", ... (%d columns)", len(names))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(s))
	}
	return b.String()
}
