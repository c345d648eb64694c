package arborbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
)

// EvalJob is what an eval job reads and runs, the settings of arbor
// eval's flags: the data and how they are read and prepared, the kernels,
// the learners and their settings, the metric and the landmarks. It
// travels to the workers as JSON; each worker reads the data once
// (LoadEvalData) and rebuilds the kernels and learners from it.
type EvalJob struct {
	// Data is a data file (any Beam filesystem) or an embedded set's name.
	Data string
	CSV  dataset.CSVOptions
	Prep dataset.Prep
	// Kernels are kernel specs as kernel.ParseSpec reads them (the
	// --kernel list, expanded with its parameter flags).
	Kernels []string
	// Learner is the --learner list; Params every learner flag's value as
	// text (a flag left out takes its registered default); Seed the
	// command's --seed.
	Learner string
	Params  map[string]string
	Seed    uint64
	// Metric is "accuracy" ("") or "bep".
	Metric         string
	Landmarks      int
	LandmarkMethod string
	Float32        bool
	// MemoryBudget (bytes, 0: unchecked) and its source, checked by each
	// cell against that cell's own need.
	MemoryBudget       int64
	MemoryBudgetSource string
}

// EvalCell is one task of the grid: a kernel (an index into
// EvalJob.Kernels, -1 for a learner that uses none), a learner (an index
// into the learners EvalJob.Learner builds, or its scorers for bep) and a
// split (its index and labelled rows). Order is the cell's place in
// arbor eval's output.
type EvalCell struct {
	Order   int
	Kernel  int
	Learner int
	Split   int
	Rows    []int
}

// EvalOut is a cell's results: arbor eval's records of that learner,
// kernel and split (one, or none when the learner has no landmark form on
// that kernel).
type EvalOut struct {
	Order   int
	Results []ssl.Result
	BEP     []ssl.BEPResult
}

func init() {
	register.DoFn2x2[context.Context, EvalCell, EvalOut, error](&evalCellFn{})
	register.DoFn4x1[context.Context, int, func(*EvalOut) bool, func(Written), error](&evalReportFn{})
	register.Iter1[EvalOut]()
	register.Emitter1[Written]()
	beam.RegisterType(reflect.TypeOf((*EvalCell)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*EvalOut)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*EvalJob)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*EvalReport)(nil)).Elem())
}

// values are learner.Values of EvalJob.Params over the registered
// defaults.
type values struct {
	params map[string]string
	defs   map[string]learner.Flag
	seed   uint64
}

func (j EvalJob) values() values {
	flags, _ := learner.Flags()
	defs := make(map[string]learner.Flag, len(flags))
	for _, f := range flags {
		defs[f.Name] = f
	}
	return values{params: j.Params, defs: defs, seed: j.Seed}
}

func (v values) text(name string) string {
	if s, ok := v.params[name]; ok {
		return s
	}
	return v.defs[name].Default
}

func (v values) Float(name string) float64 {
	f, _ := strconv.ParseFloat(v.text(name), 64)
	return f
}

func (v values) Int(name string) int {
	n, _ := strconv.Atoi(v.text(name))
	return n
}

func (v values) String(name string) string { return v.text(name) }
func (v values) Bool(name string) bool     { return v.text(name) == "true" }
func (v values) Seed() uint64              { return v.seed }

