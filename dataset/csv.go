package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
	"gonum.org/v1/gonum/mat"
)

// CSVOptions say how to read a delimited text file: which column holds
// the labels, which one row IDs, which columns are features, the
// separator, whether the first row is a header, and what marks an
// unlabelled row.
//
// Column references (Label, ID, Ignore, Features) are header names (exact,
// or case-insensitive when that is unique) or 1-based column positions;
// a file without a header names its columns c1, c2, ….
type CSVOptions struct {
	// Label names the label column. "" chooses it: a column named
	// "label", else one named "class", "target" or "y" (any case; not "y"
	// beside a column "x": coordinates), else,
	// in a file without a header, the last column when its first cell
	// that is neither missing nor an unlabelled marker (looked for in the
	// first 10,000 rows) is text; Source.LabelAuto says so. When none is found the result is
	// ErrNoLabelColumn, unless LabelOptional.
	Label string
	// NoLabel reads no label column: all rows are Unlabeled. It overrides Label.
	NoLabel bool
	// LabelOptional: with Label "", a file with no label column found is
	// read with no labels instead of failing.
	LabelOptional bool
	// ID names a column of row identifiers, kept as strings in
	// Dataset.IDs and never a feature. A first column with an empty
	// header name (the row names pandas' to_csv and R's write.csv write)
	// is taken as the ID column "rowname" unless the options give that
	// column another role (Source.IDAuto).
	ID string
	// Ignore names columns to skip.
	Ignore []string
	// Features, when set, lists the feature columns in order: names,
	// positions, or ranges "A..B" (inclusive, in file order). By default
	// every column but the label, ID and ignored ones is a feature.
	Features []string
	// NoHeader: the first row is data; columns are named c1, c2, ….
	// Header: the first row is a header. With neither, the first row is a
	// header unless it looks like data: no text cell above a number in
	// the second row, and not just the column numbers 0..d−1 or 1..d.
	NoHeader, Header bool
	// Sep is the separator (see ParseSep); "" finds it from the first
	// lines: tab, semicolon, comma or pipe, else runs of blanks.
	Sep string
	// Unlabeled lists the label cells that mark an unlabelled row, in
	// addition to the empty cell; nil means DefaultUnlabeled ("", "?",
	// "NA"). Give {"-1"} for scikit-learn's convention.
	Unlabeled []string
	// AllowMissing keeps missing feature values (empty, "?", "NA", "N/A",
	// "NaN", "null") as NaN and lists them in Dataset.Missing; without it
	// the first one is an ErrMissing error.
	AllowMissing bool
	// OneRow accepts a file with a single data row (new points to label);
	// by default one row is ErrTooFewRows. Load passes it to ReadLIBSVM too.
	OneRow bool
}

// labelLookahead and labelLookaheadBytes bound the rows a file without a
// header is read ahead for a labelled cell of its last column.
const (
	labelLookahead      = 10000
	labelLookaheadBytes = 16 << 20
)

// autoLabels are the names a label column is recognised by, in order.
var autoLabels = []string{"label", "class", "target", "y"}

