package arborbeam

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
)

// BlockRows is the number of rows of a block of the sums over rows
// (parallel.BlockRows of the core): Fit sums each block on one worker and
// adds the blocks' sums in block order, as the core sums them in one
// process.
const BlockRows = parallel.BlockRows

// FitSettings say what Fit fits, as arbor classify's flags do: the
// scaling (--scale: std, minmax or none), the learner (--learner lp,
// spreading, linsvm or svm) and its settings by flag name (--affinity,
// --alpha, --unreachable, --C, --tol, --max-iter: Params), the kernel of
// the landmark features (--kernel, for linsvm and svm), and the landmarks
// (--landmarks, --landmark-method, --seed).
type FitSettings struct {
	Kernel         string // svm, linsvm: a point kernel (default linear)
	Scale          string
	Learner        string
	Params         map[string]string
	Landmarks      int
	LandmarkMethod string
	Seed           uint64
}

func (f FitSettings) pipeline() pipeline.Settings {
	return pipeline.Settings{Kernel: f.Kernel, Scale: f.Scale, Learner: f.Learner, Params: f.Params,
		Landmarks: f.Landmarks, LandmarkMethod: f.LandmarkMethod, Seed: f.Seed}
}

func (f FitSettings) scale() string {
	if f.Scale == "" {
		return "std"
	}
	return f.Scale
}

func (f FitSettings) method() string {
	if f.LandmarkMethod == "" {
		return landmark.KMeans
	}
	return f.LandmarkMethod
}

// Plan checks the settings of a learner on the anchor graph (lp or
// spreading) and returns the plan they give (pipeline.AnchorPlanOf).
func (f FitSettings) Plan() (pipeline.AnchorPlan, error) {
	ln, family, err := f.check()
	if err != nil {
		return pipeline.AnchorPlan{}, err
	}
	if !anchorFamily(family) {
		return pipeline.AnchorPlan{}, fmt.Errorf("fit: --learner %s: not a learner on the anchor graph (lp, spreading)", family)
	}
	return pipeline.AnchorPlanOf(ln)
}

func anchorFamily(family string) bool { return family == "lp" || family == "spreading" }

// Describe says what the settings fit, for stderr.
func (f FitSettings) Describe() (string, error) {
	_, family, err := f.check()
	if err != nil {
		return "", err
	}
	if !anchorFamily(family) {
		spec, _ := f.spec()
		return fmt.Sprintf("%s on the Nyström features of %s on %d landmarks", family, spec, f.Landmarks), nil
	}
	plan, err := f.Plan()
	return plan.Describe(), err
}

// check checks the settings and returns the learner and its family: lp
// and spreading on the anchor graph, linsvm and svm on the landmark
// features of a point kernel.
func (f FitSettings) check() (learner.Learner, string, error) {
	if f.Landmarks < 1 {
		return nil, "", fmt.Errorf("fit: --landmarks M is required (the anchors of the anchor graph, or the landmarks of the features)")
	}
	if _, err := dataset.FitScaler(mat.NewDense(1, 1, nil), f.scale()); err != nil {
		return nil, "", fmt.Errorf("fit: --scale: %v", err)
	}
	if m := f.method(); m != landmark.KMeans && m != landmark.Random {
		return nil, "", fmt.Errorf("fit: --landmark-method %q (want kmeans or random)", m)
	}
	_, ln, family, err := f.pipeline().Build()
	if err != nil {
		return nil, "", fmt.Errorf("fit: %w", err)
	}
	switch family {
	case "lp", "spreading":
		if f.Kernel != "" {
			return nil, "", fmt.Errorf("fit: --kernel %s: lp and spreading on the anchor graph take no kernel", f.Kernel)
		}
	case "linsvm", "svm":
		if _, err := f.spec(); err != nil {
			return nil, "", err
		}
	default:
		return nil, "", fmt.Errorf("fit: --learner %s: arbor-beam fit fits lp and spreading on the anchor graph, linsvm and svm on landmark features", family)
	}
	return ln, family, nil
}

// TrainRows is one chunk of training rows as read: the raw features
// (row-major, D a row) and each row's class name ("" for unlabelled).
type TrainRows struct {
	File      string
	Pos       int64
	D         int
	X         []float64
	Labels    []string
	Features  []string
	LabelName string
	IDName    string
	// Err is the data error (see dataError) that ended the reading of
	// the range or row group at Pos: the record holds no rows.
	Err string
}

// Block is the rows [First, First+len(Labels)) of the training data (all
// files in the order of their names, as one file), block Index of
// BlockRows rows.
type Block struct {
	Index     int
	First     int64
	D         int
	X         []float64
	Labels    []string
	Features  []string
	LabelName string
	IDName    string
	// Errs are the data errors met reading the rows, carried to the
	// stats (block 0 holds them; a piece with errors holds no rows).
	Errs []DataErr
}

func (b Block) rows() int { return len(b.Labels) }

