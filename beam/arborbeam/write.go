package arborbeam

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/npy"
)

// Output is where a job writes: files are written under Temp, a directory
// of Dir of its own, and moved to Dir only when every one of them is
// written (Finalize), so that a failed job leaves no output as final.
type Output struct {
	Dir  string // any Beam filesystem
	Temp string // Dir/.arbor-beam-tmp-<random>
}

// NewOutput returns an Output in dir with a fresh temporary directory.
func NewOutput(dir string) Output {
	b := make([]byte, 8)
	rand.Read(b)
	dir = strings.TrimSuffix(dir, "/")
	return Output{Dir: dir, Temp: dir + "/.arbor-beam-tmp-" + hex.EncodeToString(b)}
}

// Written is a file written under Output.Temp, to be moved to Output.Dir.
type Written struct {
	Name   string // the file's name in Dir
	Source string // the input it was written for ("" for a part file)
}

// chunkCount is the number of rows of a file's chunk.
type chunkCount struct {
	Pos int64
	N   int64
}

// FileRows says where each chunk of a file starts in its rows.
type FileRows struct {
	Pos   []int64 // the chunks' Pos, ascending
	Start []int64 // the row number (0-based) of each chunk's first row
}

func init() {
	register.Function1x2[Chunk, string, chunkCount](countChunk)
	register.Emitter2[string, chunkCount]()
	register.Iter1[chunkCount]()
	register.Function2x2[string, func(*chunkCount) bool, string, FileRows](fileRows)
	register.DoFn5x1[context.Context, int, func(*Chunk) bool, func(string) func(*FileRows) bool, func(Written), error](&writePartFn{})
	register.Iter1[Chunk]()
	register.Iter1[FileRows]()
	register.DoFn2x1[Chunk, func(int, Chunk), error](&shardFn{})
	register.Emitter2[int, Chunk]()
	register.Function1x2[Chunk, string, Chunk](byFile)
	register.Emitter2[string, Chunk]()
	register.DoFn3x2[context.Context, string, func(*Chunk) bool, Written, error](&writeOrderedFn{})
	register.DoFn3x1[context.Context, int, func(*Written) bool, error](&finalizeFn{})
	register.Iter1[Written]()
	beam.RegisterType(reflect.TypeOf((*chunkCount)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*FileRows)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Written)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Output)(nil)).Elem())
}

func countChunk(l Chunk) (string, chunkCount) {
	return l.File, chunkCount{Pos: l.Pos, N: int64(l.Rows())}
}

func fileRows(file string, counts func(*chunkCount) bool) (string, FileRows) {
	var cs []chunkCount
	var c chunkCount
	for counts(&c) {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Pos < cs[j].Pos })
	fr := FileRows{Pos: make([]int64, len(cs)), Start: make([]int64, len(cs))}
	row := int64(0)
	for i, c := range cs {
		fr.Pos[i], fr.Start[i] = c.Pos, row
		row += c.N
	}
	return file, fr
}

// RowNumbers returns, for each file, the row number at which each of its
// chunks starts (a KV<string, FileRows> collection, for a side input).
func RowNumbers(s beam.Scope, labels beam.PCollection) beam.PCollection {
	s = s.Scope("arborbeam.RowNumbers")
	counts := beam.ParDo(s, countChunk, labels)
	return beam.ParDo(s, fileRows, beam.GroupByKey(s, counts))
}

// shardFn keys a chunk by its part file: a hash of its file and position.
type shardFn struct {
	Shards int
}

func (fn *shardFn) ProcessElement(l Chunk, emit func(int, Chunk)) error {
	h := fnv.New64a()
	io.WriteString(h, l.File)
	fmt.Fprintf(h, "\x00%d", l.Pos)
	emit(int(h.Sum64()%uint64(max(fn.Shards, 1))), l)
	return nil
}

// WriteParts writes chunks as shards part files, the rows of each part
// in file and row order: CSV file,row[,ID],label for labels (Predict),
// file,row[,ID],z1,…,zr for features (Features); with npy, features go to
// part-….npy (float64, rows × r) and the rows' file,row[,ID] to
// part-….rows.csv beside it. It returns the files written (under
// out.Temp: see Finalize).
func WriteParts(s beam.Scope, chunks beam.PCollection, out Output, shards int, npy bool) beam.PCollection {
	s = s.Scope("arborbeam.WriteParts")
	rows := RowNumbers(s, chunks)
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, chunks)
	return beam.ParDo(s, &writePartFn{Out: out, Shards: max(shards, 1), Npy: npy}, beam.GroupByKey(s, keyed), beam.SideInput{Input: rows})
}

// WriteParquetParts is WriteParts with Parquet part files,
// part-00000-of-00016.parquet: the columns file and ID (strings), row
// (INT64) and label (string) or z1,…,zr (DOUBLE), rows sorted by file and
// row, one row group a part.
func WriteParquetParts(s beam.Scope, chunks beam.PCollection, out Output, shards int) beam.PCollection {
	s = s.Scope("arborbeam.WriteParquetParts")
	rows := RowNumbers(s, chunks)
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, chunks)
	return beam.ParDo(s, &writePartFn{Out: out, Shards: max(shards, 1), Parquet: true}, beam.GroupByKey(s, keyed), beam.SideInput{Input: rows})
}

