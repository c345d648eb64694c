package arborbeam

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// IsParquet reports whether path names a Parquet file (its name ends in
// .parquet, any case): predict and features read it with ReadParquet's
// rules instead of as delimited text.
func IsParquet(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".parquet")
}

// RowGroup is one row group of a Parquet file: the unit a job splits
// Parquet files into (one task each).
type RowGroup struct {
	Path  string
	Size  int64
	Index int
	// First is the row group's first row in the file (0-based), Rows its
	// number of rows.
	First, Rows int64
	// Header is the file's flat column names; Read marks the columns
	// whose values are read (the others are never decoded).
	Header []string
	Read   []bool
	// Err is why the file's row groups cannot be listed (see dataError):
	// the one RowGroup of such a file carries it, Index −1.
	Err string
}

func init() {
	register.Function1x1[fileio.FileMetadata, bool](isParquetFile)
	register.Function1x1[fileio.FileMetadata, bool](isTextFile)
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(RowGroup), error](&rowGroupsFn{})
	register.Emitter1[RowGroup]()
	register.DoFn3x1[context.Context, RowGroup, func(Chunk), error](&parquetPredictFn{})
	beam.RegisterType(reflect.TypeOf((*RowGroup)(nil)).Elem())
}

func isParquetFile(f fileio.FileMetadata) bool { return IsParquet(f.Path) }
func isTextFile(f fileio.FileMetadata) bool    { return !IsParquet(f.Path) }

// openParquet opens a Parquet file of any Beam filesystem for reading at
// offsets: a local file directly, another through ranged reads.
func openParquet(ctx context.Context, p string, size int64) (*file.Reader, io.Closer, error) {
	if !strings.Contains(p, "://") {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, err
		}
		r, err := file.NewParquetReader(f)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: not a Parquet file: %w", p, err)
		}
		return r, f, nil
	}
	ra := &rangedFile{ctx: ctx, path: p, size: size}
	r, err := file.NewParquetReader(ra)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not a Parquet file: %w", p, err)
	}
	return r, io.NopCloser(nil), nil
}

// rangedFile reads a file of a remote Beam filesystem at offsets, one
// ranged read a call (io.ReaderAt and io.Seeker for parquet's reader).
type rangedFile struct {
	ctx  context.Context
	path string
	size int64
	off  int64
}

func (f *rangedFile) ReadAt(p []byte, off int64) (int, error) {
	r, err := openAt(f.ctx, f.path, off)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n, err := io.ReadFull(r, p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}

func (f *rangedFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		f.off = offset
	case io.SeekCurrent:
		f.off += offset
	case io.SeekEnd:
		f.off = f.size + offset
	}
	return f.off, nil
}

// flatColumns returns the names of the file's columns, which must be flat
// (neither nested nor repeated): one cell a row.
func flatColumns(p string, r *file.Reader) ([]string, error) {
	sc := r.MetaData().Schema
	names := make([]string, sc.NumColumns())
	for i := range names {
		c := sc.Column(i)
		if c.MaxRepetitionLevel() > 0 || strings.Contains(c.Path(), ".") {
			return nil, fmt.Errorf("%s: column %q is nested or repeated: arbor reads flat columns, one value a row", p, c.Path())
		}
		names[i] = c.Name()
	}
	return names, nil
}

// readColumns marks the columns of header a reader with opt needs the
// values of, for the model p (nil: every column): the model's features
// by name, the ID column (opt.ID or the model's), and the columns
// opt.Features names. A model feature the file lacks is left to the
// reader's own error, which names it.
func readColumns(header []string, opt dataset.CSVOptions, p *pipeline.Pipeline) []bool {
	read := make([]bool, len(header))
	if p == nil {
		for i := range read {
			read[i] = true
		}
		return read
	}
	refs := append([]string{}, p.Features...)
	refs = append(refs, opt.Features...)
	if opt.ID != "" {
		refs = append(refs, opt.ID)
	} else if p.IDName != "" {
		refs = append(refs, p.IDName)
	}
	for _, ref := range refs {
		if strings.Contains(ref, "..") {
			for i := range read { // a range of positions: read them all
				read[i] = true
			}
			continue
		}
		if j, ok := dataset.ColumnIndex(header, ref); ok {
			read[j] = true
		}
	}
	return read
}

