package arborbeam

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// DefaultChunk is the number of rows of one element: the rows read,
// labelled and emitted together (pipeline.DefaultChunk, as arbor predict).
const DefaultChunk = pipeline.DefaultChunk

// DefaultSplitBytes is the size of the byte ranges a file is first split
// into (a runner may split them further while they are read).
const DefaultSplitBytes = 64 << 20

// ReadOptions says how files of new points are read.
type ReadOptions struct {
	// CSV are the column options as arbor predict's flags give them
	// (--id, --label, --features, --ignore, --sep, --no-header); the
	// model's feature names, ID and label columns decide the rest.
	CSV dataset.CSVOptions
	// Chunk is the number of rows of one element (≤ 0: DefaultChunk).
	Chunk int
	// SplitBytes is the size of a file's first byte ranges (≤ 0:
	// DefaultSplitBytes).
	SplitBytes int64
	// CountBytes is the size of the blocks whose rows PredictFiles and
	// FeatureFiles count first (≤ 0: SplitBytes, at most
	// CountBlockBytes).
	CountBytes int64
}

func (o ReadOptions) chunk() int {
	if o.Chunk <= 0 {
		return DefaultChunk
	}
	return o.Chunk
}

// FileHead is what reading a file's head settles for all its parts.
type FileHead struct {
	Path string
	Size int64
	// Whole: the file is read in one piece (gzip, or lines ending in a
	// bare carriage return).
	Whole bool
	// Header is the file's header line with its newline (nil: none);
	// DataStart is the byte offset of the line after it (0 without one).
	Header    []byte
	DataStart int64
	// Sep and HasHeader are the separator and header decision of the
	// file's first chunk, used for every part.
	Sep       string
	HasHeader bool
	// Label is the label column the file's first chunk read ("": none),
	// used for every part: without a header, whether the last column is
	// the label depends on a cell (text or a number), which must not be
	// decided again by each part.
	Label string
	// Err is why the file's head cannot be read (its text; see
	// dataError). Such a file is one range, read by no step: the steps
	// after it carry the refusal to the step that reports it.
	Err string
}

// Chunk is the result for one chunk of rows of a file: their labels
// (Predict) or their landmark features (Features).
type Chunk struct {
	File string
	// Pos orders the chunks of a file: the byte offset of the chunk's
	// first line (a file read whole: the chunk's index).
	Pos    int64
	IDName string   // the ID column, "" without one
	IDs    []string // one a row, nil without an ID column
	Labels []string // Predict: the class names, "?" for a row left unlabelled
	// Features: the rows' landmark features, Dim a row (row-major).
	Dim int
	Z   []float64
}

// Rows returns the number of rows of c.
func (c Chunk) Rows() int {
	if c.Dim > 0 {
		return len(c.Z) / c.Dim
	}
	return len(c.Labels)
}

func init() {
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(FileHead), error](&headFn{})
	register.Emitter1[FileHead]()
	register.DoFn4x1[context.Context, *sdf.LockRTracker, FileHead, func(Chunk), error](&predictFn{})
	register.Emitter1[Chunk]()
	beam.RegisterType(reflect.TypeOf((*FileHead)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Chunk)(nil)).Elem())
}

// Predict labels the rows of the files matched by the globs in files (a
// PCollection of strings, as fileio.MatchAll takes) with the model saved
// at model, and returns the labels, one Chunk a chunk of rows. A glob
// that matches nothing is an error.
func Predict(s beam.Scope, model string, files beam.PCollection, opt ReadOptions) beam.PCollection {
	return apply(s.Scope("arborbeam.Predict"), model, files, opt, false)
}

// Features computes the landmark features z(x) of the rows of the files
// matched by the globs in files with the feature map of the landmark model
// saved at model (arbor classify --landmarks: its kernel's map, after the
// model's scaling), one Chunk a chunk of rows. A model without a feature
// map (exact, anchor graph, kNN graph) is an error.
func Features(s beam.Scope, model string, files beam.PCollection, opt ReadOptions) beam.PCollection {
	return apply(s.Scope("arborbeam.Features"), model, files, opt, true)
}

