package arborbeam

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
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
	register.Emitter2[string, chunkCount]()
	register.Iter1[chunkCount]()
	register.DoFn3x1[context.Context, int, func(*Written) bool, error](&finalizeFn{})
	register.Iter1[Written]()
	beam.RegisterType(reflect.TypeOf((*chunkCount)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*FileRows)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Written)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Output)(nil)).Elem())
}

// PartName is the name of part i of n, with extension ext (".csv").
func PartName(i, n int, ext string) string {
	return fmt.Sprintf("part-%05d-of-%05d%s", i, n, ext)
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