// Learners builds the learners EvalJob.Learner names through the
// registry, as arbor eval does (knn with k 1-5 is five). Errors wrap
// learner.ErrSettings for an unknown name or a bad setting.
func (j EvalJob) Learners() ([]learner.Learner, error) {
	v := j.values()
	var out []learner.Learner
	for _, name := range strings.Split(j.Learner, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		e, ok := learner.Lookup(name)
		if !ok {
			return nil, learner.Settingsf("--learner: unknown learner %q", name)
		}
		ls, err := e.New(strings.TrimSpace(strings.ToLower(name)), v)
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	if len(out) == 0 {
		return nil, learner.Settingsf("--learner is empty")
	}
	return out, nil
}

// Scorers builds the breakeven scorers (Metric "bep"), as arbor eval
// --metric bep does.
func (j EvalJob) Scorers() ([]ssl.SetScorer, error) {
	return ssl.SetScorers(j.Learner, j.values())
}

// Specs parses the kernel specs.
func (j EvalJob) Specs() ([]kernel.Spec, error) {
	out := make([]kernel.Spec, len(j.Kernels))
	for i, k := range j.Kernels {
		sp, err := kernel.ParseSpec(k)
		if err != nil {
			return nil, fmt.Errorf("--kernel: %w", err)
		}
		out[i] = sp
	}
	return out, nil
}

// Settings are the pipeline.EvalSettings of the whole grid (every kernel
// and learner): what arbor eval passes to pipeline.Eval or EvalBEP.
func (j EvalJob) Settings() (pipeline.EvalSettings, error) {
	specs, err := j.Specs()
	if err != nil {
		return pipeline.EvalSettings{}, err
	}
	set := pipeline.EvalSettings{Kernels: specs, Metric: j.Metric, Landmarks: j.Landmarks, LandmarkMethod: j.LandmarkMethod,
		Seed: j.Seed, Float32: j.Float32, MemoryBudget: j.MemoryBudget, MemoryBudgetSource: j.MemoryBudgetSource}
	if j.Metric == "bep" {
		set.Scorers, err = j.Scorers()
	} else {
		set.Learners, err = j.Learners()
	}
	return set, err
}

var evalData struct {
	sync.Mutex
	m map[string]*loadedData
}

// LoadEvalData reads and prepares the data of j as arbor eval does
// (dataset.Load, or the embedded set when Data names one and is no file,
// dataset.LoadEmbedded: the options of files are errors; then j.Prep), once per process and job; a file on another filesystem
// is read through a local temporary copy (LoadData).
func LoadEvalData(ctx context.Context, j EvalJob) (*dataset.Dataset, error) {
	key, _ := json.Marshal(struct {
		Data string
		CSV  dataset.CSVOptions
		Prep dataset.Prep
	}{j.Data, j.CSV, j.Prep})
	evalData.Lock()
	if evalData.m == nil {
		evalData.m = map[string]*loadedData{}
	}
	l := evalData.m[string(key)]
	if l == nil {
		l = &loadedData{}
		evalData.m[string(key)] = l
	}
	evalData.Unlock()
	l.once.Do(func() { l.ds, l.err = loadEval(ctx, j) })
	return l.ds, l.err
}

func loadEval(ctx context.Context, j EvalJob) (*dataset.Dataset, error) {
	var ds *dataset.Dataset
	var err error
	_, statErr := os.Stat(j.Data)
	switch {
	case strings.Contains(j.Data, "://") || statErr == nil:
		ds, err = loadRaw(ctx, j.Data, j.CSV)
	case errors.Is(statErr, fs.ErrNotExist) && isEmbedded(j.Data):
		ds, err = dataset.LoadEmbedded(j.Data, j.CSV)
	default:
		err = fmt.Errorf("--data %s: %w (embedded sets: %s)", j.Data, statErr, strings.Join(dataset.EmbeddedNames(), ", "))
	}
	if err != nil {
		return nil, err
	}
	if _, err := j.Prep.Apply(ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// loadRaw reads a data file as dataset.Load, a remote one through a
// local temporary copy, and refuses the options it could not follow
// (Dataset.CheckOptions: those of delimited text for LIBSVM text).
func loadRaw(ctx context.Context, file string, opt dataset.CSVOptions) (*dataset.Dataset, error) {
	ds, err := loadFile(ctx, file, opt)
	if err != nil {
		return nil, err
	}
	if err := ds.CheckOptions(opt); err != nil {
		return nil, err
	}
	return ds, nil
}

// loadFile is loadRaw's reading of the file.
func loadFile(ctx context.Context, file string, opt dataset.CSVOptions) (*dataset.Dataset, error) {
	load := func(local string) (*dataset.Dataset, error) {
		if IsParquet(file) {
			return LoadParquet(ctx, local, opt)
		}
		return dataset.Load(local, opt)
	}
	if !strings.Contains(file, "://") {
		return load(file)
	}
	dir, err := os.MkdirTemp("", "arbor-beam-data")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	local := dir + "/" + path.Base(file)
	if err := copyToLocal(ctx, file, local); err != nil {
		return nil, err
	}
	ds, err := load(local)
	if err != nil {
		return nil, fmt.Errorf("%s (copied from %s)", err, file)
	}
	ds.Name = file
	return ds, nil
}

func isEmbedded(name string) bool {
	name = strings.TrimPrefix(name, "embedded:")
	for _, e := range dataset.EmbeddedNames() {
		if e == name {
			return true
		}
	}
	return false
}

// EvalCells lays out the grid of j over splits, one cell per learner,
// kernel and split, numbered in the order arbor eval reports them:
//
//   - accuracy: split, then kernel, then learner; learners that use no
//     kernel (kNN on the points, lp on its own affinity) once per split,
//     after the kernels;
//   - landmarks: the anchor-graph learners (lp, spreading) first, each
//     over the splits; then kernel, split, learner for those on the
//     landmark features;
//   - bep: split, kernel, scorer.
func EvalCells(j EvalJob, splits [][]int) ([]EvalCell, error) {
	var cells []EvalCell
	add := func(k, l, s int) {
		cells = append(cells, EvalCell{Order: len(cells), Kernel: k, Learner: l, Split: s, Rows: splits[s]})
	}
	nk := len(j.Kernels)
	if j.Metric == "bep" {
		sc, err := j.Scorers()
		if err != nil {
			return nil, err
		}
		for s := range splits {
			for k := 0; k < nk; k++ {
				for l := range sc {
					add(k, l, s)
				}
			}
		}
		return cells, nil
	}
	ls, err := j.Learners()
	if err != nil {
		return nil, err
	}
	if j.Landmarks > 0 {
		var onFeatures []int
		for l, ln := range ls {
			_, lp := learner.As[propagate.Propagation](ln)
			_, spreading := learner.As[propagate.Spreading](ln)
			switch {
			case lp || spreading:
				for s := range splits {
					add(-1, l, s)
				}
			default:
				onFeatures = append(onFeatures, l)
			}
		}
		for k := 0; k < nk; k++ {
			for s := range splits {
				for _, l := range onFeatures {
					add(k, l, s)
				}
			}
		}
		return cells, nil
	}
	var withKernel, free []int
	for l, ln := range ls {
		if ssl.UsesKernel(learner.WithRun(ln, learner.Run{})) {
			withKernel = append(withKernel, l)
		} else {
			free = append(free, l)
		}
	}
	for s := range splits {
		for k := 0; k < nk; k++ {
			for _, l := range withKernel {
				add(k, l, s)
			}
		}
		for _, l := range free {
			add(-1, l, s)
		}
	}
	return cells, nil
}

// EvalGrid runs every cell of the grid as its own task: the cell's
// learner with its kernel on its split, through pipeline.Eval (or
// EvalBEP) on the data, read once per worker process. It returns the
// cells' EvalOut.
func EvalGrid(s beam.Scope, j EvalJob, cells beam.PCollection) beam.PCollection {
	s = s.Scope("arborbeam.EvalGrid")
	return beam.ParDo(s, &evalCellFn{Job: j}, beam.Reshuffle(s, cells))
}

type evalCellFn struct {
	Job EvalJob
}

func (fn *evalCellFn) ProcessElement(ctx context.Context, c EvalCell) (EvalOut, error) {
	ds, err := LoadEvalData(ctx, fn.Job)
	if err != nil {
		return EvalOut{}, err
	}
	set, err := fn.Job.Settings()
	if err != nil {
		return EvalOut{}, err
	}
	if c.Kernel >= 0 {
		set.Kernels = set.Kernels[c.Kernel : c.Kernel+1]
	} else {
		set.Kernels = nil
	}
	set.Log = os.Stderr
	splits := [][]int{c.Rows}
	out := EvalOut{Order: c.Order}
	if fn.Job.Metric == "bep" {
		set.Scorers = set.Scorers[c.Learner : c.Learner+1]
		res, err := pipeline.EvalBEP(ctx, set, ds, splits)
		if err != nil {
			return out, fmt.Errorf("split %d: %w", c.Split, err)
		}
		for i := range res {
			res[i].Split = c.Split
		}
		out.BEP = res
		return out, nil
	}
	set.Learners = set.Learners[c.Learner : c.Learner+1]
	res, err := pipeline.Eval(ctx, set, ds, splits)
	if err != nil {
		return out, fmt.Errorf("split %d: %w", c.Split, err)
	}
	for i := range res {
		res[i].Split = c.Split
	}
	out.Results = res
	return out, nil
}

// EvalReport says what the report's header lines name: the data set
// (its name, rows, features, classes, whether multi-label), the scaling,
// the protocol and the number of splits; BEP for the breakeven metric;
// JSON for one JSON object per result; Unreachable is the --unreachable
// setting the table's footnote names.
type EvalReport struct {
	BEP         bool
	Dataset     string
	Rows        int
	Features    int
	Classes     int
	MultiLabel  bool
	Scale       string
	Protocol    string
	Splits      int
	JSON        bool
	Unreachable string
}

// NewEvalReport fills the report's header from the prepared data set.
func NewEvalReport(ds *dataset.Dataset, metric, scale, protocol string, splits int, asJSON bool, unreachable string) EvalReport {
	return EvalReport{BEP: metric == "bep", Dataset: ds.Name, Rows: ds.Len(), Features: ds.Dim(), Classes: len(ds.Classes), MultiLabel: ds.MultiLabel(),
		Scale: scale, Protocol: protocol, Splits: splits, JSON: asJSON, Unreachable: unreachable}
}

// WriteEval gathers the cells' results in one task, puts them in arbor
// eval's order and writes arbor eval's table (or its --json lines) to
// out's file name (a temporary file, moved by Finalize).
func WriteEval(s beam.Scope, outs beam.PCollection, rep EvalReport, out Output, name string) beam.PCollection {
	s = s.Scope("arborbeam.WriteEval")
	return beam.ParDo(s, &evalReportFn{Report: rep, Out: out, Name: name}, beam.GroupByKey(s, beam.AddFixedKey(s, outs)))
}

type evalReportFn struct {
	Report EvalReport
	Out    Output
	Name   string
}

func (fn *evalReportFn) ProcessElement(ctx context.Context, _ int, outs func(*EvalOut) bool, emit func(Written)) error {
	var all []EvalOut
	var o EvalOut
	for outs(&o) {
		all = append(all, o)
		o = EvalOut{}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].Order < all[b].Order })
	var res []ssl.Result
	var bep []ssl.BEPResult
	for _, o := range all {
		res = append(res, o.Results...)
		bep = append(bep, o.BEP...)
	}
	err := writeRaw(ctx, fn.Out.Temp+"/"+fn.Name, func(w io.Writer) error {
		if fn.Report.BEP {
			return fn.Report.WriteBEP(w, bep)
		}
		return fn.Report.Write(w, res)
	})
	if err != nil {
		return err
	}
	emit(Written{Name: fn.Name})
	return nil
}

// Write writes arbor eval's output for res (in its order): one JSON
// object per result (ssl.Report.WriteJSON), or the header lines and the
// table of mean ± std accuracy per (learner, kernel) (ssl.WriteTable).
func (r EvalReport) Write(w io.Writer, res []ssl.Result) error {
	if r.JSON {
		return ssl.Report{Dataset: r.Dataset, Protocol: r.Protocol, Scale: r.Scale}.WriteJSON(w, res)
	}
	fmt.Fprintf(w, "data: %s (%d rows, %d features, %d classes), scale %s\n", r.Dataset, r.Rows, r.Features, r.Classes, r.Scale)
	fmt.Fprintf(w, "protocol: %s (%d splits); accuracy (%%) on the unlabelled rows\n\n", r.Protocol, r.Splits)
	return ssl.WriteTable(w, ssl.Summarize(res), r.Unreachable)
}

// WriteBEP writes arbor eval --metric bep's output for res (in its
// order): one JSON object per result (ssl.Report.WriteBEPJSON), or the
// header lines and the table of micro and macro breakeven per (learner,
// kernel) (ssl.WriteBEPTable).
func (r EvalReport) WriteBEP(w io.Writer, res []ssl.BEPResult) error {
	if r.JSON {
		return ssl.Report{Dataset: r.Dataset, Protocol: r.Protocol, Scale: r.Scale}.WriteBEPJSON(w, res)
	}
	kind := "single-label"
	if r.MultiLabel {
		kind = "multi-label"
	}
	fmt.Fprintf(w, "data: %s (%d rows, %d features, %d classes, %s), scale %s\n", dataset.DisplayName(r.Dataset), r.Rows, r.Features, r.Classes, kind, r.Scale)
	fmt.Fprintf(w, "protocol: %s (%d splits); precision–recall breakeven (%%) on the hidden rows,\n", r.Protocol, r.Splits)
	fmt.Fprintf(w, "micro (all row–class pairs pooled) and macro (mean over classes); lp scores z-scored per class\n\n")
	return ssl.WriteBEPTable(w, ssl.SummarizeBEP(res))
}
