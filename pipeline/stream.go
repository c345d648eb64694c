package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/dataset"
)

// DefaultChunk is the number of rows Stream hands over at a time.
const DefaultChunk = 4096

// Stream reads delimited text from r in chunks of at most chunk rows
// (≤ 0: DefaultChunk) and calls fn with each chunk as a data set, in file
// order, holding only one chunk in memory. Columns take their roles from
// opt exactly as dataset.ReadCSV gives them (the first chunk settles the
// separator and whether there is a header, which later chunks reuse); a
// file without a label column is read as features only. Errors name the
// file and the physical line in it, not in the chunk (also the lines of
// ds.Missing). Limitation: a quoted field may not span lines; LIBSVM text
// is dataset.ErrFormat. fn's error stops the stream and is returned.
func Stream(ctx context.Context, r io.Reader, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error {
	return stream(ctx, r, name, opt, chunk, nil, nil, fn)
}

// Stream reads new points for p from r as the package's Stream does, with
// the columns matched to the model's: in a file with a header, every
// column that is not one of p.Features is left unread (not parsed as a
// number), whatever its content; the label column of the training file
// (p.LabelName) is not read and its ID column (p.IDName), when the file
// has it, gives the IDs (ds.IDs), as does an unnamed first column (row
// names) for a model without one. Options given win: opt.ID and opt.Label
// (a label column then read, not a feature), opt.Ignore (also skipped),
// opt.Features (the columns exactly as given, nothing else decided). A
// file without a header is read with opt unchanged (its columns are
// matched by position, see Columns). A model feature absent from the
// header is an ErrColumns error naming it and the file before any row is
// read.
//
// A model feature's value that would overflow the kernel's sums of
// squares, before or after the model's scaling (see CheckNew), is a
// *dataset.ParseError wrapping dataset.ErrMagnitude that names the file's
// line and the feature; fn is not called for its chunk.
func (p *Pipeline) Stream(ctx context.Context, r io.Reader, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error {
	return stream(ctx, r, name, opt, chunk, p.columnOptions, nil, p.checked(fn))
}

// StreamPart reads part of a file of new points for p as Stream reads the
// whole file, for reading one file in parts on several machines: header
// is the file's header line (its first non-blank line, with its newline;
// nil for a file without a header) and r holds whole lines of the file
// from physical line first on, so that errors and ds.Missing name the
// file's lines (first ≤ 0: the lines are counted from the start of r).
// opt should fix the separator and whether there is a header (Sep, and
// Header or NoHeader) as the file's head settles them (ds.Source of
// Stream's first chunk), so that every part is read alike. A part
// without a row (only blank lines) is an error, as a file without one.
func (p *Pipeline) StreamPart(ctx context.Context, header []byte, r io.Reader, first int, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error {
	header, lineOf := partLines(header, first)
	return stream(ctx, io.MultiReader(bytes.NewReader(header), r), name, opt, chunk, p.columnOptions, lineOf, p.checked(fn))
}

// checked is fn after CheckNew: a chunk with a value too large for the
// kernel stops the stream before fn sees it.
func (p *Pipeline) checked(fn func(ds *dataset.Dataset) error) func(ds *dataset.Dataset) error {
	return func(ds *dataset.Dataset) error {
		if err := p.CheckNew(ds); err != nil {
			return err
		}
		return fn(ds)
	}
}

// CheckNew checks the new points ds (columns matched by name, as Columns
// does) against the rule training data follow: a model feature's value v
// must satisfy |v| ≤ dataset.MagnitudeLimit(d, 1) for the model's d
// features, and so must it after the model's scaling, or the squared
// distances and inner products of the kernel rows overflow float64 (an
// RBF row of zeros, the same class for every such point). Missing values
// are left to the imputer. Errors: a *dataset.ParseError wrapping
// dataset.ErrMagnitude with the row's line (ds.Lines) and the feature;
// Columns's error.
func (p *Pipeline) CheckNew(ds *dataset.Dataset) error {
	X, err := p.Columns(ds)
	if err != nil {
		return err
	}
	n, d := X.Dims()
	limit := dataset.MagnitudeLimit(d, 1)
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) {
				continue
			}
			s := (v - p.Scaler.Shift[j]) / p.Scaler.Factor[j]
			if math.Abs(v) <= limit && math.Abs(s) <= limit {
				continue
			}
			what := fmt.Sprintf("%g", v)
			if math.Abs(v) <= limit {
				what = fmt.Sprintf("%g is %g after the model's scaling (%s)", v, s, p.Scaler.How)
			}
			named := &dataset.Dataset{Name: ds.Name, Features: p.Features, Lines: ds.Lines}
			return named.MagnitudeError(i, j, what, limit)
		}
	}
	return nil
}

// columnOptions returns the reader options for a file of new points whose
// columns are header (see Pipeline.Stream).
func (p *Pipeline) columnOptions(name string, header []string, src *dataset.Source, opt dataset.CSVOptions) (dataset.CSVOptions, error) {
	if !src.Header || len(opt.Features) > 0 {
		return opt, nil
	}
	feature := make(map[string]bool, len(p.Features))
	for _, f := range p.Features {
		feature[f] = true
	}
	if _, absent := dataset.Unread(header, p.Features); len(absent) > 0 {
		return opt, fmt.Errorf("%s: %w: no column %s (the model's features are %s; the file's columns are %s)", name, ErrColumns,
			quoteList(absent), quoteList(p.Features), quoteList(header))
	}
	var label string
	switch {
	case opt.NoLabel:
	case opt.Label != "":
		label = opt.Label
	default:
		opt.NoLabel = true // the labels are not used: the column stays unread
	}
	if opt.ID == "" {
		for _, id := range []string{p.IDName, "rowname"} {
			if id == "" || feature[id] || !slices.Contains(header, id) || sameColumn(header, id, label) || referenced(header, id, opt.Ignore) {
				continue
			}
			opt.ID = id
			break
		}
	}
	unread, _ := dataset.Unread(header, p.Features, label, opt.ID)
	opt.Ignore = append(slices.Clone(opt.Ignore), unread...)
	return opt, nil
}