// Layout numbers the rows of all files: file f's chunk at Pos[f][c]
// starts at row Offset[f] + Start[f][c].
type Layout struct {
	Files  []string
	Offset []int64
	Pos    [][]int64
	Start  [][]int64
	N      int64
}

// Stats are the sums over all rows that are not the model's: the row
// count, the classes, the labelled rows and the scaler's sums.
type Stats struct {
	N         int
	D         int
	Features  []string
	LabelName string
	IDName    string
	Classes   []string
	Labelled  []int
	Sums      dataset.ScalerSums
	// Refusal is why the rows cannot be fitted (no labelled rows, one
	// class): see refused.
	Refusal string
}

// A fit's refusal (its data or its settings refused by a step whose
// output later steps read as a side input) is data, not the step's error:
// the step emits its refusal's text in place of its result, every later
// step passes it on without working, and the step that writes the model
// returns it as the job's error. A runner that runs stages side by side
// (prism) would otherwise report a later step that found the failed
// step's side input empty: prism goes on running the stages after a failed
// bundle, without its elements, until the job is torn down, and the job's
// error is the last one reported.
func refused(text string) error {
	if text == "" {
		return nil
	}
	return errors.New(text)
}

// dataError says whether err, met reading a file, is the data's (the
// file's content or the file itself refused: a bad cell, a missing
// column, a header only, a file that cannot be opened): such an error is
// carried as data (FileHead.Err, RowGroup.Err, TrainRows.Err,
// RangePart.Err) to the one step that reports the first of them in file
// order, so that a job with bad rows fails with the same error whatever
// ran first. Cancellation is the step's own.
func dataError(err error) bool {
	return err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// endRange marks the rest of a range done once its reading stopped at a
// data error.
func endRange(rt *sdf.LockRTracker) {
	if !rt.IsDone() {
		rt.TryClaim(rt.GetRestriction().(offsetrange.Restriction).End)
	}
}

// DataErr is a data error of a file (see dataError) where it was met:
// Pos orders the errors of a file (a byte offset, or a Parquet row).
type DataErr struct {
	File string
	Pos  int64
	Text string
}

// firstErr is the first of errs in file order (the files in the order of
// their names), "" without any.
func firstErr(errs []DataErr) string {
	if len(errs) == 0 {
		return ""
	}
	f := slices.MinFunc(errs, func(a, b DataErr) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return cmp.Compare(a.Pos, b.Pos)
	})
	return f.Text
}

// indexed is an element of a block (blockVec, blockSums, …).
type indexed interface{ index() int }

// inOrder returns the elements of iter by block index; with what given,
// it checks that the blocks are 0, 1, … with none missing.
func inOrder[T indexed](iter func(*T) bool, what string) ([]T, error) {
	var all []T
	var v, zero T
	for iter(&v) {
		all = append(all, v)
		v = zero
	}
	sort.Slice(all, func(i, j int) bool { return all[i].index() < all[j].index() })
	for i := range all {
		if what != "" && all[i].index() != i {
			return nil, fmt.Errorf("internal error: block %d of %s missing", i, what)
		}
	}
	return all, nil
}

// onBlock is the shape of every step on one block after the landmarks:
// the fit's parts rebuilt from the side inputs (build), the block scaled,
// one method of the parts on it (step). A refused fit gives step's zero
// value without working (see refused).
func onBlock[P, T any](refusal string, b Block, sc dataset.Scaler, build func() (P, error), step func(p P, X *mat.Dense) (T, error)) (T, error) {
	var zero T
	if refusal != "" {
		return zero, nil
	}
	p, err := build()
	if err != nil {
		return zero, err
	}
	X, err := b.scaled(&sc)
	if err != nil {
		return zero, err
	}
	return step(p, X)
}

// blockVec is a block's part of a sum (by Index, merged in block order).
type blockVec struct {
	Index int
	V     []float64
}

// blockSums is a block's part of the anchor graph's sums.
type blockSums struct {
	Index int
	Sums  propagate.AnchorSums
}

// blockTrans is a block's part of the transduction.
type blockTrans struct {
	Index   int
	Labels  []int
	Reached []bool
	Y       []int
}

// blockStats is a block's part of Stats.
type blockStats struct {
	Index     int
	N         int
	D         int
	Features  []string
	LabelName string
	IDName    string
	Names     []string // the distinct class names
	Labelled  []int64
	Sums      dataset.ScalerSums
	Errs      []DataErr
}

// anchorInput is the landmarks chosen, as scaled rows, and for a knn:K
// width the scaled query rows of KNNRadius; or the fit's refusal.
type anchorInput struct {
	N       int // rows in all
	Rows    []int
	M, D    int
	Anchors []float64
	Q       []float64
	Refusal string
}

// width is the anchor graph's σ (Sigma > 0), or the sum of the distances
// to the S-th nearest anchor (the paper's width).
type width struct {
	Sigma float64
	Sum   float64
	Known bool // Sigma or Sum is set
}

// solved is the model of the solved system, saved (no transduction), or
// the fit's refusal.
type solved struct {
	Model   []byte
	Refusal string
}