// ParquetText reads the rows of row group g as delimited text (comma
// separated, quoted where needed) in chunks of chunk rows, handing fn
// each chunk's lines (without the header) and the file row of its first
// line. A column in g.Read gives each row's value as text: numbers in
// the shortest form that reads back to the same value (FLOAT as
// float32), integers and booleans (1, 0) as they are, byte arrays as
// text; a null is an empty cell, a missing value. Other columns are
// empty cells, never decoded.
func ParquetText(ctx context.Context, r *file.Reader, g RowGroup, chunk int, fn func(lines []byte, first int64) error) error {
	rg := r.RowGroup(g.Index)
	type col struct {
		j   int
		rd  file.ColumnChunkReader
		def int16
	}
	var cols []col
	for j, ok := range g.Read {
		if !ok {
			continue
		}
		cr, err := rg.Column(j)
		if err != nil {
			return fmt.Errorf("%s: row group %d, column %q: %w", g.Path, g.Index, g.Header[j], err)
		}
		cols = append(cols, col{j: j, rd: cr, def: cr.Descriptor().MaxDefinitionLevel()})
	}
	cells := make([][]string, len(g.Header))
	for _, c := range cols {
		cells[c.j] = make([]string, chunk)
	}
	defs := make([]int16, chunk)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	rec := make([]string, len(g.Header))
	for done := int64(0); done < g.Rows; {
		n := int(min(int64(chunk), g.Rows-done))
		for _, c := range cols {
			if err := readCells(c.rd, cells[c.j][:n], defs[:n], c.def); err != nil {
				return fmt.Errorf("%s: row group %d, rows %d..%d, column %q: %w", g.Path, g.Index, g.First+done, g.First+done+int64(n)-1, g.Header[c.j], err)
			}
		}
		buf.Reset()
		for i := 0; i < n; i++ {
			for j := range rec {
				rec[j] = ""
				if cells[j] != nil {
					rec[j] = cells[j][i]
				}
			}
			w.Write(rec)
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		if err := fn(buf.Bytes(), g.First+done); err != nil {
			return err
		}
		done += int64(n)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// readCells reads len(dst) values of one column as text (see ParquetText).
func readCells(cr file.ColumnChunkReader, dst []string, defs []int16, maxDef int16) error {
	n := len(dst)
	var d []int16
	if maxDef > 0 {
		d = defs[:n]
	}
	// fill places the k-th non-null value's text at each non-null row.
	fill := func(total int64, text func(k int) string) error {
		if total != int64(n) {
			return fmt.Errorf("%d values, want %d", total, n)
		}
		k := 0
		for i := 0; i < n; i++ {
			if d != nil && d[i] < maxDef {
				dst[i] = ""
				continue
			}
			dst[i] = text(k)
			k++
		}
		return nil
	}
	switch c := cr.(type) {
	case *file.Float64ColumnChunkReader:
		v := make([]float64, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string { return formatFloat(v[k], 64) })
	case *file.Float32ColumnChunkReader:
		v := make([]float32, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string { return formatFloat(float64(v[k]), 32) })
	case *file.Int32ColumnChunkReader:
		v := make([]int32, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string { return strconv.FormatInt(int64(v[k]), 10) })
	case *file.Int64ColumnChunkReader:
		v := make([]int64, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string { return strconv.FormatInt(v[k], 10) })
	case *file.BooleanColumnChunkReader:
		v := make([]bool, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string {
			if v[k] {
				return "1"
			}
			return "0"
		})
	case *file.ByteArrayColumnChunkReader:
		v := make([]parquet.ByteArray, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string { return string(v[k]) })
	case *file.FixedLenByteArrayColumnChunkReader:
		v := make([]parquet.FixedLenByteArray, n)
		total, _, err := c.ReadBatch(int64(n), v, d, nil)
		if err != nil {
			return err
		}
		return fill(total, func(k int) string { return string(v[k]) })
	}
	return fmt.Errorf("physical type %s is not read", cr.Type())
}

// formatFloat is v in the shortest form that reads back to it (at
// float32 precision for bits 32); NaN is a missing value.
func formatFloat(v float64, bits int) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// rowGroupsFn lists each Parquet file's row groups, checking that the
// file's columns are flat; the model's columns are checked by the
// reader of each row group.
type rowGroupsFn struct {
	Model string
	Opt   ReadOptions
}

func (fn *rowGroupsFn) ProcessElement(ctx context.Context, f fileio.FileMetadata, emit func(RowGroup)) error {
	var p *pipeline.Pipeline
	if fn.Model != "" {
		var err error
		if p, err = LoadModel(ctx, fn.Model); err != nil {
			return err
		}
	}
	groups, err := ParquetRowGroups(ctx, f.Path, f.Size, fn.Opt.CSV, p)
	if dataError(err) {
		emit(RowGroup{Path: f.Path, Size: f.Size, Index: -1, First: -1, Err: err.Error()})
		return nil
	}
	for _, g := range groups {
		emit(g)
	}
	return err
}

// ParquetRowGroups lists the row groups of the Parquet file p (size
// bytes, any Beam filesystem) that hold rows, with the columns a reader
// with opt needs for the model m (nil: every column). The file's columns
// must be flat; a file without rows is an error.
func ParquetRowGroups(ctx context.Context, p string, size int64, opt dataset.CSVOptions, m *pipeline.Pipeline) ([]RowGroup, error) {
	r, c, err := openParquet(ctx, p, size)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	header, err := flatColumns(p, r)
	if err != nil {
		return nil, err
	}
	if r.NumRows() == 0 {
		return nil, fmt.Errorf("%s: no rows", p)
	}
	read := readColumns(header, opt, m)
	var out []RowGroup
	first := int64(0)
	for i := 0; i < r.NumRowGroups(); i++ {
		n := r.RowGroup(i).NumRows()
		if n > 0 {
			out = append(out, RowGroup{Path: p, Size: size, Index: i, First: first, Rows: n, Header: header, Read: read})
		}
		first += n
	}
	return out, nil
}

// OpenParquet opens the file of g for ReadParquet; close the Closer when
// done.
func OpenParquet(ctx context.Context, g RowGroup) (*file.Reader, io.Closer, error) {
	return openParquet(ctx, g.Path, g.Size)
}

// parquetOptions are opt for the text ParquetText writes: comma
// separated, with a header.
func parquetOptions(opt dataset.CSVOptions) dataset.CSVOptions {
	opt.Sep, opt.Header, opt.NoHeader = ",", true, false
	return opt
}

// headerLine is the header as a CSV line.
func headerLine(header []string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	w.Flush()
	return b.Bytes()
}

// ReadParquet reads the row group g as Stream reads delimited text, one
// data set a chunk of chunk rows, with the columns' values as
// ParquetText gives them: the columns by name as opt says (opt.Sep and
// the header decision are the text's own). stream is the reader
// (pipeline.Pipeline.StreamPart for a model's columns, or
// pipeline.StreamPart's equivalent for training columns); fn gets each
// chunk's data set and the file row of its first row. An error names the
// file, the row group, the row (0-based, in the file) and the column.
func ReadParquet(ctx context.Context, r *file.Reader, g RowGroup, opt dataset.CSVOptions, chunk int,
	part func(ctx context.Context, header []byte, r io.Reader, first int, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error,
	fn func(ds *dataset.Dataset, first int64) error) error {
	header := headerLine(g.Header)
	opt = parquetOptions(opt)
	return ParquetText(ctx, r, g, chunk, func(lines []byte, first int64) error {
		err := part(ctx, header, bytes.NewReader(lines), 0, g.Path, opt, chunk, func(ds *dataset.Dataset) error {
			return fn(ds, first)
		})
		return parquetError(err, g, first)
	})
}

// parquetError words a reader's error on a chunk of g whose first row is
// first (the chunk's rows are its lines 1, 2, … after the header):
// the file, the row group, the row in the file and the column.
func parquetError(err error, g RowGroup, first int64) error {
	var pe *dataset.ParseError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	where := fmt.Sprintf("%s: row group %d", g.Path, g.Index)
	if pe.Line >= 1 {
		where += fmt.Sprintf(", row %d (counting from 0 in the file)", first+int64(pe.Line-1))
	}
	if pe.Column != "" {
		where += fmt.Sprintf(", column %q", pe.Column)
	}
	return fmt.Errorf("%s: %w", where, pe.Err)
}

// missingError names the first missing value of a chunk of g whose first
// row is first, for a reader that cannot use them (advice says what to
// do).
func missingError(ds *dataset.Dataset, g RowGroup, first int64, advice string) error {
	m := ds.Missing[0]
	row := first + int64(m.Row)
	if m.Line >= 1 {
		row = first + int64(m.Line-1)
	}
	col := ""
	if m.Col < len(ds.Features) {
		col = ds.Features[m.Col]
	}
	return fmt.Errorf("%s: row group %d, row %d (counting from 0 in the file), column %q: %w (a null or NaN; %d in this chunk of %d rows): %s",
		g.Path, g.Index, row, col, dataset.ErrMissing, len(ds.Missing), ds.Len(), advice)
}

// parquetPredictFn labels (or computes the features of) the rows of one
// Parquet row group.
type parquetPredictFn struct {
	Model    string
	Opt      ReadOptions
	Features bool
	p        *pipeline.Pipeline
}

func (fn *parquetPredictFn) Setup(ctx context.Context) error {
	p, err := loadFor(ctx, fn.Model, fn.Features)
	fn.p = p
	return err
}

func (fn *parquetPredictFn) ProcessElement(ctx context.Context, g RowGroup, emit func(Chunk)) error {
	if g.Err != "" {
		return errors.New(g.Err)
	}
	r, c, err := openParquet(ctx, g.Path, g.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	return ReadParquet(ctx, r, g, fn.Opt.CSV, fn.Opt.chunk(), fn.p.StreamPart, func(ds *dataset.Dataset, first int64) error {
		if (fn.p.Scaler == nil || fn.p.Scaler.Impute == nil) && len(ds.Missing) > 0 {
			return missingError(ds, g, first, "the model cannot use them; fill or drop those cells, or refit the model with --impute")
		}
		var l Chunk
		var err error
		if fn.Features {
			l, err = featureChunk(ctx, fn.p, ds)
		} else {
			l, err = labelChunk(ctx, fn.p, ds)
		}
		if err != nil {
			return err
		}
		l.File, l.Pos = g.Path, first
		emit(l)
		return nil
	})
}

// parquetColumn is one column of a Parquet file being written.
type parquetColumn struct {
	name    string
	strings []string
	ints    []int64
	floats  []float64
	text    bool
	integer bool
}

// writeParquet writes cols (equal lengths) as one row group of a Parquet
// file, every column required: text as UTF-8 strings, integers as INT64,
// the rest as DOUBLE.
func writeParquet(w io.Writer, cols []parquetColumn) error {
	fields := make(schema.FieldList, len(cols))
	for i, c := range cols {
		var n schema.Node
		var err error
		switch {
		case c.text:
			n, err = schema.NewPrimitiveNodeLogical(c.name, parquet.Repetitions.Required, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)
		case c.integer:
			n, err = schema.NewPrimitiveNode(c.name, parquet.Repetitions.Required, parquet.Types.Int64, -1, -1)
		default:
			n, err = schema.NewPrimitiveNode(c.name, parquet.Repetitions.Required, parquet.Types.Double, -1, -1)
		}
		if err != nil {
			return err
		}
		fields[i] = n
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1)
	if err != nil {
		return err
	}
	pw, err := file.NewParquetWriterWithError(w, root)
	if err != nil {
		return err
	}
	rg, err := pw.AppendRowGroupChecked()
	if err != nil {
		return err
	}
	for _, c := range cols {
		cw, err := rg.NextColumn()
		if err != nil {
			return err
		}
		switch cw := cw.(type) {
		case *file.ByteArrayColumnChunkWriter:
			v := make([]parquet.ByteArray, len(c.strings))
			for i, s := range c.strings {
				v[i] = parquet.ByteArray(s)
			}
			_, err = cw.WriteBatch(v, nil, nil)
		case *file.Int64ColumnChunkWriter:
			_, err = cw.WriteBatch(c.ints, nil, nil)
		case *file.Float64ColumnChunkWriter:
			_, err = cw.WriteBatch(c.floats, nil, nil)
		}
		if err != nil {
			return err
		}
		if err := cw.Close(); err != nil {
			return err
		}
	}
	if err := rg.Close(); err != nil {
		return err
	}
	return pw.Close()
}