// sameColumn reports whether refs a and b name one column of header.
func sameColumn(header []string, a, b string) bool {
	i, ok := dataset.ColumnIndex(header, a)
	j, ok2 := dataset.ColumnIndex(header, b)
	return ok && ok2 && i == j
}

// referenced reports whether one of refs names the column name of header.
func referenced(header []string, name string, refs []string) bool {
	for _, r := range refs {
		if sameColumn(header, name, r) {
			return true
		}
	}
	return false
}

// stream is Stream; columns, when not nil, decides the column options
// from the file's column names before the first row is read; lineOf, when
// not nil, turns a line of r into the file's physical line.
func stream(ctx context.Context, r io.Reader, name string, opt dataset.CSVOptions, chunk int,
	columns func(name string, header []string, src *dataset.Source, opt dataset.CSVOptions) (dataset.CSVOptions, error),
	lineOf func(int) int, fn func(ds *dataset.Dataset) error) error {
	// An error in the text of a damaged gzip stream is the stream's.
	return dataset.StreamError(r, name, streamChunks(ctx, r, name, opt, chunk, columns, lineOf, fn))
}

// streamChunks is stream's reading of r.
func streamChunks(ctx context.Context, r io.Reader, name string, opt dataset.CSVOptions, chunk int,
	columns func(name string, header []string, src *dataset.Source, opt dataset.CSVOptions) (dataset.CSVOptions, error),
	lineOf func(int) int, fn func(ds *dataset.Dataset) error) error {
	if lineOf == nil {
		lineOf = func(n int) int { return n }
	}
	if chunk <= 0 {
		chunk = DefaultChunk
	}
	opt.OneRow = true
	br := bufio.NewReaderSize(r, 1<<16)
	var header []byte // the header line, when the file has one
	headerLine := 0
	first := true
	lineNo := 0
	var buf bytes.Buffer
	var lines []int // physical line of each fed line
	var line []byte // the line being read (ReadLine reuses it)
	eof := false
	for !eof {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf.Reset()
		lines = lines[:0]
		if header != nil {
			buf.Write(header)
			lines = append(lines, headerLine)
		}
		rows := 0
		// The first chunk takes one more line: it may be the header.
		want := chunk
		if first {
			want++
		}
		for rows < want {
			var err error
			line, err = dataset.ReadLine(br, line)
			if len(line) > 0 {
				lineNo++
				if lineNo == 1 {
					line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
				}
				if len(bytes.TrimSpace(line)) > 0 {
					if line[len(line)-1] != '\n' {
						line = append(line, '\n')
					}
					buf.Write(line)
					lines = append(lines, lineOf(lineNo))
					rows++
				}
			}
			if err == io.EOF {
				eof = true
				break
			}
			if errors.Is(err, dataset.ErrTooLarge) {
				return &dataset.ParseError{File: name, Line: lineNo + 1, Err: err}
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		dataLines := len(lines)
		if header != nil {
			dataLines--
		}
		if dataLines == 0 {
			if first {
				return fmt.Errorf("%s: no rows", name)
			}
			break
		}
		// fileLine turns a line of buf into the file's.
		fileLine := func(l int) int {
			if l >= 1 && l <= len(lines) {
				return lines[l-1]
			}
			return l
		}
		if first && dataset.LooksLIBSVM(buf.Bytes()) {
			return fmt.Errorf("%s: %w: the file is LIBSVM text (\"label index:value ...\"); a stream is read as delimited text (CSV, TSV, …)", name, dataset.ErrFormat)
		}
		if first && columns != nil {
			// The header's errors are left to ReadCSV, which reports them alike.
			if names, src, err := dataset.ReadHeader(bytes.NewReader(buf.Bytes()), name, opt); err == nil {
				if opt, err = columns(name, names, src, opt); err != nil {
					return err
				}
				opt.Sep, opt.Header, opt.NoHeader = src.Sep, src.Header, !src.Header
			}
		}
		ds, err := dataset.ReadCSV(bytes.NewReader(buf.Bytes()), name, opt)
		if first && errors.Is(err, dataset.ErrNoLabelColumn) {
			opt.NoLabel = true
			ds, err = dataset.ReadCSV(bytes.NewReader(buf.Bytes()), name, opt)
		}
		if err != nil {
			var pe *dataset.ParseError
			if errors.As(err, &pe) {
				pe.Line = fileLine(pe.Line)
			}
			return err
		}
		for k := range ds.Missing {
			ds.Missing[k].Line = fileLine(ds.Missing[k].Line)
		}
		for k, l := range ds.Lines {
			ds.Lines[k] = fileLine(l)
		}
		if first {
			first = false
			if ds.Source != nil {
				opt.Sep = ds.Source.Sep
				opt.Header = ds.Source.Header
				opt.NoHeader = !ds.Source.Header
				if ds.Source.Header {
					i := bytes.IndexByte(buf.Bytes(), '\n')
					header = append([]byte(nil), buf.Bytes()[:i+1]...)
					headerLine = lines[0]
				}
			}
		}
		if err := fn(ds); err != nil {
			return err
		}
	}
	return nil
}