func apply(s beam.Scope, model string, files beam.PCollection, opt ReadOptions, features bool) beam.PCollection {
	matched := fileio.MatchAll(s, files, fileio.MatchEmptyDisallow())
	heads := beam.ParDo(s, &headFn{Model: model, Opt: opt}, filter.Include(s, matched, isTextFile))
	text := beam.ParDo(s, &predictFn{Model: model, Opt: opt, Features: features}, heads)
	groups := beam.ParDo(s, &rowGroupsFn{Model: model, Opt: opt}, filter.Include(s, matched, isParquetFile))
	pq := beam.ParDo(s, &parquetPredictFn{Model: model, Opt: opt, Features: features}, beam.Reshuffle(s, groups))
	return beam.Flatten(s, text, pq)
}

// CheckFeatures says whether p has a landmark feature map (Features).
func CheckFeatures(p *pipeline.Pipeline, model string) error {
	if p.Landmarks == nil || p.Landmarks.Map == nil {
		return fmt.Errorf("%s: the model has no landmark feature map (fit it with arbor classify --landmarks M and a kernel; the anchor graph and the kNN graph work on the points)", model)
	}
	return nil
}

// headFn reads the head of each file: its header line and the separator
// and header decision of its first chunk, checking that the model's
// columns are there (Model "": a training file, read without a model).
type headFn struct {
	Model string
	Opt   ReadOptions
}

var errHead = errors.New("head read")

func (fn *headFn) ProcessElement(ctx context.Context, f fileio.FileMetadata, emit func(FileHead)) error {
	stream := streamFunc(pipeline.Stream) // training data (Fit): no model
	if fn.Model != "" {
		p, err := LoadModel(ctx, fn.Model)
		if err != nil {
			return err
		}
		stream = p.Stream
	}
	h, err := fn.head(ctx, f, stream)
	if dataError(err) {
		h = FileHead{Path: f.Path, Size: f.Size, Whole: true, Err: err.Error()}
		err = nil
	}
	if err == nil {
		emit(h)
	}
	return err
}

// head reads the head of file f with stream.
func (fn *headFn) head(ctx context.Context, f fileio.FileMetadata, stream streamFunc) (FileHead, error) {
	r, err := openText(ctx, f.Path)
	if err != nil {
		return FileHead{}, err
	}
	defer r.Close()
	// The first chunk is read as arbor predict reads it: the header, the
	// separator and the model's columns are settled there.
	var src *dataset.Source
	br := bufio.NewReaderSize(r, 1<<16)
	if fn.Model == "" && fn.Opt.CSV.Label != "" {
		// Training rows need the label column asked for: a stream
		// without it reads every column as a feature.
		if err := labelColumnError(br, f.Path, fn.Opt.CSV); err != nil {
			return FileHead{}, err
		}
	}
	var head bytes.Buffer
	var label string
	err = stream(ctx, io.TeeReader(br, &head), f.Path, fn.Opt.CSV, fn.Opt.chunk(), func(ds *dataset.Dataset) error {
		src, label = ds.Source, ds.LabelName
		return errHead
	})
	if err != nil && err != errHead {
		return FileHead{}, err
	}
	h := FileHead{Path: f.Path, Size: f.Size, Whole: isGzip(f.Path), Label: label}
	if src != nil {
		h.Sep, h.HasHeader = src.Sep, src.Header
		h.Whole = h.Whole || src.CROnly
	}
	if h.HasHeader {
		// The header is the first non-blank line.
		b := head.Bytes()
		off := 0
		for off < len(b) {
			i := bytes.IndexByte(b[off:], '\n')
			if i < 0 {
				i = len(b) - off - 1
			}
			line := b[off : off+i+1]
			off += i + 1
			if len(bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))) > 0 {
				h.Header = append([]byte(nil), line...)
				break
			}
		}
		h.DataStart = int64(off)
	}
	return h, nil
}

// labelColumnError reports ErrNoLabelColumn, as arbor classify does, when
// the lines at the start of br (whole lines of its buffer) do not have
// opt's label column; any other error is left to the reader.
func labelColumnError(br *bufio.Reader, name string, opt dataset.CSVOptions) error {
	b, _ := br.Peek(br.Size())
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	if _, err := dataset.ReadCSV(bytes.NewReader(b), name, opt); errors.Is(err, dataset.ErrNoLabelColumn) {
		return err
	}
	return nil
}

// settled returns opt with the separator, header and label decisions of
// h. In a file without a header the last column is the label when a
// chunk's first label cell is text; every part keeps the first chunk's
// decision, so that a part whose first label cell is a number where the
// first chunk's was text (or the other way round) reads the same feature
// values: those arbor predict labels the row with (by position, or by
// name when its own chunk took the column as a feature).
func settled(opt dataset.CSVOptions, h FileHead) dataset.CSVOptions {
	opt.Sep = h.Sep
	opt.Header, opt.NoHeader = h.HasHeader, !h.HasHeader
	if !h.HasHeader && !opt.NoLabel && opt.Label == "" {
		if h.Label != "" {
			opt.Label = h.Label
		} else {
			opt.NoLabel = true
		}
	}
	return opt
}

