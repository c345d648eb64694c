package arborbeam

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// CountBlockBytes is the most bytes of a text file whose rows the first
// pass of PredictFiles counts as one number (SplitBytes when smaller).
const CountBlockBytes = 1 << 20

func (o ReadOptions) countBlock() int64 {
	if o.CountBytes > 0 {
		return o.CountBytes
	}
	b := o.SplitBytes
	if b <= 0 {
		b = DefaultSplitBytes
	}
	return min(b, CountBlockBytes)
}

// WriteOptions say how PredictFiles and FeatureFiles write their output.
type WriteOptions struct {
	// Shards is the number of part files (≤ 0: 1).
	Shards int
	// Ordered writes one file per input (OrderedName) in arbor predict's
	// format instead of part files (CSV, whatever Format says).
	Ordered bool
	// Format is the part files' format.
	Format Format
}

// Format is the format of the part files of PredictFiles and
// FeatureFiles.
type Format int

const (
	// FormatCSV: part-….csv, file,row[,ID],label or z1,…,zr.
	FormatCSV Format = iota
	// FormatParquet: part-….parquet, one row group a part, the columns
	// file and the ID (strings), row (INT64), label (string) or z1,…,zr
	// (DOUBLE).
	FormatParquet
	// FormatNpy (features only): part-….npy, float64 rows × r, and
	// part-….rows.csv, file,row[,ID] of each of its rows in order.
	FormatNpy
)

// rowCount is the number of rows (non-blank lines) of a text file that
// start in its block Block of countBlock bytes, counted from the file's
// DataStart; Blocks is the file's number of blocks. Block −1 marks no
// file (every layout gathers one).
type rowCount struct {
	File   string
	Block  int64
	Blocks int64
	Rows   int64
}

// RowLayout says, for each text file not read whole, how many rows come
// before each of its blocks of countBlock bytes.
type RowLayout struct {
	Files []string // sorted
	// Starts[f][k] is the number of rows of Files[f] in its blocks before
	// block k; Starts[f][len-1] is the file's number of rows.
	Starts [][]int64
}

// RangePart is the file a task wrote for one byte range of a text file
// (or one Parquet row group) under Output.Temp, and where its rows are.
type RangePart struct {
	File  string
	Pos   int64 // the range's first byte (a Parquet row group: its first row)
	First int64 // the row number (0-based) of its first row in File
	Rows  int64
	Bytes int64
	Name  string // under Output.Temp
	// IDName is the ID column of the file ("" without one), Dim the
	// number of features a row (0: labels).
	IDName string
	Dim    int
	// Binary: the file holds records (rangeWriter.add), not CSV lines.
	Binary bool
	// Err is the data error (see dataError) that ended the range's
	// reading; planFn reports the first in file order.
	Err string
}