func (b blockVec) index() int   { return b.Index }
func (b blockSums) index() int  { return b.Index }
func (b blockTrans) index() int { return b.Index }
func (b blockStats) index() int { return b.Index }

func init() {
	for _, t := range []any{TrainRows{}, Block{}, Layout{}, Stats{}, blockVec{}, blockSums{}, blockTrans{}, blockStats{},
		anchorInput{}, width{}, solved{}, fileRowsOf{},
		fitReadFn{}, parquetFitFn{}, piecesFn{}, blockStatsFn{}, statsFn{}, squaresFn{}, scalerFn{}, chooseFn{}, radiusFn{}, widthSumFn{},
		widthFn{}, sigmaFn{}, sumsFn{}, solveFn{}, transFn{}, finishFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(countTrainRows)
	beam.RegisterFunction(toFileRowsOf)
	beam.RegisterFunction(layoutOf)
	beam.RegisterFunction(assembleBlock)
}

// Fit fits label propagation or spreading on the anchor graph (arbor
// classify --landmarks M --learner lp or spreading), or linsvm or svm on
// landmark features, from the training files (delimited text, or Parquet
// read by row groups as their CSV twins) matched by the globs
// in files (read in byte ranges as Predict reads files; several files are
// one data set, in the order of their names), and writes the pipeline to
// out.Temp/name (see Finalize): the file arbor classify --save-model
// writes, byte for byte. It returns the Written file.
//
// Every sum over rows is summed by blocks of BlockRows rows (one task a
// block) and the blocks' sums added in block order, as the core sums them:
// the scaler's, the anchor graph's width and, for lp, ZᵀZ, Λ, Z_lᵀZ_l,
// Z_lᵀY_l (propagate.AnchorParts); for spreading Λ, then the system's
// sums, which need each row's degree from Λ, then the transduction's part
// of B (propagate.SpreadParts). The landmarks are chosen as the core chooses them
// (landmark.ChooseRows) by one worker that reads the rows it needs (k-means'
// sample, then the landmarks) from the blocks; the M×M system is solved
// by one worker.
func Fit(s beam.Scope, files beam.PCollection, opt ReadOptions, set FitSettings, out Output, name string) (beam.PCollection, error) {
	_, family, err := set.check()
	if err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("arborbeam.Fit")
	matched := fileio.MatchAll(s, files, fileio.MatchEmptyDisallow())
	heads := beam.ParDo(s, &headFn{Opt: opt}, filter.Include(s, matched, isTextFile))
	groups := beam.ParDo(s, &rowGroupsFn{Opt: opt}, filter.Include(s, matched, isParquetFile))
	chunks := beam.Flatten(s, beam.ParDo(s, &fitReadFn{Opt: opt}, heads), beam.ParDo(s, &parquetFitFn{Opt: opt}, beam.Reshuffle(s, groups)))

	counts := beam.ParDo(s, countTrainRows, chunks)
	// The layout exists even when no chunk has rows (every one a data
	// error), for the step that carries the errors on.
	layout := beam.ParDo(s, layoutOf, gather(s, beam.Flatten(s, beam.ParDo(s, toFileRowsOf, beam.GroupByKey(s, counts)), beam.Create(s, fileRowsOf{}))))

	pieces := beam.ParDo(s, &piecesFn{}, chunks, beam.SideInput{Input: layout})
	blocks := beam.ParDo(s, assembleBlock, beam.GroupByKey(s, pieces), beam.SideInput{Input: layout})

	stats := beam.ParDo(s, &statsFn{}, gather(s, beam.ParDo(s, &blockStatsFn{}, blocks)))
	squares := beam.ParDo(s, &squaresFn{Scale: set.scale()}, blocks, beam.SideInput{Input: stats})
	scaler := beam.ParDo(s, &scalerFn{Scale: set.scale()}, gather(s, squares), beam.SideInput{Input: stats})
	if !anchorFamily(family) {
		return fitFeatures(s, set, blocks, stats, scaler, out, name), nil
	}
	plan, err := set.Plan()
	if err != nil {
		return beam.PCollection{}, err
	}

	input := beam.ParDo(s, &chooseFn{Set: set, K: plan.K}, stats, beam.SideInput{Input: scaler}, beam.SideInput{Input: blocks})
	var w beam.PCollection
	switch {
	case plan.K > 0:
		parts := beam.ParDo(s, &radiusFn{K: plan.K}, blocks, beam.SideInput{Input: scaler}, beam.SideInput{Input: input})
		w = beam.ParDo(s, &widthFn{K: plan.K}, gather(s, parts), beam.SideInput{Input: stats}, beam.SideInput{Input: input})
	case plan.Graph.Sigma == 0:
		parts := beam.ParDo(s, &widthSumFn{Set: set}, blocks, beam.SideInput{Input: stats}, beam.SideInput{Input: scaler}, beam.SideInput{Input: input})
		w = beam.ParDo(s, &widthFn{}, gather(s, parts), beam.SideInput{Input: stats}, beam.SideInput{Input: input})
	default:
		w = beam.ParDo(s, &sigmaFn{Set: set}, input)
	}
	sides := []beam.SideInput{{Input: stats}, {Input: scaler}, {Input: input}, {Input: w}}
	if plan.Spreading {
		return fitSpreading(s, set, blocks, sides, out, name), nil
	}
	sums := beam.ParDo(s, &sumsFn{Set: set}, blocks, sides[0], sides[1], sides[2], sides[3])
	model := beam.ParDo(s, &solveFn{Set: set}, gather(s, sums), sides[0], sides[2], sides[3])
	trans := beam.ParDo(s, &transFn{}, blocks, sides[0], sides[1], beam.SideInput{Input: model})
	return beam.ParDo(s, &finishFn{Set: set, Out: out, Name: name}, gather(s, trans), sides[0], sides[1], beam.SideInput{Input: model}), nil
}

// gather puts every element of col under one key: one worker sees them
// all (the consumer orders them by block).
func gather(s beam.Scope, col beam.PCollection) beam.PCollection {
	return beam.GroupByKey(s, beam.AddFixedKey(s, col))
}

// fitReadFn reads the training rows of a file by byte ranges, as
// predictFn reads new points, without a model: the columns take their
// roles from the options.
type fitReadFn struct {
	Opt ReadOptions
}

func (fn *fitReadFn) CreateInitialRestriction(h FileHead) offsetrange.Restriction {
	return (&predictFn{}).CreateInitialRestriction(h)
}

func (fn *fitReadFn) SplitRestriction(h FileHead, rest offsetrange.Restriction) []offsetrange.Restriction {
	return (&predictFn{Opt: fn.Opt}).SplitRestriction(h, rest)
}

func (fn *fitReadFn) RestrictionSize(h FileHead, rest offsetrange.Restriction) float64 {
	return (&predictFn{}).RestrictionSize(h, rest)
}

func (fn *fitReadFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (fn *fitReadFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, h FileHead, emit func(TrainRows)) error {
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	err := readRange(ctx, rt, h, fn.Opt, pipeline.Stream, pipeline.StreamPart, trainRows, func(r TrainRows, pos int64) {
		r.File, r.Pos = h.Path, pos
		emit(r)
	})
	if !dataError(err) {
		return err
	}
	// The range's rows before the error are emitted; the error orders
	// by the range's first byte (one error a range).
	endRange(rt)
	emit(TrainRows{File: h.Path, Pos: start, Err: err.Error()})
	return nil
}

// parquetFitFn reads the training rows of one Parquet row group (columns
// by name as for delimited text: ReadParquet); a chunk's Pos is its first
// row in the file.
type parquetFitFn struct {
	Opt ReadOptions
}

func (fn *parquetFitFn) ProcessElement(ctx context.Context, g RowGroup, emit func(TrainRows)) error {
	if err := fn.read(ctx, g, emit); dataError(err) {
		emit(TrainRows{File: g.Path, Pos: g.First, Err: err.Error()})
	} else if err != nil {
		return err
	}
	return nil
}

func (fn *parquetFitFn) read(ctx context.Context, g RowGroup, emit func(TrainRows)) error {
	if g.Err != "" {
		return errors.New(g.Err)
	}
	r, c, err := openParquet(ctx, g.Path, g.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	return ReadParquet(ctx, r, g, fn.Opt.CSV, fn.Opt.chunk(), pipeline.StreamPart, func(ds *dataset.Dataset, first int64) error {
		if len(ds.Missing) > 0 {
			return missingError(ds, g, first, "arbor-beam fit cannot use them; fill or drop those cells")
		}
		t, err := trainRows(ds)
		if err != nil {
			return fmt.Errorf("%s: row group %d: %w", g.Path, g.Index, err)
		}
		t.File, t.Pos = g.Path, first
		emit(t)
		return nil
	})
}

// trainRows keeps a chunk's rows, class names and lines. Missing values
// and a file without a label column are errors.
func trainRows(ds *dataset.Dataset) (TrainRows, error) {
	if err := ds.MissingError("arbor-beam fit", "fill or drop those cells"); err != nil {
		return TrainRows{}, err
	}
	if ds.LabelName == "" && ds.Y != nil && len(ds.Classes) == 0 {
		return TrainRows{}, fmt.Errorf("%s: no label column: give --label", ds.Name)
	}
	n, d := ds.X.Dims()
	r := TrainRows{D: d, X: make([]float64, 0, n*d), Labels: make([]string, n),
		Features: ds.Features, LabelName: ds.LabelName, IDName: ds.IDName}
	for i := 0; i < n; i++ {
		r.X = append(r.X, ds.X.RawRowView(i)...)
		if c := ds.Y[i]; c >= 0 {
			r.Labels[i] = ds.Classes[c]
		}
	}
	return r, nil
}

func countTrainRows(r TrainRows, emit func(string, chunkCount)) {
	if r.Err == "" {
		emit(r.File, chunkCount{Pos: r.Pos, N: int64(len(r.Labels))})
	}
}

// fileRowsOf is where each chunk of a file starts in its rows, and the
// file's number of rows.
type fileRowsOf struct {
	File  string
	Rows  FileRows
	Total int64
}

func toFileRowsOf(file string, counts func(*chunkCount) bool) fileRowsOf {
	var cs []chunkCount
	var c chunkCount
	for counts(&c) {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Pos < cs[j].Pos })
	f := fileRowsOf{File: file, Rows: FileRows{Pos: make([]int64, len(cs)), Start: make([]int64, len(cs))}}
	for i, c := range cs {
		f.Rows.Pos[i], f.Rows.Start[i] = c.Pos, f.Total
		f.Total += c.N
	}
	return f
}

// layoutOf numbers the files' rows, the files in the order of their names.
func layoutOf(_ int, iter func(*fileRowsOf) bool) Layout {
	var all []fileRowsOf
	var f fileRowsOf
	for iter(&f) {
		if f.File != "" {
			all = append(all, f)
		}
		f = fileRowsOf{}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].File < all[j].File })
	var l Layout
	for _, f := range all {
		l.Files = append(l.Files, f.File)
		l.Offset = append(l.Offset, l.N)
		l.Pos = append(l.Pos, f.Rows.Pos)
		l.Start = append(l.Start, f.Rows.Start)
		l.N += f.Total
	}
	return l
}