// predictFn is the splittable DoFn that labels a file's rows by byte
// ranges: a row belongs to the range its line starts in.
type predictFn struct {
	Model    string
	Opt      ReadOptions
	Features bool // the landmark features, not the labels
	p        *pipeline.Pipeline
}

func (fn *predictFn) Setup(ctx context.Context) error {
	p, err := loadFor(ctx, fn.Model, fn.Features)
	fn.p = p
	return err
}

// chunk labels ds, or computes its features.
func (fn *predictFn) chunk(ctx context.Context, ds *dataset.Dataset) (Chunk, error) {
	if fn.Features {
		return featureChunk(ctx, fn.p, ds)
	}
	return labelChunk(ctx, fn.p, ds)
}

func (fn *predictFn) CreateInitialRestriction(h FileHead) offsetrange.Restriction {
	if h.Whole {
		return offsetrange.Restriction{Start: 0, End: 1}
	}
	return offsetrange.Restriction{Start: h.DataStart, End: max(h.Size, h.DataStart)}
}

func (fn *predictFn) SplitRestriction(h FileHead, rest offsetrange.Restriction) []offsetrange.Restriction {
	if h.Whole {
		return []offsetrange.Restriction{rest}
	}
	size := fn.Opt.SplitBytes
	if size <= 0 {
		size = DefaultSplitBytes
	}
	return rest.SizedSplits(size)
}

func (fn *predictFn) RestrictionSize(h FileHead, rest offsetrange.Restriction) float64 {
	if h.Whole {
		return float64(h.Size)
	}
	return rest.Size()
}