// IsAutoLabel reports whether a column of this name is taken as the label
// without --label (any case).
func IsAutoLabel(name string) bool {
	for _, a := range autoLabels {
		if strings.EqualFold(a, strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// utf8BOM is the byte-order mark some editors put at the start of a CSV file.
const utf8BOM = "\xef\xbb\xbf"

// ReadCSV reads a delimited text table: comma-, tab-, semicolon- or
// blank-separated, with or without a header row (see CSVOptions).
//
// The label column holds the class names; a cell in opt.Unlabeled (by
// default empty, "?" or "NA") marks an unlabelled row (Y = Unlabeled). The
// ID column is kept as strings. Every other column is a numeric feature
// parsed as float64 (strconv.ParseFloat syntax, or a decimal comma "1,5"
// when the separator is not a comma); ±Inf is rejected; missing values
// are kept as NaN with opt.AllowMissing. Quoting follows RFC 4180, like
// encoding/csv; CRLF or bare CR line ends, blank lines, a trailing
// newline, a UTF-8 byte-order mark and spaces around cells (also around a
// quoted cell) and header names are accepted. Dataset.Source records what
// was decided from the content.
//
// Class names are compared as exact values when all of them are numbers
// (so "1.0" and "1" are one class "1", "12345678901234567" and
// "12345678901234568" two; a file with integer labels 0..C-1 gets Y equal
// to the integer) and sorted by value, lexically otherwise.
//
// name is used for messages and Dataset.Name. Errors are *ParseError values
// wrapping ErrEmpty, ErrNoRows, ErrRagged, ErrNotNumber, ErrNonFinite,
// ErrMissing, ErrDuplicateColumn, ErrNoLabelColumn, ErrUnknownColumn,
// ErrRoles, ErrTooFewRows, ErrNoFeatures, ErrSyntax or ErrTooLarge (or
// ErrBadSep for opt.Sep); an error of r itself is returned wrapped with
// the file name.
//
// Time and memory are linear in the input size.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	sep, err := ParseSep(opt.Sep)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	src := &Source{Format: "csv", Markers: markerSet(opt.Unlabeled)}
	sample, rest, whole, err := readSample(r)
	if err != nil {
		return nil, readFailure(name, 1, err)
	}
	if err := checkEncoding(sample, name); err != nil {
		return nil, err
	}
	sample = bytes.TrimPrefix(sample, []byte(utf8BOM))
	size := 1 << 16
	if whole {
		size = max(16, len(sample)) // a small input needs no 64 KiB buffer
	}
	var br *bufio.Reader
	if crOnly(sample) {
		src.CROnly = true
		sample = bytes.ReplaceAll(sample, []byte{'\r'}, []byte{'\n'})
		br = bufio.NewReaderSize(crToLF{io.MultiReader(bytes.NewReader(sample), rest)}, size)
	} else {
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(sample), rest), size)
	}
	if sep == 0 {
		sep = sniffSep(sample)
		src.SepSniffed = true
	}
	src.Sep = string(sep)
	decimalComma := sep != ','
	cr := &recordReader{br: br, sep: sep}

	perr := func(line int, col string, err error) error {
		return &ParseError{File: name, Line: line, Column: col, Err: err}
	}
	readErr := func(err error) error {
		var se *errSyntax
		if errors.As(err, &se) {
			return perr(se.line, "", fmt.Errorf("%w: %s", ErrSyntax, se.msg))
		}
		return readFailure(name, cr.line+1, err)
	}

	// The first two records decide whether there is a header.
	type record struct {
		fields [][]byte
		lines  []int
	}
	save := func(rec [][]byte) record {
		f := make([][]byte, len(rec))
		for j, c := range rec {
			f[j] = bytes.Clone(c)
		}
		return record{f, slices.Clone(cr.lines)}
	}
	var pending []record
	rec, err := cr.read()
	if err == io.EOF {
		return nil, perr(1, "", fmt.Errorf("%w: no header row", ErrEmpty))
	}
	if err != nil {
		return nil, readErr(err)
	}
	first := save(rec)
	if len(rec) == 1 && len(bytes.TrimSpace(rec[0])) == 0 {
		return nil, perr(first.lines[0], "", fmt.Errorf("%w: blank header row", ErrEmpty))
	}
	hasHeader, rowNames := true, false
	switch {
	case opt.NoHeader:
		hasHeader = false
	case opt.Header:
	default:
		rec, err = cr.read()
		if err != nil && err != io.EOF {
			return nil, readErr(err)
		}
		var second [][]byte
		if err == nil {
			pending = append(pending, save(rec))
			second = pending[0].fields
		}
		hasHeader = looksLikeHeader(first.fields, second, decimalComma)
		src.HeaderSniffed = true
	}
	src.Header = hasHeader
	ncol := len(first.fields)
	header := make([]string, ncol)
	headerLine := first.lines[0]
	if hasHeader {
		seen := make(map[string]int, ncol)
		for j, hb := range first.fields {
			h := string(bytes.TrimSpace(hb))
			if h == "" {
				// pandas and R write row names under an empty name
				h = "c" + strconv.Itoa(j+1)
				if j == 0 {
					h = "rowname"
					rowNames = true
				}
			}
			if k, dup := seen[h]; dup {
				return nil, perr(headerLine, h, fmt.Errorf("%w: columns %d and %d", ErrDuplicateColumn, k+1, j+1))
			}
			seen[h] = j
			header[j] = h
		}
	} else {
		for j := range header {
			header[j] = "c" + strconv.Itoa(j+1)
		}
		pending = append([]record{first}, pending...)
	}

	if rowNames && opt.ID == "" && len(opt.Features) == 0 && !opt.NoLabel && opt.Label != "rowname" && opt.Label != "1" {
		ignored := false
		for _, g := range opt.Ignore {
			ignored = ignored || strings.TrimSpace(g) == "rowname" || strings.TrimSpace(g) == "1"
		}
		if !ignored {
			opt.ID = "rowname"
			src.IDAuto = true
		}
	}
	// Without a header the label column is the last one when its first
	// labelled cell is text; unlabelled rows ("?", empty) may come first,
	// so the rows up to that cell are read ahead (at most labelLookahead).
	var lastCell []byte
	var aheadErr error // a read error of the look-ahead, returned in its turn
	if !hasHeader && opt.Label == "" && !opt.NoLabel && ncol > 1 {
		found := func(fields [][]byte) bool {
			if len(fields) != ncol {
				return false // ragged: reported in its turn
			}
			c := bytes.TrimSpace(fields[ncol-1])
			if isMissingCell(c) || contains(src.Markers, string(c)) {
				return false
			}
			lastCell = c
			return true
		}
		done := false
		for _, p := range pending {
			if done = found(p.fields); done {
				break
			}
		}
		for size := 0; !done && len(pending) < labelLookahead && size < labelLookaheadBytes; {
			rec, err = cr.read()
			if err != nil {
				aheadErr = err
				break
			}
			p := save(rec)
			pending = append(pending, p)
			for _, c := range p.fields {
				size += len(c)
			}
			done = found(p.fields)
		}
	}
	roles, err := resolveRoles(header, hasHeader, lastCell, decimalComma, opt)
	if err != nil && aheadErr != nil && aheadErr != io.EOF {
		return nil, readErr(aheadErr) // the file broke before a labelled cell
	}
	if err != nil {
		return nil, perr(headerLine, roles.errCol, err)
	}
	src.LabelAuto = roles.labelAuto
	src.Ignored = roles.ignored
	labelCol, idCol := roles.label, roles.id
	d := len(roles.features)
	colFeat := make([]int, ncol) // feature index of each column, -1 none
	for j := range colFeat {
		colFeat[j] = -1
	}
	features := make([]string, d)
	for f, j := range roles.features {
		colFeat[j] = f
		features[f] = header[j]
	}

	var (
		data     = make([]float64, 0, min(64*d, 1<<16))
		rawY     []int // index into rawNames, or Unlabeled
		rawNames []string
		rawIdx   = map[string]int{}
		ids      []string
		missing  []Cell
		rowLines []int
		n        int
		lastLine int
		row      = make([]float64, d)
	)
	markers := src.Markers
	for {
		var lines []int
		if len(pending) > 0 {
			rec, lines = pending[0].fields, pending[0].lines
			pending = pending[1:]
		} else {
			if aheadErr != nil {
				rec, err = nil, aheadErr
			} else {
				rec, err = cr.read()
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, readErr(err)
			}
			lines = cr.lines
		}
		line := lines[0]
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
			f := colFeat[j]
			if f >= 0 {
				v, err := parseFloatBytes(s)
				if err != nil {
					if isMissingCell(s) {
						if !opt.AllowMissing {
							return nil, perr(lines[j], header[j], missingErr(s))
						}
						missing = append(missing, Cell{Row: n, Col: f, Line: lines[j]})
						row[f] = math.NaN()
						continue
					}
					if decimalComma && bytes.Count(s, []byte{','}) == 1 && bytes.IndexByte(s, '.') < 0 {
						if v2, err2 := parseFloatBytes(bytes.Replace(s, []byte{','}, []byte{'.'}, 1)); err2 == nil {
							v, err = v2, nil
							src.DecimalCommas++
						}
					}
					if err != nil {
						pe := perr(lines[j], header[j], err).(*ParseError)
						if labelCol >= 0 {
							pe.LabelColumn = header[labelCol]
						}
						for k := j + 1; k < len(rec) && errors.Is(err, ErrNotNumber); k++ {
							if colFeat[k] >= 0 && isTextCell(bytes.TrimSpace(rec[k]), decimalComma) {
								pe.TextColumns = append(pe.TextColumns, header[k])
							}
						}
						return nil, pe
					}
				}
				row[f] = v
				continue
			}
			switch j {
			case labelCol:
				if contains(markers, string(s)) {
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
			case idCol:
				ids = append(ids, string(s))
			}
		}
		data = append(data, row...)
		rowLines = append(rowLines, line)
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
	ds := &Dataset{
		Name:     name,
		X:        mat.NewDense(n, d, data),
		Y:        rawY,
		Classes:  classes,
		Features: features,
		Missing:  missing,
		Source:   src,
		Lines:    rowLines,
	}
	if labelCol >= 0 {
		ds.LabelName = header[labelCol]
	}
	if idCol >= 0 {
		ds.IDName, ds.IDs = header[idCol], ids
	}
	return ds, nil
}

// parseFloat parses a trimmed numeric cell; errors wrap ErrNotNumber or
// ErrNonFinite and quote the cell.
//
// Go's syntax is narrowed to what data files mean by a number:
// strconv.ParseFloat would read "309_1" (a sample ID) as 3091 and accept
// hexadecimal "0x1p3"; both are ErrNotNumber here.
func parseFloat(s string) (float64, error) {
	if strings.IndexByte(s, '_') >= 0 || strings.Contains(s, "0x") || strings.Contains(s, "0X") {
		return 0, fmt.Errorf("%w %s", ErrNotNumber, quote.Cell(s))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: %s overflows float64", ErrNonFinite, quote.Cell(s))
		}
		if s == "" {
			return 0, fmt.Errorf("%w: empty cell", ErrNotNumber)
		}
		return 0, fmt.Errorf("%w %s", ErrNotNumber, quote.Cell(s))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w %s", ErrNonFinite, quote.Cell(s))
	}
	return v, nil
}

// listNames quotes up to max names for a message, and the last one.
func listNames(names []string, max int) string {
	var b strings.Builder
	for i, s := range names {
		if i == max && i < len(names)-1 {
			// The last column too: it is where class columns usually are.
			fmt.Fprintf(&b, ", ... (%d columns), %s", len(names), quote.Cell(names[len(names)-1]))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote.Cell(s))
	}
	return b.String()
}

// missingErr describes a missing cell that is not allowed.
func missingErr(s []byte) error {
	if len(s) == 0 {
		return fmt.Errorf("%w: empty cell", ErrMissing)
	}
	return fmt.Errorf("%w %s", ErrMissing, quote.Cell(string(s)))
}