func init() {
	for _, t := range []any{rowCount{}, RowLayout{}, RangePart{}, countFn{}, writeRangeFn{}, parquetWriteFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(rowLayoutOf)
}

// PredictFiles labels the rows of the files matched by the globs in files
// (as Predict reads and labels them) and writes the labels to out: part
// files file,row[,ID],label in w.Format, rows in file and row order across
// the parts, or with w.Ordered one file per input in arbor predict's
// format. The task that reads a byte range (a Parquet row group) labels
// it and writes its rows to a file of its own under out.Temp; only that
// file's name and row count go on. A first pass counts each file's rows
// by blocks of CountBlockBytes (in parallel, by byte ranges), so that
// every range knows its first row's number before it is read. Once every
// range is written, one step checks that every row is there and plans the
// output files, one task per output file (keyed by its index) writes it
// from the ranges' files, and a last step, run once every output file is
// written, moves them to out.Dir and removes out.Temp.
func PredictFiles(s beam.Scope, model string, files beam.PCollection, opt ReadOptions, out Output, w WriteOptions) {
	writeFiles(s.Scope("arborbeam.PredictFiles"), model, files, opt, out, w, false)
}

// FeatureFiles is PredictFiles for the landmark features (as Features
// computes them): parts file,row[,ID],z1,…,zr (FormatNpy: the values in
// part-….npy, the rows in part-….rows.csv), or with w.Ordered one
// NAME.features.csv per input.
func FeatureFiles(s beam.Scope, model string, files beam.PCollection, opt ReadOptions, out Output, w WriteOptions) {
	writeFiles(s.Scope("arborbeam.FeatureFiles"), model, files, opt, out, w, true)
}

func writeFiles(s beam.Scope, model string, files beam.PCollection, opt ReadOptions, out Output, w WriteOptions, features bool) {
	matched := fileio.MatchAll(s, files, fileio.MatchEmptyDisallow())
	heads := beam.ParDo(s, &headFn{Model: model, Opt: opt}, filter.Include(s, matched, isTextFile))
	counts := beam.ParDo(s, &countFn{Opt: opt}, heads)
	layout := beam.ParDo(s, rowLayoutOf, gather(s, beam.Flatten(s, counts, beam.Create(s, rowCount{Block: -1}))))
	binary := !w.Ordered && w.Format != FormatCSV
	text := beam.ParDo(s, &writeRangeFn{Model: model, Opt: opt, Features: features, Ordered: w.Ordered, Binary: binary, Temp: out.Temp}, heads,
		beam.SideInput{Input: layout})
	groups := beam.ParDo(s, &rowGroupsFn{Model: model, Opt: opt}, filter.Include(s, matched, isParquetFile))
	pq := beam.ParDo(s, &parquetWriteFn{Model: model, Opt: opt, Features: features, Ordered: w.Ordered, Binary: binary, Temp: out.Temp}, beam.Reshuffle(s, groups))
	assemble(s, beam.Flatten(s, text, pq), layout, out, w, features)
}

// isBlank says whether a line's bytes (or a piece of a long line) are
// blanks only (bytes.TrimSpace leaves nothing).
func isBlank(b []byte) bool {
	if len(b) > 0 && b[0] > ' ' && b[0] < 0x80 {
		return false
	}
	return len(bytes.TrimSpace(b)) == 0
}

// lineScanner reads a text file line by line from a line's first byte.
type lineScanner struct {
	path string
	r    io.ReadCloser
	br   *bufio.Reader
	pos  int64 // the first byte of the next line
	eof  bool
}

// openLines opens h at the first line that starts at or after from
// (from ≥ h.DataStart): a line starts at from when the byte before it is
// a newline.
func openLines(ctx context.Context, h FileHead, from int64) (*lineScanner, error) {
	start := from
	if start > h.DataStart {
		start--
	}
	r, err := openAt(ctx, h.Path, start)
	if err != nil {
		return nil, err
	}
	sc := &lineScanner{path: h.Path, r: r, br: bufio.NewReaderSize(r, 1<<16), pos: start}
	if start < from {
		if _, _, err := sc.skip(); err != nil && err != io.EOF {
			r.Close()
			return nil, err
		}
	}
	return sc, nil
}

// skip reads the line at sc.pos: its length and whether it is blank.
func (sc *lineScanner) skip() (n int, blank bool, err error) {
	blank = true
	for {
		piece, err := sc.br.ReadSlice('\n')
		n += len(piece)
		blank = blank && isBlank(piece)
		if err != bufio.ErrBufferFull {
			sc.pos += int64(n)
			if err == io.EOF {
				sc.eof = true
			} else if err != nil {
				err = fmt.Errorf("%s: %w", sc.path, err)
			}
			return n, blank, err
		}
	}
}

// rowsBefore counts the rows (non-blank lines) that start at sc.pos or
// later and before end, as readRange counts them.
func (sc *lineScanner) rowsBefore(end int64) (int64, error) {
	rows := int64(0)
	for !sc.eof && sc.pos < end {
		n, blank, err := sc.skip()
		if n > 0 && !blank {
			rows++
		}
		if err != nil && err != io.EOF {
			return rows, err
		}
	}
	return rows, nil
}

func (sc *lineScanner) Close() error { return sc.r.Close() }

// countFn counts the rows of a text file by blocks of countBlock bytes,
// a splittable DoFn over the byte ranges predictFn reads: a block belongs
// to the range its first byte is in. A file read whole (gzip) is one
// range whose first row is 0: it is not counted.
type countFn struct {
	Opt ReadOptions
}

func (fn *countFn) CreateInitialRestriction(h FileHead) offsetrange.Restriction {
	return (&predictFn{}).CreateInitialRestriction(h)
}

func (fn *countFn) SplitRestriction(h FileHead, rest offsetrange.Restriction) []offsetrange.Restriction {
	return (&predictFn{Opt: fn.Opt}).SplitRestriction(h, rest)
}

func (fn *countFn) RestrictionSize(h FileHead, rest offsetrange.Restriction) float64 {
	return (&predictFn{}).RestrictionSize(h, rest)
}

func (fn *countFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (fn *countFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, h FileHead, emit func(rowCount)) error {
	rest := rt.GetRestriction().(offsetrange.Restriction)
	if h.Whole {
		if rt.TryClaim(rest.Start) {
			rt.TryClaim(rest.End)
		}
		return nil
	}
	b := fn.Opt.countBlock()
	blocks := (h.Size - h.DataStart + b - 1) / b
	var sc *lineScanner
	defer func() {
		if sc != nil {
			sc.Close()
		}
	}()
	for k := (rest.Start - h.DataStart + b - 1) / b; ; k++ {
		a := h.DataStart + k*b
		if !rt.TryClaim(a) {
			return nil
		}
		if sc == nil {
			var err error
			if sc, err = openLines(ctx, h, a); err != nil {
				return err
			}
		}
		n, err := sc.rowsBefore(min(a+b, h.Size))
		if err != nil {
			return err
		}
		emit(rowCount{File: h.Path, Block: k, Blocks: blocks, Rows: n})
	}
}

// rowLayoutOf gathers the files' counts, checking that every block of
// each file is there once.
func rowLayoutOf(_ int, iter func(*rowCount) bool) (RowLayout, error) {
	byFile := map[string][]rowCount{}
	var c rowCount
	for iter(&c) {
		if c.Block >= 0 {
			byFile[c.File] = append(byFile[c.File], c)
		}
	}
	var l RowLayout
	for f := range byFile {
		l.Files = append(l.Files, f)
	}
	sort.Strings(l.Files)
	for _, f := range l.Files {
		cs := byFile[f]
		sort.Slice(cs, func(i, j int) bool { return cs[i].Block < cs[j].Block })
		starts := make([]int64, len(cs)+1)
		for k, c := range cs {
			if c.Block != int64(k) || c.Blocks != int64(len(cs)) {
				return RowLayout{}, fmt.Errorf("internal error: %s: the row counts of %d blocks, block %d of %d", f, len(cs), c.Block, c.Blocks)
			}
			starts[k+1] = starts[k] + c.Rows
		}
		l.Starts = append(l.Starts, starts)
	}
	return l, nil
}

// firstRow returns the number of the first row of h that starts at or
// after byte pos: the rows of the blocks before pos's block, and those of
// its block before pos, counted again.
func (l RowLayout) firstRow(ctx context.Context, h FileHead, pos, block int64) (int64, error) {
	if h.Whole || pos <= h.DataStart {
		return 0, nil
	}
	f := sort.SearchStrings(l.Files, h.Path)
	if f == len(l.Files) || l.Files[f] != h.Path {
		return 0, fmt.Errorf("internal error: %s has no row counts", h.Path)
	}
	k := (pos - h.DataStart) / block
	if k >= int64(len(l.Starts[f])-1) {
		return l.Starts[f][len(l.Starts[f])-1], nil
	}
	first := l.Starts[f][k]
	if a := h.DataStart + k*block; a < pos {
		sc, err := openLines(ctx, h, a)
		if err != nil {
			return 0, err
		}
		defer sc.Close()
		n, err := sc.rowsBefore(pos)
		if err != nil {
			return 0, err
		}
		first += n
	}
	return first, nil
}

// total returns the number of rows of file counted, and whether it was.
func (l RowLayout) total(file string) (int64, bool) {
	f := sort.SearchStrings(l.Files, file)
	if f == len(l.Files) || l.Files[f] != file {
		return 0, false
	}
	return l.Starts[f][len(l.Starts[f])-1], true
}

// rangeWriter writes the rows of one range to its own file under temp:
// file,row[,ID],label (or z1,…,zr), or with ordered row[,ID],label; with
// binary one record a row: the ID (when the file has an ID column) as a
// uvarint length and its bytes, then the label alike or the Dim
// features as little-endian float64.
type rangeWriter struct {
	part    RangePart
	path    string
	ordered bool
	binary  bool
	f       io.WriteCloser
	fs      filesystem.Interface
	n       *counter
	bw      *bufio.Writer
	cw      *csv.Writer
	rec     []string
	err     error
}

func newRangeWriter(temp, file string, pos, first int64, ordered, binary bool) *rangeWriter {
	h := fnv.New64a()
	io.WriteString(h, file)
	b := make([]byte, 4)
	rand.Read(b)
	ext := ".csv"
	if binary {
		ext = ".bin"
	}
	name := fmt.Sprintf("ranges/%016x-%015d-%s%s", h.Sum64(), pos, hex.EncodeToString(b), ext)
	return &rangeWriter{part: RangePart{File: file, Pos: pos, First: first, Name: name, Binary: binary}, path: temp + "/" + name, ordered: ordered, binary: binary}
}

// add writes the rows of c.
func (w *rangeWriter) add(ctx context.Context, c Chunk) {
	if w.err != nil || c.Rows() == 0 {
		return
	}
	if w.f == nil {
		w.part.IDName, w.part.Dim = c.IDName, c.Dim
		if w.fs, w.err = filesystem.New(ctx, w.path); w.err != nil {
			return
		}
		if w.f, w.err = w.fs.OpenWrite(ctx, w.path); w.err != nil {
			return
		}
		w.n = &counter{w: w.f}
		w.bw = bufio.NewWriterSize(w.n, 1<<16)
		w.cw = csv.NewWriter(w.bw)
	}
	if c.IDName != w.part.IDName || c.Dim != w.part.Dim {
		w.err = fmt.Errorf("internal error: %s: chunks of one range with ID columns %q and %q, %d and %d features", c.File, w.part.IDName, c.IDName, w.part.Dim, c.Dim)
		return
	}
	if w.binary {
		w.addRecords(c)
		return
	}
	for i := 0; i < c.Rows(); i++ {
		row := strconv.FormatInt(w.part.First+w.part.Rows, 10)
		if w.ordered {
			w.rec = append(w.rec[:0], row)
		} else {
			w.rec = append(w.rec[:0], w.part.File, row)
		}
		w.rec = c.appendRow(w.rec, i, c.IDName != "", true, c.Dim)
		w.cw.Write(w.rec)
		w.part.Rows++
	}
}

// addRecords writes the rows of c as records.
func (w *rangeWriter) addRecords(c Chunk) {
	var b []byte
	for i := 0; i < c.Rows(); i++ {
		b = b[:0]
		if c.IDName != "" {
			id := ""
			if c.IDs != nil {
				id = c.IDs[i]
			}
			b = binary.AppendUvarint(b, uint64(len(id)))
			b = append(b, id...)
		}
		if c.Dim == 0 {
			b = binary.AppendUvarint(b, uint64(len(c.Labels[i])))
			b = append(b, c.Labels[i]...)
		}
		for _, z := range c.Z[i*c.Dim : i*c.Dim+c.Dim] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(z))
		}
		w.bw.Write(b)
		w.part.Rows++
	}
}