// first returns the row number of chunk (file, pos) in all files.
func (l Layout) first(file string, pos int64) (int64, error) {
	f := sort.SearchStrings(l.Files, file)
	if f == len(l.Files) || l.Files[f] != file {
		return 0, fmt.Errorf("internal error: file %s not in the layout", file)
	}
	c := sort.Search(len(l.Pos[f]), func(i int) bool { return l.Pos[f][i] >= pos })
	if c == len(l.Pos[f]) || l.Pos[f][c] != pos {
		return 0, fmt.Errorf("internal error: chunk %s@%d not in the layout", file, pos)
	}
	return l.Offset[f] + l.Start[f][c], nil
}

// piecesFn cuts a chunk at block boundaries and keys each piece by its
// block. It checks the values' magnitude against the limit of all rows,
// as arbor classify does. A data error (a record's, or a value too
// large) goes to block 0 as a piece of its own.
type piecesFn struct{}

func (fn *piecesFn) ProcessElement(r TrainRows, l Layout, emit func(int, Block)) error {
	if r.Err != "" {
		emit(0, Block{Errs: []DataErr{{File: r.File, Pos: r.Pos, Text: r.Err}}})
		return nil
	}
	first, err := l.first(r.File, r.Pos)
	if err != nil {
		return err
	}
	n := len(r.Labels)
	limit := dataset.MagnitudeLimit(r.D, int(l.N))
	for i, v := range r.X {
		if math.Abs(v) > limit {
			// The chunk's lines are counted from its byte range: name the
			// row by its number in the file.
			row, j := i/r.D, i%r.D
			inFile := first - l.Offset[sort.SearchStrings(l.Files, r.File)] + int64(row)
			err := &dataset.ParseError{File: r.File, Column: r.Features[j],
				Err: fmt.Errorf("row %d (counting from 0): %w: %g: sums of squares of such values overflow float64 (limit ±%.3g here); rescale that column or drop it (--ignore)", inFile, dataset.ErrMagnitude, v, limit)}
			emit(0, Block{Errs: []DataErr{{File: r.File, Pos: r.Pos, Text: err.Error()}}})
			break
		}
	}
	for lo := 0; lo < n; {
		g := first + int64(lo)
		b := int(g / BlockRows)
		hi := min(n, lo+int(int64(b+1)*BlockRows-g))
		emit(b, Block{Index: b, First: g, D: r.D, X: r.X[lo*r.D : hi*r.D], Labels: r.Labels[lo:hi],
			Features: r.Features, LabelName: r.LabelName, IDName: r.IDName})
		lo = hi
	}
	return nil
}