type writePartFn struct {
	Out     Output
	Shards  int
	Npy     bool
	Parquet bool
}

// PartName is the name of part i of n, with extension ext (".csv").
func PartName(i, n int, ext string) string {
	return fmt.Sprintf("part-%05d-of-%05d%s", i, n, ext)
}

func (fn *writePartFn) ProcessElement(ctx context.Context, shard int, chunks func(*Chunk) bool, rows func(string) func(*FileRows) bool, emit func(Written)) error {
	var ls []Chunk
	var l Chunk
	for chunks(&l) {
		ls = append(ls, l)
		l = Chunk{}
	}
	sort.Slice(ls, func(i, j int) bool {
		if ls[i].File != ls[j].File {
			return ls[i].File < ls[j].File
		}
		return ls[i].Pos < ls[j].Pos
	})
	idName, dim, n := "", 0, 0
	for _, l := range ls {
		if l.IDName != "" {
			if idName != "" && idName != l.IDName {
				idName = "id"
			} else if idName == "" {
				idName = l.IDName
			}
		}
		if l.Dim > 0 {
			if dim > 0 && dim != l.Dim {
				return fmt.Errorf("%s: %d features a row, another chunk has %d", l.File, l.Dim, dim)
			}
			dim = l.Dim
		}
		n += l.Rows()
	}
	starts := map[string]FileRows{}
	firstRow := func(l Chunk) (int64, error) {
		fr, ok := starts[l.File]
		if !ok {
			rows(l.File)(&fr)
			starts[l.File] = fr
		}
		k, found := slices.BinarySearch(fr.Pos, l.Pos)
		if !found {
			return 0, fmt.Errorf("%s: no row count for the chunk at %d", l.File, l.Pos)
		}
		return fr.Start[k], nil
	}
	if fn.Parquet {
		cols := []parquetColumn{{name: "file", text: true}, {name: "row", integer: true}}
		if idName != "" {
			cols = append(cols, parquetColumn{name: idName, text: true})
		}
		if dim == 0 {
			cols = append(cols, parquetColumn{name: "label", text: true})
		}
		for j := 1; j <= dim; j++ {
			cols = append(cols, parquetColumn{name: "z" + strconv.Itoa(j)})
		}
		for _, l := range ls {
			row, err := firstRow(l)
			if err != nil {
				return err
			}
			for i := 0; i < l.Rows(); i++ {
				cols[0].strings = append(cols[0].strings, l.File)
				cols[1].ints = append(cols[1].ints, row+int64(i))
				k := 2
				if idName != "" {
					id := ""
					if l.IDs != nil {
						id = l.IDs[i]
					}
					cols[k].strings = append(cols[k].strings, id)
					k++
				}
				if dim == 0 {
					cols[k].strings = append(cols[k].strings, l.Labels[i])
				}
				for j := 0; j < dim; j++ {
					cols[k+j].floats = append(cols[k+j].floats, l.Z[i*dim+j])
				}
			}
		}
		name := PartName(shard, fn.Shards, ".parquet")
		if err := writeRaw(ctx, fn.Out.Temp+"/"+name, func(w io.Writer) error { return writeParquet(w, cols) }); err != nil {
			return err
		}
		emit(Written{Name: name})
		return nil
	}
	head := []string{"file", "row"}
	if idName != "" {
		head = append(head, idName)
	}
	withValues := !fn.Npy || dim == 0
	if withValues {
		if dim == 0 {
			head = append(head, "label")
		}
		for j := 1; j <= dim; j++ {
			head = append(head, "z"+strconv.Itoa(j))
		}
	}
	name := PartName(shard, fn.Shards, ".csv")
	if !withValues {
		name = PartName(shard, fn.Shards, ".rows.csv")
	}
	err := writeFile(ctx, fn.Out.Temp+"/"+name, func(w *csv.Writer) error {
		w.Write(head)
		rec := make([]string, 0, len(head))
		for _, l := range ls {
			row, err := firstRow(l)
			if err != nil {
				return err
			}
			for i := 0; i < l.Rows(); i++ {
				rec = append(rec[:0], l.File, strconv.FormatInt(row+int64(i), 10))
				rec = l.appendRow(rec, i, idName != "", withValues, dim)
				w.Write(rec)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	emit(Written{Name: name})
	if withValues {
		return nil
	}
	Z := mat.NewDense(n, dim, nil) // n ≥ 1: a shard holds at least one chunk of rows
	o := 0
	for _, l := range ls {
		for i := 0; i < l.Rows(); i++ {
			Z.SetRow(o, l.Z[i*dim:i*dim+dim])
			o++
		}
	}
	npyName := PartName(shard, fn.Shards, ".npy")
	if err := writeRaw(ctx, fn.Out.Temp+"/"+npyName, func(w io.Writer) error { return npy.Write(w, Z) }); err != nil {
		return err
	}
	emit(Written{Name: npyName})
	return nil
}

// writeRaw writes path (any Beam filesystem) through fill.
func writeRaw(ctx context.Context, path string, fill func(w io.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	f, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeFile writes path (any Beam filesystem) as CSV through fill.
func writeFile(ctx context.Context, path string, fill func(w *csv.Writer) error) error {
	return writeRaw(ctx, path, func(bw io.Writer) error {
		w := csv.NewWriter(bw)
		err := fill(w)
		w.Flush()
		if err == nil {
			err = w.Error()
		}
		return err
	})
}

func byFile(l Chunk) (string, Chunk) { return l.File, l }

// OrderedName is the name of the ordered output of the input file path:
// its base name without .gz and its last extension, then
// .predictions.csv (labels) or .features.csv (features).
func OrderedName(file string, features bool) string {
	base := path.Base(file)
	base = strings.TrimSuffix(base, ".gz")
	base = strings.TrimSuffix(base, ".GZ")
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	if features {
		return base + ".features.csv"
	}
	return base + ".predictions.csv"
}

// WriteOrdered writes the labels of each input file to one file of its
// own (OrderedName), in the file's row order and in arbor predict's
// format (row[,ID],label): one worker holds a whole file's labels. Chunks
// of features are written row[,ID],z1,…,zr alike. It
// returns the files written (under out.Temp: see Finalize).
func WriteOrdered(s beam.Scope, labels beam.PCollection, out Output) beam.PCollection {
	s = s.Scope("arborbeam.WriteOrdered")
	return beam.ParDo(s, &writeOrderedFn{Out: out}, beam.GroupByKey(s, beam.ParDo(s, byFile, labels)))
}

type writeOrderedFn struct {
	Out Output
}

func (fn *writeOrderedFn) ProcessElement(ctx context.Context, file string, chunks func(*Chunk) bool) (Written, error) {
	var ls []Chunk
	var l Chunk
	for chunks(&l) {
		ls = append(ls, l)
		l = Chunk{}
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].Pos < ls[j].Pos })
	idName := ""
	if len(ls) > 0 {
		idName = ls[0].IDName
	}
	dim := 0
	if len(ls) > 0 {
		dim = ls[0].Dim
	}
	name := OrderedName(file, dim > 0)
	err := writeFile(ctx, fn.Out.Temp+"/"+name, func(w *csv.Writer) error {
		head := []string{"row"}
		if idName != "" {
			head = append(head, idName)
		}
		if dim == 0 {
			head = append(head, "label")
		}
		for j := 1; j <= dim; j++ {
			head = append(head, "z"+strconv.Itoa(j))
		}
		w.Write(head)
		row := 0
		rec := make([]string, 0, len(head))
		for _, l := range ls {
			for i := 0; i < l.Rows(); i++ {
				rec = append(rec[:0], strconv.Itoa(row))
				row++
				rec = l.appendRow(rec, i, idName != "", true, dim)
				w.Write(rec)
			}
		}
		return nil
	})
	return Written{Name: name, Source: file}, err
}

// Finalize moves the files written to out.Dir once all of them are
// written, and removes out.Temp. Two inputs that would give one output
// name are an error (nothing is moved).
func Finalize(s beam.Scope, written beam.PCollection, out Output) {
	s = s.Scope("arborbeam.Finalize")
	beam.ParDo0(s, &finalizeFn{Out: out}, beam.GroupByKey(s, beam.AddFixedKey(s, written)))
}

type finalizeFn struct {
	Out Output
}

func (fn *finalizeFn) ProcessElement(ctx context.Context, _ int, written func(*Written) bool) error {
	var ws []Written
	var w Written
	from := map[string]string{}
	for written(&w) {
		if src, dup := from[w.Name]; dup {
			return fmt.Errorf("inputs %s and %s would both be written to %s/%s: give them different base names", src, w.Source, fn.Out.Dir, w.Name)
		}
		from[w.Name] = w.Source
		ws = append(ws, w)
	}
	fs, err := filesystem.New(ctx, fn.Out.Dir)
	if err != nil {
		return err
	}
	defer fs.Close()
	for _, w := range ws {
		if err := filesystem.Rename(ctx, fs, fn.Out.Temp+"/"+w.Name, fn.Out.Dir+"/"+w.Name); err != nil {
			return fmt.Errorf("moving %s to %s: %w", w.Name, fn.Out.Dir, err)
		}
	}
	if !strings.Contains(fn.Out.Temp, "://") {
		os.Remove(fn.Out.Temp)
	}
	return nil
}

// appendRow appends row i's output fields to rec: its ID (empty when the
// file has none) when withID, then, when withValues, its label (dim = 0) or
// its dim feature values.
func (c Chunk) appendRow(rec []string, i int, withID, withValues bool, dim int) []string {
	if withID {
		id := ""
		if c.IDs != nil {
			id = c.IDs[i]
		}
		rec = append(rec, id)
	}
	if !withValues {
		return rec
	}
	if dim == 0 {
		rec = append(rec, c.Labels[i])
	}
	for _, z := range c.Z[i*dim : i*dim+dim] {
		rec = append(rec, strconv.FormatFloat(z, 'g', -1, 64))
	}
	return rec
}