// close completes the range's file; ok is false for a range without rows
// (no file).
func (w *rangeWriter) close() (RangePart, bool, error) {
	if w.f == nil {
		return RangePart{}, false, w.err
	}
	defer w.fs.Close()
	err := w.err
	if err == nil && !w.binary {
		w.cw.Flush()
		err = w.cw.Error()
	}
	if err == nil {
		err = w.bw.Flush()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return RangePart{}, false, fmt.Errorf("writing %s: %w", w.path, err)
	}
	w.part.Bytes = w.n.n
	return w.part, true, nil
}

// finish closes w after its range was read with error err (nil: read
// whole) and emits the range's part when it has rows; a data error is
// emitted as a part that holds it (Err), any other is returned.
func (w *rangeWriter) finish(err error, emit func(RangePart)) error {
	part, ok, cerr := w.close()
	if dataError(err) {
		emit(RangePart{File: w.part.File, Pos: w.part.Pos, Err: err.Error()})
		return nil
	}
	if err == nil {
		err = cerr
	}
	if err == nil && ok {
		emit(part)
	}
	return err
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// writeRangeFn reads a byte range of a text file as predictFn does,
// labels it (or computes its features) and writes its rows to a file of
// its own, numbered from its first row (RowLayout.firstRow).
type writeRangeFn struct {
	Model    string
	Opt      ReadOptions
	Features bool
	Ordered  bool
	Binary   bool
	Temp     string
	p        *pipeline.Pipeline
}

func (fn *writeRangeFn) Setup(ctx context.Context) error {
	p, err := loadFor(ctx, fn.Model, fn.Features)
	fn.p = p
	return err
}

func (fn *writeRangeFn) CreateInitialRestriction(h FileHead) offsetrange.Restriction {
	return (&predictFn{}).CreateInitialRestriction(h)
}

func (fn *writeRangeFn) SplitRestriction(h FileHead, rest offsetrange.Restriction) []offsetrange.Restriction {
	return (&predictFn{Opt: fn.Opt}).SplitRestriction(h, rest)
}

func (fn *writeRangeFn) RestrictionSize(h FileHead, rest offsetrange.Restriction) float64 {
	return (&predictFn{}).RestrictionSize(h, rest)
}

func (fn *writeRangeFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (fn *writeRangeFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, h FileHead, layout RowLayout, emit func(RangePart)) error {
	rest := rt.GetRestriction().(offsetrange.Restriction)
	if h.Err != "" {
		endRange(rt)
		emit(RangePart{File: h.Path, Pos: rest.Start, Err: h.Err})
		return nil
	}
	first, err := layout.firstRow(ctx, h, rest.Start, fn.Opt.countBlock())
	if err != nil {
		return err
	}
	w := newRangeWriter(fn.Temp, h.Path, rest.Start, first, fn.Ordered, fn.Binary)
	conv := func(ds *dataset.Dataset) (Chunk, error) {
		if fn.Features {
			return featureChunk(ctx, fn.p, ds)
		}
		return labelChunk(ctx, fn.p, ds)
	}
	err = readRange(ctx, rt, h, fn.Opt, fn.p.Stream, fn.p.StreamPart, conv, func(c Chunk, _ int64) {
		c.File = h.Path
		w.add(ctx, c)
	})
	if dataError(err) {
		endRange(rt)
	}
	return w.finish(err, emit)
}

// parquetWriteFn labels (or computes the features of) one Parquet row
// group and writes its rows to a file of its own, numbered from the row
// group's first row.
type parquetWriteFn struct {
	Model    string
	Opt      ReadOptions
	Features bool
	Ordered  bool
	Binary   bool
	Temp     string
	p        *pipeline.Pipeline
}

func (fn *parquetWriteFn) Setup(ctx context.Context) error {
	p, err := loadFor(ctx, fn.Model, fn.Features)
	fn.p = p
	return err
}

func (fn *parquetWriteFn) ProcessElement(ctx context.Context, g RowGroup, emit func(RangePart)) error {
	w := newRangeWriter(fn.Temp, g.Path, g.First, g.First, fn.Ordered, fn.Binary)
	err := (&parquetPredictFn{Model: fn.Model, Opt: fn.Opt, Features: fn.Features, p: fn.p}).ProcessElement(ctx, g, func(c Chunk) {
		w.add(ctx, c)
	})
	return w.finish(err, emit)
}