// assembleBlock puts a block's pieces together in row order.
func assembleBlock(b int, pieces func(*Block) bool, l Layout) (Block, error) {
	var ps []Block
	var errs []DataErr
	var p Block
	for pieces(&p) {
		if len(p.Errs) > 0 {
			errs = append(errs, p.Errs...)
		} else {
			ps = append(ps, p)
		}
		p = Block{}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].First < ps[j].First })
	lo, hi := parallel.Block(b, int(l.N))
	out := Block{Index: b, First: int64(lo), Errs: errs}
	if len(errs) > 0 {
		return out, nil // the stats refuse the fit: the rows are not used
	}
	out.D, out.Features, out.LabelName, out.IDName = ps[0].D, ps[0].Features, ps[0].LabelName, ps[0].IDName
	for _, p := range ps {
		if p.First != out.First+int64(len(out.Labels)) {
			return Block{}, fmt.Errorf("internal error: block %d: a piece at row %d after row %d", b, p.First, out.First+int64(len(out.Labels)))
		}
		if p.D != out.D || !equalStrings(p.Features, out.Features) || p.LabelName != out.LabelName || p.IDName != out.IDName {
			return Block{}, fmt.Errorf("the training files do not have the same columns: features %v, label %q, ID %q and features %v, label %q, ID %q",
				out.Features, out.LabelName, out.IDName, p.Features, p.LabelName, p.IDName)
		}
		out.X = append(out.X, p.X...)
		out.Labels = append(out.Labels, p.Labels...)
	}
	if len(out.Labels) != hi-lo {
		return Block{}, fmt.Errorf("internal error: block %d has %d rows, want %d", b, len(out.Labels), hi-lo)
	}
	return out, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// matrix is the block's raw features.