func (fn *predictFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (fn *predictFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, h FileHead, emit func(Chunk)) error {
	conv := func(ds *dataset.Dataset) (Chunk, error) { return fn.chunk(ctx, ds) }
	return readRange(ctx, rt, h, fn.Opt, fn.p.Stream, fn.p.StreamPart, conv, func(l Chunk, pos int64) {
		l.File, l.Pos = h.Path, pos
		emit(l)
	})
}

// streamFunc reads a whole file in chunks (pipeline.Pipeline.Stream, or
// pipeline.Stream); partFunc reads part of one (StreamPart).
type (
	streamFunc func(ctx context.Context, r io.Reader, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error
	partFunc   func(ctx context.Context, header []byte, r io.Reader, first int, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error
)

// readRange reads the rows of h in the restriction of rt, a row belonging
// to the range its line starts in, one chunk of opt.Chunk rows at a time
// through part (the header in front), or the whole file through whole
// when h.Whole; it hands each chunk's data set to fn with the chunk's
// position (its first line's byte offset, or for a file read whole its
// index): conv computes the chunk's result, emit takes it. A chunk that
// fails is read (and converted) again with the file's own line numbers,
// so that its error names them.
func readRange[T any](ctx context.Context, rt *sdf.LockRTracker, h FileHead, o ReadOptions, whole streamFunc, part partFunc,
	conv func(ds *dataset.Dataset) (T, error), emit func(v T, pos int64)) error {
	fn := func(ds *dataset.Dataset, pos int64) error {
		v, err := conv(ds)
		if err != nil {
			return err
		}
		emit(v, pos)
		return nil
	}
	rest := rt.GetRestriction().(offsetrange.Restriction)
	if h.Err != "" {
		endRange(rt)
		return errors.New(h.Err)
	}
	if h.Whole {
		if !rt.TryClaim(rest.Start) {
			return nil
		}
		r, err := openText(ctx, h.Path)
		if err != nil {
			return err
		}
		defer r.Close()
		k := int64(0)
		err = whole(ctx, r, h.Path, o.CSV, o.chunk(), func(ds *dataset.Dataset) error {
			k++
			return fn(ds, k-1)
		})
		rt.TryClaim(rest.End)
		return err
	}
	start := rest.Start
	if start > h.DataStart {
		start-- // the line that starts at rest.Start, if one does, follows a newline at start
	}
	r, err := openAt(ctx, h.Path, start)
	if err != nil {
		return err
	}
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<16)
	pos := start
	if start < rest.Start {
		skip, err := br.ReadBytes('\n')
		pos += int64(len(skip))
		if err == io.EOF {
			rt.TryClaim(rest.End)
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", h.Path, err)
		}
	}
	opt := settled(o.CSV, h)
	chunk := o.chunk()
	var buf bytes.Buffer
	rows := 0
	chunkPos := pos
	flush := func() error {
		if rows == 0 {
			return nil
		}
		err := part(ctx, h.Header, bytes.NewReader(buf.Bytes()), 0, h.Path, opt, chunk, func(ds *dataset.Dataset) error {
			return fn(ds, chunkPos)
		})
		if err != nil {
			return lineError(ctx, h, opt, chunk, part, buf.Bytes(), chunkPos, err, conv)
		}
		buf.Reset()
		rows = 0
		return nil
	}
	for {
		if buf.Len() == 0 {
			chunkPos = pos
		}
		if !rt.TryClaim(pos) {
			break
		}
		// The line goes straight from the reader's buffer into the
		// chunk's (ReadSlice, in pieces when longer than the buffer): no
		// copy a line.
		n, blank := 0, true
		var err error
		for {
			var piece []byte
			piece, err = br.ReadSlice('\n')
			n += len(piece)
			buf.Write(piece)
			blank = blank && isBlank(piece)
			if err != bufio.ErrBufferFull {
				break
			}
		}
		pos += int64(n)
		if n > 0 {
			// Blank lines too: the reader skips them but counts them, so
			// that errors name the file's lines.
			if b := buf.Bytes(); b[len(b)-1] != '\n' {
				buf.WriteByte('\n')
			}
			if !blank {
				rows++
			}
		}
		if err == io.EOF {
			rt.TryClaim(rest.End)
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", h.Path, err)
		}
		if rows == chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// lineError reads the chunk at byte pos again with the file's own line
// numbers (counted from the start of the file, which only an error needs)
// and returns its error (conv's, or the reader's).
func lineError[T any](ctx context.Context, h FileHead, opt dataset.CSVOptions, chunk int, part partFunc, text []byte, pos int64, err error, conv func(ds *dataset.Dataset) (T, error)) error {
	n, cerr := countLines(ctx, h.Path, pos)
	if cerr != nil {
		return err
	}
	err2 := part(ctx, h.Header, bytes.NewReader(text), n+1, h.Path, opt, chunk, func(ds *dataset.Dataset) error {
		_, err := conv(ds)
		return err
	})
	if err2 == nil {
		return err
	}
	return err2
}

// labelChunk labels one chunk of new points as arbor predict does.
func labelChunk(ctx context.Context, p *pipeline.Pipeline, ds *dataset.Dataset) (Chunk, error) {
	if p.Scaler == nil || p.Scaler.Impute == nil {
		if err := ds.MissingError("arbor predict", "fill or drop those cells, or refit the model with --impute"); err != nil {
			return Chunk{}, err
		}
	}
	X, err := p.Columns(ds)
	if err != nil {
		return Chunk{}, err
	}
	pred, err := p.Predict(ctx, X)
	if err != nil {
		return Chunk{}, err
	}
	l := Chunk{IDName: ds.IDName, Labels: make([]string, len(pred))}
	for i, c := range pred {
		l.Labels[i] = "?"
		if c >= 0 && c < len(p.Classes) {
			l.Labels[i] = p.Classes[c]
		}
	}
	if ds.IDName != "" {
		l.IDs = make([]string, len(pred))
		copy(l.IDs, ds.IDs)
	}
	return l, nil
}

// featureChunk computes the landmark features of one chunk of new points.
func featureChunk(ctx context.Context, p *pipeline.Pipeline, ds *dataset.Dataset) (Chunk, error) {
	if p.Scaler == nil || p.Scaler.Impute == nil {
		if err := ds.MissingError("arbor-beam features", "fill or drop those cells, or refit the model with --impute"); err != nil {
			return Chunk{}, err
		}
	}
	X, err := p.Columns(ds)
	if err != nil {
		return Chunk{}, err
	}
	Z, err := p.LandmarkFeatures(ctx, X)
	if err != nil {
		return Chunk{}, err
	}
	r, dim := Z.Dims()
	l := Chunk{IDName: ds.IDName, Dim: dim, Z: make([]float64, 0, r*dim)}
	for i := 0; i < r; i++ {
		l.Z = append(l.Z, Z.RawRowView(i)...)
	}
	if ds.IDName != "" {
		l.IDs = make([]string, r)
		copy(l.IDs, ds.IDs)
	}
	return l, nil
}
