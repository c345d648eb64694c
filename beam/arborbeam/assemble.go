package arborbeam

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/arbor-ml/arbor/internal/npy"
)

// shardRange is the part of one range's file an output file takes.
type shardRange struct {
	Part RangePart
	// At is the position of the range's first row among the rows of all
	// ranges, in file and row order: its byte among all bytes of the
	// ranges' files for CSV parts, its row for binary ranges.
	At int64
	// Skip and Take: the output file takes rows Skip … Skip+Take−1 of
	// the range (binary ranges; CSV parts find theirs by At).
	Skip, Take int64
}

// shardTask is one output file to write: a part, or with Ordered the
// file of one input.
type shardTask struct {
	Shard  int // the part's index, or the input's in the order of the paths
	Name   string
	Ranges []shardRange
	// Total is the number of bytes (CSV parts) or rows of all ranges.
	Total int64
	// IDName is the ID column of the output ("" without one), Dim the
	// number of features a row (0: labels).
	IDName string
	Dim    int
}

// shardDone is what one output file's task wrote (the files, under
// Output.Temp, and their rows), or with Shard −1 the plan: the number of
// tasks and of rows.
type shardDone struct {
	Shard int
	Names []string
	Rows  int64
	Tasks int
}

func init() {
	for _, t := range []any{shardRange{}, shardTask{}, shardDone{}, planFn{}, assembleFn{}, moveFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// assemble writes the output files of w from the ranges' files (parts,
// RangePart elements) once every range is written: one step checks that
// every row of every file is there and plans the output files, one task
// per output file writes it (keyed by its index, so that the files are
// written side by side), and one step, once all of them are written,
// moves them to out.Dir: nothing is in out.Dir before every output file
// is complete.
func assemble(s beam.Scope, parts, layout beam.PCollection, out Output, w WriteOptions, features bool) {
	// The plan runs, and gives its count, even without any range.
	all := beam.Flatten(s, parts, beam.Create(s, RangePart{}))
	tasks, plan := beam.ParDo2(s, &planFn{Shards: max(w.Shards, 1), Ordered: w.Ordered, Format: w.Format, Features: features, Out: out},
		gather(s, all), beam.SideInput{Input: layout})
	done := beam.ParDo(s, &assembleFn{Out: out, Shards: max(w.Shards, 1), Ordered: w.Ordered, Format: w.Format}, beam.GroupByKey(s, tasks))
	beam.ParDo0(s, &moveFn{Out: out}, gather(s, beam.Flatten(s, done, plan)))
}

// planFn checks that every row of every file is in the ranges' files
// (numbered 0, 1, … without a gap, as many as the first pass counted) and
// emits one task per output file, keyed by its index.
type planFn struct {
	Shards   int
	Ordered  bool
	Format   Format
	Features bool
	Out      Output
}

func (fn *planFn) ProcessElement(_ int, iter func(*RangePart) bool, layout RowLayout, emit func(int, shardTask), plan func(shardDone)) error {
	if fn.Format == FormatNpy && !fn.Features && !fn.Ordered {
		return errors.New("npy part files hold features: write labels as csv or parquet")
	}
	var parts []RangePart
	var errs []DataErr
	var p RangePart
	for iter(&p) {
		switch {
		case p.Err != "":
			errs = append(errs, DataErr{File: p.File, Pos: p.Pos, Text: p.Err})
		case p.Name != "":
			parts = append(parts, p)
		}
		p = RangePart{}
	}
	if err := refused(firstErr(errs)); err != nil {
		return err
	}
	sort.Slice(parts, func(i, j int) bool {
		if parts[i].File != parts[j].File {
			return parts[i].File < parts[j].File
		}
		return parts[i].Pos < parts[j].Pos
	})
	seen := map[string]bool{}
	rows := int64(0)
	for i := 0; i < len(parts); {
		j, next := i, int64(0)
		for ; j < len(parts) && parts[j].File == parts[i].File; j++ {
			if parts[j].First != next {
				return fmt.Errorf("internal error: %s: rows %d to %d missing from the output", parts[i].File, next, parts[j].First-1)
			}
			next += parts[j].Rows
		}
		if n, ok := layout.total(parts[i].File); ok && n != next {
			return fmt.Errorf("internal error: %s: %d rows counted, %d labelled", parts[i].File, n, next)
		}
		seen[parts[i].File] = true
		rows += next
		i = j
	}
	for k, f := range layout.Files {
		if n := layout.Starts[k][len(layout.Starts[k])-1]; n > 0 && !seen[f] {
			return fmt.Errorf("internal error: %s: %d rows counted, none labelled", f, n)
		}
	}
	var tasks []shardTask
	var err error
	switch {
	case fn.Ordered:
		tasks, err = fn.orderedTasks(parts)
	case fn.Format == FormatCSV:
		tasks, err = fn.csvTasks(parts)
	default:
		tasks, err = fn.binaryTasks(parts, rows)
	}
	if err != nil {
		return err
	}
	for _, t := range tasks {
		emit(t.Shard, t)
	}
	plan(shardDone{Shard: -1, Rows: rows, Tasks: len(tasks)})
	return nil
}

// orderedTasks: one file per input, its ranges in order.
func (fn *planFn) orderedTasks(parts []RangePart) ([]shardTask, error) {
	from := map[string]string{}
	var tasks []shardTask
	for i := 0; i < len(parts); {
		file := parts[i].File
		name := OrderedName(file, fn.Features)
		if src, dup := from[name]; dup {
			return nil, fmt.Errorf("inputs %s and %s would both be written to %s/%s: give them different base names", src, file, fn.Out.Dir, name)
		}
		from[name] = file
		t := shardTask{Shard: len(tasks), Name: name, IDName: parts[i].IDName, Dim: parts[i].Dim}
		for ; i < len(parts) && parts[i].File == file; i++ {
			t.Ranges = append(t.Ranges, shardRange{Part: parts[i]})
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// columns returns the output's ID column and number of features: an ID
// column when a file has one (named as the files name it, "id" when they
// differ).
func columns(parts []RangePart) (idName string, dim int, err error) {
	dim = -1
	for _, p := range parts {
		if p.IDName != "" {
			if idName != "" && idName != p.IDName {
				idName = "id"
			} else if idName == "" {
				idName = p.IDName
			}
		}
		if dim >= 0 && dim != p.Dim {
			return "", 0, fmt.Errorf("%s: %d features a row, another file has %d", p.File, p.Dim, dim)
		}
		dim = p.Dim
	}
	return idName, max(dim, 0), nil
}

// csvTasks: a row goes to part ⌊Shards·b/B⌋, b its line's first byte
// among the B bytes of all ranges' files; a part gets every range whose
// bytes reach into it.
func (fn *planFn) csvTasks(parts []RangePart) ([]shardTask, error) {
	idName, dim, err := columns(parts)
	if err != nil {
		return nil, err
	}
	total := int64(0)
	for _, p := range parts {
		total += p.Bytes
	}
	tasks := map[int]*shardTask{}
	at := int64(0)
	for _, p := range parts {
		if p.Bytes > 0 {
			for k := at * int64(fn.Shards) / total; k <= (at+p.Bytes-1)*int64(fn.Shards)/total; k++ {
				t := tasks[int(k)]
				if t == nil {
					t = &shardTask{Shard: int(k), Name: PartName(int(k), fn.Shards, ".csv"), Total: total, IDName: idName, Dim: dim}
					tasks[int(k)] = t
				}
				t.Ranges = append(t.Ranges, shardRange{Part: p, At: at})
			}
		}
		at += p.Bytes
	}
	return sortedTasks(tasks), nil
}

func sortedTasks(m map[int]*shardTask) []shardTask {
	var out []shardTask
	for _, t := range m {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Shard < out[j].Shard })
	return out
}

// binaryTasks: row r of the N rows of all ranges goes to part
// ⌊Shards·r/N⌋, so that the parts hold about equal numbers of rows.
func (fn *planFn) binaryTasks(parts []RangePart, n int64) ([]shardTask, error) {
	idName, dim, err := columns(parts)
	if err != nil {
		return nil, err
	}
	ext := ".parquet"
	if fn.Format == FormatNpy {
		ext = ".npy"
	}
	shards := int64(fn.Shards)
	tasks := map[int]*shardTask{}
	at := int64(0)
	for _, p := range parts {
		for r := at; r < at+p.Rows; {
			k := r * shards / n
			end := min(at+p.Rows, ((k+1)*n+shards-1)/shards) // the first row of part k+1
			t := tasks[int(k)]
			if t == nil {
				t = &shardTask{Shard: int(k), Name: PartName(int(k), fn.Shards, ext), Total: n, IDName: idName, Dim: dim}
				tasks[int(k)] = t
			}
			t.Ranges = append(t.Ranges, shardRange{Part: p, At: at, Skip: r - at, Take: end - r})
			r = end
		}
		at += p.Rows
	}
	return sortedTasks(tasks), nil
}

// assembleFn writes one output file (with FormatNpy two) under Out.Temp
// from the ranges' files, checking that each range it reads holds the
// rows its part says, and emits what it wrote.
type assembleFn struct {
	Out     Output
	Shards  int
	Ordered bool
	Format  Format
}

func (fn *assembleFn) ProcessElement(ctx context.Context, shard int, iter func(*shardTask) bool, emit func(shardDone)) error {
	var t shardTask
	n := 0
	for iter(&t) {
		n++
	}
	if n != 1 {
		return fmt.Errorf("internal error: %d tasks for output file %d", n, shard)
	}
	fs, err := filesystem.New(ctx, fn.Out.Temp)
	if err != nil {
		return err
	}
	defer fs.Close()
	var done shardDone
	switch {
	case fn.Ordered:
		done, err = fn.writeOrdered(ctx, fs, t)
	case fn.Format == FormatCSV:
		done, err = fn.writeCSVPart(ctx, fs, t)
	case fn.Format == FormatNpy:
		done, err = fn.writeNpyPart(ctx, fs, t)
	default:
		done, err = fn.writeParquetPart(ctx, fs, t)
	}
	if err != nil {
		return err
	}
	done.Shard = shard
	emit(done)
	return nil
}

// header is the output's header: [file,]row[,ID],label or z1,…,zr.
func header(withFile bool, idName string, dim int) []string {
	var head []string
	if withFile {
		head = append(head, "file")
	}
	head = append(head, "row")
	if idName != "" {
		head = append(head, idName)
	}
	if dim == 0 {
		head = append(head, "label")
	}
	for j := 1; j <= dim; j++ {
		head = append(head, "z"+strconv.Itoa(j))
	}
	return head
}

// outFile is an output file being written under Out.Temp.
type outFile struct {
	path string
	f    io.WriteCloser
	bw   *bufio.Writer
}

func createOut(ctx context.Context, fs filesystem.Interface, path string) (*outFile, error) {
	f, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &outFile{path: path, f: f, bw: bufio.NewWriterSize(f, 1<<16)}, nil
}

// writeHeader writes head as a CSV line.
func (o *outFile) writeHeader(head []string) error {
	cw := csv.NewWriter(o.bw)
	cw.Write(head)
	cw.Flush()
	return cw.Error()
}

func (o *outFile) close() error {
	err := o.bw.Flush()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}

// errStop ends copyRows early.
var errStop = errors.New("stop")

// copyRows hands the bytes of a range's CSV file to each, a row at a
// time (in pieces: the lines of a row whose quoted fields hold line
// breaks, and pieces of a line longer than the buffer; rowStart for its
// first). each may return errStop to end the copy early; otherwise the
// file must hold p.Rows rows in p.Bytes bytes.
func (fn *assembleFn) copyRows(ctx context.Context, fs filesystem.Interface, p RangePart, each func(rowStart bool, piece []byte) error) error {
	path := fn.Out.Temp + "/" + p.Name
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return err
	}
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<16)
	start, quotes := true, 0
	rows, size := int64(0), int64(0)
	for {
		piece, err := br.ReadSlice('\n')
		if len(piece) > 0 {
			if start {
				rows++
			}
			if err := each(start, piece); err == errStop {
				return nil
			} else if err != nil {
				return err
			}
			size += int64(len(piece))
			// A row ends at a line break outside quotes: after an even
			// number of quotes (a quote in a field is doubled).
			quotes += bytes.Count(piece, []byte{'"'})
			start = piece[len(piece)-1] == '\n' && quotes%2 == 0
			if start {
				quotes = 0
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil && err != bufio.ErrBufferFull {
			return fmt.Errorf("reading %s: %w", path, err)
		}
	}
	if rows != p.Rows || size != p.Bytes {
		return fmt.Errorf("internal error: %s: %d rows in %d bytes, its range wrote %d rows in %d bytes", path, rows, size, p.Rows, p.Bytes)
	}
	return nil
}

// writeOrdered writes one input's file: its ranges' files in order.
func (fn *assembleFn) writeOrdered(ctx context.Context, fs filesystem.Interface, t shardTask) (shardDone, error) {
	o, err := createOut(ctx, fs, fn.Out.Temp+"/"+t.Name)
	if err != nil {
		return shardDone{}, err
	}
	if err := o.writeHeader(header(false, t.IDName, t.Dim)); err != nil {
		o.close()
		return shardDone{}, err
	}
	rows := int64(0)
	for _, r := range t.Ranges {
		err := fn.copyRows(ctx, fs, r.Part, func(_ bool, piece []byte) error {
			_, err := o.bw.Write(piece)
			return err
		})
		if err != nil {
			o.close()
			return shardDone{}, err
		}
		rows += r.Part.Rows
	}
	if err := o.close(); err != nil {
		return shardDone{}, err
	}
	return shardDone{Names: []string{t.Name}, Rows: rows}, nil
}

// writeCSVPart writes part t.Shard: the rows whose first byte b among the
// t.Total bytes of all ranges' files has ⌊Shards·b/Total⌋ = t.Shard, in
// file and row order. The rows of a file without an ID column get an
// empty ID when the part has one. A part without rows is not written.
func (fn *assembleFn) writeCSVPart(ctx context.Context, fs filesystem.Interface, t shardTask) (shardDone, error) {
	var o *outFile
	rows := int64(0)
	for _, r := range t.Ranges {
		p := r.Part
		// A row of a file without an ID column, in parts with one: an
		// empty field after the file and the row.
		insert := t.IDName != "" && p.IDName == ""
		var rec bytes.Buffer
		cw := csv.NewWriter(&rec)
		cw.Write([]string{p.File})
		cw.Flush()
		fileField := rec.Len() // the file's field and its comma: rec ends in a newline
		at, row, in := r.At, p.First-1, false
		var num []byte
		err := fn.copyRows(ctx, fs, p, func(rowStart bool, piece []byte) error {
			defer func(n int) { at += int64(n) }(len(piece))
			if rowStart {
				row++
				switch s := int(at * int64(fn.Shards) / t.Total); {
				case s < t.Shard:
					in = false
					return nil
				case s > t.Shard:
					return errStop
				}
				in = true
				// The row's own number follows the file's field.
				num = append(strconv.AppendInt(num[:0], row, 10), ',')
				k := fileField + len(num)
				if len(piece) < k || !bytes.Equal(piece[fileField:k], num) {
					return fmt.Errorf("internal error: %s: row %d of %s is not numbered %d", p.Name, row-p.First, p.File, row)
				}
				if o == nil {
					var err error
					if o, err = createOut(ctx, fs, fn.Out.Temp+"/"+t.Name); err != nil {
						return err
					}
					if err := o.writeHeader(header(true, t.IDName, t.Dim)); err != nil {
						return err
					}
				}
				rows++
				if insert {
					o.bw.Write(piece[:k])
					o.bw.WriteByte(',')
					piece = piece[k:]
				}
			}
			if !in {
				return nil
			}
			_, err := o.bw.Write(piece)
			return err
		})
		if err != nil {
			if o != nil {
				o.close()
			}
			return shardDone{}, err
		}
	}
	if o == nil {
		return shardDone{}, nil
	}
	if err := o.close(); err != nil {
		return shardDone{}, err
	}
	return shardDone{Names: []string{t.Name}, Rows: rows}, nil
}

// record is one row of a binary range's file.
type record struct {
	ID, Label string
	Z         []float64
}

// recordReader reads the records of one binary range's file.
type recordReader struct {
	path string
	r    io.ReadCloser
	br   *bufio.Reader
	id   bool
	dim  int
	buf  []byte
}

func openRecords(ctx context.Context, fs filesystem.Interface, temp string, p RangePart) (*recordReader, error) {
	if !p.Binary {
		return nil, fmt.Errorf("internal error: %s is not a binary range", p.Name)
	}
	path := temp + "/" + p.Name
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	return &recordReader{path: path, r: r, br: bufio.NewReaderSize(r, 1<<16), id: p.IDName != "", dim: p.Dim, buf: make([]byte, 8*p.Dim)}, nil
}

func (rr *recordReader) str() (string, error) {
	n, err := binary.ReadUvarint(rr.br)
	if err != nil {
		return "", err
	}
	if n > 1<<30 {
		return "", fmt.Errorf("a string of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(rr.br, b); err != nil {
		return "", err
	}
	return string(b), nil
}

// next reads the next record into rec (rec.Z: dim values).
func (rr *recordReader) next(rec *record) error {
	err := func() (err error) {
		rec.ID = ""
		if rr.id {
			if rec.ID, err = rr.str(); err != nil {
				return err
			}
		}
		if rr.dim == 0 {
			rec.Label, err = rr.str()
			return err
		}
		if _, err := io.ReadFull(rr.br, rr.buf); err != nil {
			return err
		}
		for j := range rec.Z[:rr.dim] {
			rec.Z[j] = math.Float64frombits(binary.LittleEndian.Uint64(rr.buf[8*j:]))
		}
		return nil
	}()
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("internal error: %s ends before its last row", rr.path)
	}
	return err
}

// end checks that the file has no bytes after its last record.
func (rr *recordReader) end() error {
	if _, err := rr.br.ReadByte(); err != io.EOF {
		return fmt.Errorf("internal error: %s holds more rows than its range wrote", rr.path)
	}
	return nil
}

// cursor reads the rows a task takes from the ranges' files, in order,
// checking that a range read to its end holds exactly its rows.
type cursor struct {
	ctx  context.Context
	fs   filesystem.Interface
	temp string
	t    shardTask
	k    int   // the range being read
	i    int64 // its next row
	rr   *recordReader
	rec  record
}

func (fn *assembleFn) cursor(ctx context.Context, fs filesystem.Interface, t shardTask) *cursor {
	return &cursor{ctx: ctx, fs: fs, temp: fn.Out.Temp, t: t, rec: record{Z: make([]float64, t.Dim)}}
}

// next returns the next row, its file and its number in the file.
func (c *cursor) next() (file string, row int64, rec *record, err error) {
	for c.k < len(c.t.Ranges) {
		r := c.t.Ranges[c.k]
		if c.rr == nil {
			if c.rr, err = openRecords(c.ctx, c.fs, c.temp, r.Part); err != nil {
				return "", 0, nil, err
			}
			c.i = 0
		}
		for c.i < r.Skip+r.Take {
			if err := c.rr.next(&c.rec); err != nil {
				return "", 0, nil, err
			}
			c.i++
			if c.i > r.Skip {
				return r.Part.File, r.Part.First + c.i - 1, &c.rec, nil
			}
		}
		if err := c.closeRange(); err != nil {
			return "", 0, nil, err
		}
	}
	return "", 0, nil, fmt.Errorf("internal error: %s: the ranges end before its last row", c.t.Name)
}

// closeRange closes the range read to its last row taken, checking that
// nothing follows when that is its last row.
func (c *cursor) closeRange() error {
	r := c.t.Ranges[c.k]
	var err error
	if r.Skip+r.Take == r.Part.Rows {
		err = c.rr.end()
	}
	c.rr.r.Close()
	c.rr = nil
	c.k++
	return err
}

// finish checks that every row taken was read and closes the ranges.
func (c *cursor) finish() error {
	for c.k < len(c.t.Ranges) {
		r := c.t.Ranges[c.k]
		if c.rr == nil || c.i != r.Skip+r.Take {
			return fmt.Errorf("internal error: %s: rows of %s left unread", c.t.Name, r.Part.Name)
		}
		if err := c.closeRange(); err != nil {
			return err
		}
	}
	return nil
}

// close closes the range being read.
func (c *cursor) close() {
	if c.rr != nil {
		c.rr.r.Close()
	}
}

// rows returns the number of rows t takes.
func (t shardTask) rows() int64 {
	n := int64(0)
	for _, r := range t.Ranges {
		n += r.Take
	}
	return n
}

// writeNpyPart writes part t.Shard as part-….npy (float64, rows × Dim)
// and part-….rows.csv (file,row[,ID] of each of its rows).
func (fn *assembleFn) writeNpyPart(ctx context.Context, fs filesystem.Interface, t shardTask) (shardDone, error) {
	rowsName := strings.TrimSuffix(t.Name, ".npy") + ".rows.csv"
	ro, err := createOut(ctx, fs, fn.Out.Temp+"/"+rowsName)
	if err != nil {
		return shardDone{}, err
	}
	zo, err := createOut(ctx, fs, fn.Out.Temp+"/"+t.Name)
	if err != nil {
		ro.close()
		return shardDone{}, err
	}
	n := t.rows()
	cw := csv.NewWriter(ro.bw)
	head := []string{"file", "row"}
	if t.IDName != "" {
		head = append(head, t.IDName)
	}
	cw.Write(head)
	cur := fn.cursor(ctx, fs, t)
	defer cur.close()
	fields := make([]string, 0, 3)
	err = npy.WriteRows(zo.bw, int(n), t.Dim, 64, func(i0, i1 int, dst []float64) error {
		for i := i0; i < i1; i++ {
			file, row, rec, err := cur.next()
			if err != nil {
				return err
			}
			fields = append(fields[:0], file, strconv.FormatInt(row, 10))
			if t.IDName != "" {
				fields = append(fields, rec.ID)
			}
			cw.Write(fields)
			copy(dst[(i-i0)*t.Dim:(i-i0+1)*t.Dim], rec.Z)
		}
		return nil
	})
	if err == nil {
		err = cur.finish()
	}
	cw.Flush()
	if err == nil {
		err = cw.Error()
	}
	if cerr := ro.close(); err == nil {
		err = cerr
	}
	if cerr := zo.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return shardDone{}, err
	}
	return shardDone{Names: []string{t.Name, rowsName}, Rows: n}, nil
}

// writeParquetPart writes part t.Shard as one row group of a Parquet
// file: file, row, the ID, label or z1,…,zr.
func (fn *assembleFn) writeParquetPart(ctx context.Context, fs filesystem.Interface, t shardTask) (shardDone, error) {
	n := int(t.rows())
	cols := []parquetColumn{{name: "file", text: true, strings: make([]string, 0, n)}, {name: "row", integer: true, ints: make([]int64, 0, n)}}
	if t.IDName != "" {
		cols = append(cols, parquetColumn{name: t.IDName, text: true, strings: make([]string, 0, n)})
	}
	if t.Dim == 0 {
		cols = append(cols, parquetColumn{name: "label", text: true, strings: make([]string, 0, n)})
	}
	for j := 1; j <= t.Dim; j++ {
		cols = append(cols, parquetColumn{name: "z" + strconv.Itoa(j), floats: make([]float64, 0, n)})
	}
	cur := fn.cursor(ctx, fs, t)
	defer cur.close()
	for range n {
		file, row, rec, err := cur.next()
		if err != nil {
			return shardDone{}, err
		}
		cols[0].strings = append(cols[0].strings, file)
		cols[1].ints = append(cols[1].ints, row)
		k := 2
		if t.IDName != "" {
			cols[k].strings = append(cols[k].strings, rec.ID)
			k++
		}
		if t.Dim == 0 {
			cols[k].strings = append(cols[k].strings, rec.Label)
		}
		for j, z := range rec.Z {
			cols[k+j].floats = append(cols[k+j].floats, z)
		}
	}
	if err := cur.finish(); err != nil {
		return shardDone{}, err
	}
	o, err := createOut(ctx, fs, fn.Out.Temp+"/"+t.Name)
	if err != nil {
		return shardDone{}, err
	}
	err = writeParquet(o.bw, cols)
	if cerr := o.close(); err == nil {
		err = cerr
	} else {
		err = fmt.Errorf("writing %s: %w", o.path, err)
	}
	if err != nil {
		return shardDone{}, err
	}
	return shardDone{Names: []string{t.Name}, Rows: int64(n)}, nil
}

// moveFn moves the output files to Out.Dir once every task has written
// its files (as many tasks and rows as the plan says), and removes
// Out.Temp.
type moveFn struct {
	Out Output
}

func (fn *moveFn) ProcessElement(ctx context.Context, _ int, iter func(*shardDone) bool) error {
	var plan *shardDone
	var names []string
	tasks, rows := 0, int64(0)
	var d shardDone
	for iter(&d) {
		if d.Shard < 0 {
			p := d
			plan = &p
			continue
		}
		tasks++
		rows += d.Rows
		names = append(names, d.Names...)
	}
	if plan == nil || tasks != plan.Tasks || rows != plan.Rows {
		return fmt.Errorf("internal error: %d output files with %d rows written, the plan has %v", tasks, rows, plan)
	}
	sort.Strings(names)
	fs, err := filesystem.New(ctx, fn.Out.Dir)
	if err != nil {
		return err
	}
	defer fs.Close()
	for _, name := range names {
		if err := filesystem.Rename(ctx, fs, fn.Out.Temp+"/"+name, fn.Out.Dir+"/"+name); err != nil {
			return fmt.Errorf("moving %s to %s: %w", name, fn.Out.Dir, err)
		}
	}
	if !strings.Contains(fn.Out.Temp, "://") {
		return os.RemoveAll(fn.Out.Temp)
	}
	if rm, ok := fs.(filesystem.Remover); ok {
		ranges, err := fs.List(ctx, fn.Out.Temp+"/ranges/*")
		if err != nil {
			return err
		}
		for _, r := range ranges {
			rm.Remove(ctx, r)
		}
	}
	return nil
}