func (b Block) matrix() *mat.Dense { return mat.NewDense(b.rows(), b.D, b.X) }

// scaled is the block's features scaled by sc.
func (b Block) scaled(sc *dataset.Scaler) (*mat.Dense, error) {
	return sc.Transform(nil, b.matrix())
}

// classes returns the block's class indices in st.Classes (−1 unlabelled).
func (b Block) classes(st Stats) []int {
	index := make(map[string]int, len(st.Classes))
	for i, c := range st.Classes {
		index[c] = i
	}
	y := make([]int, b.rows())
	for i, name := range b.Labels {
		y[i] = -1
		if name != "" {
			y[i] = index[name]
		}
	}
	return y
}

// blockStatsFn sums one block's part of Stats.
type blockStatsFn struct{}

func (fn *blockStatsFn) ProcessElement(b Block) blockStats {
	bs := blockStats{Index: b.Index, N: b.rows(), D: b.D, Features: b.Features, LabelName: b.LabelName, IDName: b.IDName,
		Sums: dataset.NewScalerSums(b.D), Errs: b.Errs}
	if len(b.Errs) > 0 {
		return bs
	}
	seen := map[string]bool{}
	for i, name := range b.Labels {
		if name == "" {
			continue
		}
		bs.Labelled = append(bs.Labelled, b.First+int64(i))
		if !seen[name] {
			seen[name] = true
			bs.Names = append(bs.Names, name)
		}
	}
	bs.Sums.Add(b.matrix())
	return bs
}

// statsFn merges the blocks' stats in block order.
type statsFn struct{}

func (fn *statsFn) ProcessElement(_ int, iter func(*blockStats) bool) (Stats, error) {
	all, err := inOrder(iter, "the rows")
	if err != nil {
		return Stats{}, err
	}
	var errs []DataErr
	for _, b := range all {
		errs = append(errs, b.Errs...)
	}
	if len(errs) > 0 {
		return Stats{Refusal: firstErr(errs)}, nil
	}
	if len(all) == 0 {
		return Stats{}, fmt.Errorf("no rows")
	}
	st := Stats{D: all[0].D, Features: all[0].Features, LabelName: all[0].LabelName, IDName: all[0].IDName, Sums: dataset.NewScalerSums(all[0].D)}
	var names []string
	for _, b := range all {
		st.N += b.N
		st.Sums.Merge(b.Sums)
		names = append(names, b.Names...)
		for _, i := range b.Labelled {
			st.Labelled = append(st.Labelled, int(i))
		}
	}
	st.Classes = dataset.SortClasses(names)
	switch {
	case len(st.Labelled) == 0:
		st.Refusal = "no labelled rows: the fit needs some"
	case len(st.Classes) < 2:
		st.Refusal = fmt.Sprintf("one class (%s) among the labelled rows: want two or more", st.Classes[0])
	}
	return st, nil
}

// squaresFn is a block's part of the squared deviations of "std".
type squaresFn struct {
	Scale string
}

func (fn *squaresFn) ProcessElement(b Block, st Stats) blockVec {
	if fn.Scale != "std" || st.Refusal != "" {
		return blockVec{Index: b.Index}
	}
	return blockVec{Index: b.Index, V: dataset.SquaredDeviations(b.matrix(), st.Sums.Means())}
}

// scalerFn fits the scaler from the stats and the blocks' squares.
type scalerFn struct {
	Scale string
}

func (fn *scalerFn) ProcessElement(_ int, iter func(*blockVec) bool, st Stats) (dataset.Scaler, error) {
	if st.Refusal != "" {
		return dataset.Scaler{}, nil
	}
	parts, err := inOrder(iter, "the squared deviations")
	if err != nil {
		return dataset.Scaler{}, err
	}
	var ss []float64
	if fn.Scale == "std" {
		ss = make([]float64, st.D)
		for _, p := range parts {
			for j, v := range p.V {
				ss[j] += v
			}
		}
	}
	sc, err := dataset.FitScalerSums(fn.Scale, st.Sums, ss)
	if err != nil {
		return dataset.Scaler{}, err
	}
	return *sc, nil
}

// chooseFn chooses the landmarks as the core does (landmark.ChooseRows:
// the labelled rows when fewer than M, the rest by k-means on a sample or
// at random), reading the rows it needs from the blocks, scaled. Settings
// it refuses, or the stats' refusal, are its result (see refused).
type chooseFn struct {
	Set FitSettings
	K   int
}

func (fn *chooseFn) ProcessElement(ctx context.Context, st Stats, sc dataset.Scaler, blocks func() func(*Block) bool) anchorInput {
	if st.Refusal != "" {
		return anchorInput{Refusal: st.Refusal}
	}
	in, err := fn.choose(ctx, st, sc, blocks)
	if err != nil {
		return anchorInput{Refusal: err.Error()}
	}
	return in
}

func (fn *chooseFn) choose(ctx context.Context, st Stats, sc dataset.Scaler, blocks func() func(*Block) bool) (anchorInput, error) {
	if fn.Set.Landmarks > st.N {
		return anchorInput{}, fmt.Errorf("--landmarks %d: more than the %d rows", fn.Set.Landmarks, st.N)
	}
	if err := fn.Set.anchorGraph(st.N, st.D); err != nil {
		return anchorInput{}, err
	}
	fetch := func(idx []int) (*mat.Dense, error) { return fetchRows(blocks, &sc, idx, st.D) }
	lm, _, err := landmark.ChooseRows(ctx, st.N, fn.Set.Landmarks, fn.Set.method(), fn.Set.Seed, st.Labelled, fetch)
	if err != nil {
		return anchorInput{}, err
	}
	A, err := fetch(lm)
	if err != nil {
		return anchorInput{}, err
	}
	in := anchorInput{N: st.N, Rows: lm, M: len(lm), D: st.D, Anchors: A.RawMatrix().Data}
	if fn.K > 0 {
		Q, err := fetch(propagate.RadiusRows(st.N))
		if err != nil {
			return anchorInput{}, err
		}
		in.Q = Q.RawMatrix().Data
	}
	return in, nil
}

// fetchRows returns the scaled rows idx (ascending) of the blocks, in
// that order: one pass over the blocks.
func fetchRows(blocks func() func(*Block) bool, sc *dataset.Scaler, idx []int, d int) (*mat.Dense, error) {
	out := mat.NewDense(max(len(idx), 1), d, nil)
	if len(idx) == 0 {
		return &mat.Dense{}, nil
	}
	found := 0
	it := blocks()
	var b Block
	for it(&b) {
		lo, hi := int(b.First), int(b.First)+b.rows()
		a := sort.SearchInts(idx, lo)
		for ; a < len(idx) && idx[a] < hi; a++ {
			i := idx[a] - lo
			row := mat.NewDense(1, d, append([]float64(nil), b.X[i*d:i*d+d]...))
			if _, err := sc.Transform(row, row); err != nil {
				return nil, err
			}
			out.SetRow(a, row.RawRowView(0))
			found++
		}
	}
	if found != len(idx) {
		return nil, fmt.Errorf("internal error: %d of %d rows found in the blocks", found, len(idx))
	}
	return out, nil
}

// radiusFn is a block's part of KNNRadius (propagate.RadiusPart).
type radiusFn struct {
	K int
}

func (fn *radiusFn) ProcessElement(ctx context.Context, b Block, sc dataset.Scaler, in anchorInput) (blockVec, error) {
	queries := func() (*mat.Dense, error) { return mat.NewDense(len(in.Q)/in.D, in.D, in.Q), nil }
	return onBlock(in.Refusal, b, sc, queries, func(Q, X *mat.Dense) (blockVec, error) {
		p, err := propagate.RadiusPart(ctx, Q, X, min(fn.K, in.N))
		return blockVec{Index: b.Index, V: p}, err
	})
}

// widthSumFn is a block's part of the paper's width.
type widthSumFn struct {
	Set FitSettings
}

func (fn *widthSumFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, in anchorInput) (blockVec, error) {
	build := func() (*propagate.AnchorParts, error) { return fn.Set.parts(st, in, width{}) }
	return onBlock(in.Refusal, b, sc, build, func(p *propagate.AnchorParts, X *mat.Dense) (blockVec, error) {
		v, err := p.WidthSum(ctx, X)
		return blockVec{Index: b.Index, V: []float64{v}}, err
	})
}

// widthFn gives the anchor graph's σ from the knn:K radius (K > 0), or
// the sum of the paper's width.
type widthFn struct {
	K int
}

func (fn *widthFn) ProcessElement(_ int, iter func(*blockVec) bool, st Stats, in anchorInput) (width, error) {
	if in.Refusal != "" {
		return width{}, nil
	}
	parts, err := inOrder(iter, "the width")
	if err != nil {
		return width{}, err
	}
	switch {
	case fn.K > 0:
		vs := make([][]float64, len(parts))
		for i, p := range parts {
			vs[i] = p.V
		}
		r, err := propagate.RadiusOf(vs, len(propagate.RadiusRows(st.N)), min(fn.K, st.N))
		return width{Sigma: r, Known: true}, err
	}
	sum := 0.0
	for _, p := range parts {
		sum += p.V[0]
	}
	return width{Sum: sum, Known: true}, nil
}

// sigmaFn gives the anchor graph's σ when the settings fix it. It runs on
// the landmarks' step's one output, so that it runs only after that step:
// a step fed by an element of its own would run, and fail on its missing
// side inputs, while a failed job is being torn down, and that later
// failure would be the job's reported error.
type sigmaFn struct {
	Set FitSettings
}

func (fn *sigmaFn) ProcessElement(in anchorInput) (width, error) {
	plan, err := fn.Set.Plan()
	if err != nil || in.Refusal != "" {
		return width{}, err
	}
	return width{Sigma: plan.Graph.Sigma, Known: true}, nil
}

// parts rebuilds the fit in parts from the anchors and the width.
func (f FitSettings) parts(st Stats, in anchorInput, w width) (*propagate.AnchorParts, error) {
	plan, err := f.Plan()
	if err != nil {
		return nil, err
	}
	g := plan.Graph
	if plan.K > 0 {
		g.Sigma = w.Sigma
	}
	p, err := g.Parts(mat.NewDense(in.M, in.D, in.Anchors), len(st.Classes))
	if err != nil {
		return nil, err
	}
	if p.NeedsWidth() && w.Known {
		p.SetWidth(w.Sum, st.N)
	}
	return p, nil
}

// sumsFn is a block's part of the anchor graph's sums.
type sumsFn struct {
	Set FitSettings
}

func (fn *sumsFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, in anchorInput, w width) (blockSums, error) {
	build := func() (*propagate.AnchorParts, error) { return fn.Set.parts(st, in, w) }
	return onBlock(in.Refusal, b, sc, build, func(p *propagate.AnchorParts, X *mat.Dense) (blockSums, error) {
		sums, err := p.Sums(ctx, X, b.classes(st))
		if err != nil {
			return blockSums{}, err
		}
		return blockSums{Index: b.Index, Sums: *sums}, nil
	})
}

// solveFn adds the blocks' sums in block order and solves the system.
type solveFn struct {
	Set FitSettings
}

func (fn *solveFn) ProcessElement(_ int, iter func(*blockSums) bool, st Stats, in anchorInput, w width) (solved, error) {
	if in.Refusal != "" {
		return solved{Refusal: in.Refusal}, nil
	}
	all, err := inOrder(iter, "the anchor graph's sums")
	if err != nil {
		return solved{}, err
	}
	parts, err := fn.Set.parts(st, in, w)
	if err != nil {
		return solved{}, err
	}
	sums := parts.NewSums()
	for _, b := range all {
		if err := sums.Merge(&b.Sums); err != nil {
			return solved{}, err
		}
	}
	am, err := parts.Solve(sums)
	if err != nil {
		return solved{}, err
	}
	var buf bytes.Buffer
	if err := am.Save(&buf); err != nil {
		return solved{}, err
	}
	return solved{Model: buf.Bytes()}, nil
}

// transFn is a block's part of the transduction.
type transFn struct{}

func (fn *transFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, m solved) (blockTrans, error) {
	load := func() (*propagate.AnchorModel, error) { return propagate.LoadAnchor(bytes.NewReader(m.Model)) }
	return onBlock(m.Refusal, b, sc, load, func(am *propagate.AnchorModel, X *mat.Dense) (blockTrans, error) {
		y := b.classes(st)
		labels, reached, err := am.BlockTransduction(ctx, X, y)
		return blockTrans{Index: b.Index, Labels: labels, Reached: reached, Y: y}, err
	})
}

// finishFn completes the model with the transduction of all rows and
// writes the pipeline.
type finishFn struct {
	Set  FitSettings
	Out  Output
	Name string
}

func (fn *finishFn) ProcessElement(ctx context.Context, _ int, iter func(*blockTrans) bool, st Stats, sc dataset.Scaler, m solved) (Written, error) {
	if err := refused(m.Refusal); err != nil {
		return Written{}, err
	}
	all, err := inOrder(iter, "the transduction")
	if err != nil {
		return Written{}, err
	}
	var labels, y []int
	var reached []bool
	for _, b := range all {
		labels, reached, y = append(labels, b.Labels...), append(reached, b.Reached...), append(y, b.Y...)
	}
	plan, err := fn.Set.Plan()
	if err != nil {
		return Written{}, err
	}
	am, err := propagate.LoadAnchor(bytes.NewReader(m.Model))
	if err != nil {
		return Written{}, err
	}
	if err := am.SetTransduction(labels, reached, y, plan.Graph.Unreachable); err != nil {
		return Written{}, err
	}
	ds := &dataset.Dataset{Features: st.Features, Classes: st.Classes, LabelName: st.LabelName, IDName: st.IDName}
	p, err := pipeline.NewLandmarks(ds, &sc, kernel.Spec{}, 0, nil, am)
	if err != nil {
		return Written{}, err
	}
	err = writeRaw(ctx, fn.Out.Temp+"/"+fn.Name, func(w io.Writer) error { return p.Save(w) })
	return Written{Name: fn.Name}, err
}

// ModelOutput returns the Output and the file name for a model file at
// path: written in a temporary directory beside it, moved by Finalize.
func ModelOutput(p string) (Output, string) {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	return NewOutput(dir), name
}
