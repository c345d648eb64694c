package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

func init() {
	jobs["eval"] = job{
		summary: "the semi-supervised protocol of arbor eval, one task per kernel × learner × split: the same table and --json lines",
		flags:   evalFlags,
	}
}

// evalFlags registers arbor eval's flags and returns the job's builder.
// The table (or the JSON lines) goes to --out, or to stdout when the
// workers share this machine's files (prism, direct, LOOPBACK).
func evalFlags(fs *flag.FlagSet) func(ctx context.Context, s beam.Scope) error {
	data := fs.String("data", "", "data file (delimited text, LIBSVM text, .gz; any Beam filesystem), or an embedded set: "+strings.Join(dataset.EmbeddedNames(), ", "))
	var cols columnFlags
	cols.register(fs, "ID column (name or position): never a feature",
		"label column: a header name or 1-based position (default: a column named label, class, target or y, any case)",
		"feature columns, comma-separated names, positions or ranges A..B (default: every column but the label, ID and ignored ones)")
	markers := fs.String("unlabeled-marker", "", `label cells that mark an unlabelled row, comma-separated (default "?,NA")`)
	scale := fs.String("scale", "std", "feature scaling: none, std (z-score over all rows) or minmax")
	impute := fs.String("impute", "none", "fill missing feature values before scaling: none, mean, median, most_frequent or zero")
	maxMemory := fs.String("max-memory", "", "memory budget of one task, such as 4G (default: the memory the launching machine has available); a cell that would need more stops before the work")
	landmarks := fs.Int("landmarks", 0, "use M landmark points instead of the N×N kernel matrix (as arbor eval --landmarks); 0 = exact")
	method := fs.String("landmark-method", landmark.KMeans, "how --landmarks are chosen besides the labelled rows: random or kmeans")
	kernel.AddFlags(fs, "linear")
	learnerList := fs.String("learner", "svm", "learners, comma-separated (as arbor eval --learner)")
	learnerFlags, _ := learner.Flags()
	for _, f := range learnerFlags {
		switch f.Kind {
		case learner.Float:
			v, _ := strconv.ParseFloat(f.Default, 64)
			fs.Float64(f.Name, v, f.Usage)
		case learner.Int:
			v, _ := strconv.Atoi(f.Default)
			fs.Int(f.Name, v, f.Usage)
		case learner.Bool:
			fs.Bool(f.Name, f.Default == "true", f.Usage)
		default:
			fs.String(f.Name, f.Default, f.Usage)
		}
	}
	perClass := fs.Int("labeled-per-class", 0, "labelled points drawn per class (min(N, n_c−1), as the reference pipeline)")
	repeats := fs.Int("repeats", 5, "number of random splits (seeds S, S+1, …)")
	seed := fs.Uint64("seed", 0, "first seed (NumPy RandomState-compatible: the peer's splits); also the landmarks'")
	splitsPath := fs.String("splits", "", "file of splits: one line of comma-separated 0-based labelled row indices per split; or usps:10 / usps:100")
	splitLine := fs.Int("split-line", 0, "use only this line (1-based) of --splits; 0 = all lines")
	asJSON := fs.Bool("json", false, "print one JSON object per method and split instead of the table")
	quiet := fs.Bool("quiet", false, "no notes on stderr")
	metric := fs.String("metric", "accuracy", "accuracy, or bep: micro/macro precision–recall breakeven from class scores (knn, lp)")
	f32 := fs.Bool("float32", false, "build the kernel matrices in float32 storage")
	out := fs.String("out", "", "file for the table (or the JSON lines), on any Beam filesystem; default: stdout, for runners whose workers write this machine's files (prism, direct, LOOPBACK)")
	return func(ctx context.Context, s beam.Scope) error {
		if *data == "" {
			return usagef("--data is required")
		}
		if *metric != "accuracy" && *metric != "bep" {
			return usagef("--metric must be accuracy or bep, got %q", *metric)
		}
		csv, err := cols.options()
		if err != nil {
			return err
		}
		csv.LabelOptional = false
		if *markers != "" {
			csv.Unlabeled = strings.Split(*markers, ",")
			for i, m := range csv.Unlabeled {
				if strings.EqualFold(strings.TrimSpace(m), "empty") {
					csv.Unlabeled[i] = ""
				}
			}
		}
		specs, err := kernelSpecs(fs, fs.Lookup("kernel").Value.String())
		if err != nil {
			return err
		}
		params := map[string]string{}
		for _, f := range learnerFlags {
			params[f.Name] = fs.Lookup(f.Name).Value.String()
		}
		j := arborbeam.EvalJob{Data: *data, CSV: csv,
			Prep:    dataset.Prep{Impute: *impute, Scale: *scale, MultiLabel: *metric == "bep", Method: "arbor eval", MissingHint: "--impute mean (or median, most_frequent, zero) fills them"},
			Kernels: specs, Learner: *learnerList, Params: params, Seed: *seed, Metric: *metric,
			Landmarks: *landmarks, LandmarkMethod: *method, Float32: *f32}
		if *maxMemory != "" {
			if j.MemoryBudget, err = memory.ParseSize(*maxMemory); err != nil {
				return usagef("--max-memory %q: %v", *maxMemory, err)
			}
			j.MemoryBudgetSource = "--max-memory"
		} else if b := memory.Available(); b > 0 {
			j.MemoryBudget, j.MemoryBudgetSource = b, "available memory; --max-memory to change"
		}
		set, err := j.Settings()
		if errors.Is(err, learner.ErrSettings) {
			return usagef("%v", err)
		}
		if err != nil {
			return err
		}
		if err := set.Check(); err != nil {
			return usagef("%v", err)
		}
		ds, err := arborbeam.LoadEvalData(ctx, j)
		if errors.Is(err, dataset.ErrOption) {
			return usagef("%v", err)
		}
		if err != nil {
			return err
		}
		if err := ds.CheckTwoClasses(); err != nil {
			return err
		}
		if u := ds.UnlabeledRows(); len(u) > 0 {
			return fmt.Errorf("%s: eval needs every row labelled to score the hidden ones; %d rows are unlabelled (first: data row %d, counting from 0 after the header)", ds.Name, len(u), u[0])
		}
		splits, protocol, err := evalSplits(ds, *splitsPath, *splitLine, *perClass, *repeats, *seed, *quiet)
		if err != nil {
			return err
		}
		cells, err := arborbeam.EvalCells(j, splits)
		if err != nil {
			return err
		}
		if !*quiet {
			fmt.Fprintf(os.Stderr, "eval: %d cells (kernel × learner × split), one task each\n", len(cells))
		}
		rep := arborbeam.NewEvalReport(ds, *metric, *scale, protocol, len(splits), *asJSON, params["unreachable"])
		var o arborbeam.Output
		var name string
		if *out != "" {
			o, name = arborbeam.ModelOutput(*out)
		} else {
			dir, err := os.MkdirTemp("", "arbor-beam-eval")
			if err != nil {
				return err
			}
			o, name = arborbeam.ModelOutput(filepath.Join(dir, "eval.txt"))
			afterRun = append(afterRun, func() error {
				defer os.RemoveAll(dir)
				f, err := os.Open(filepath.Join(dir, "eval.txt"))
				if err != nil {
					return fmt.Errorf("reading the table the job wrote: %w (give --out when the workers do not share this machine's files)", err)
				}
				defer f.Close()
				_, err = io.Copy(os.Stdout, f)
				return err
			})
		}
		elems := make([]any, len(cells))
		for i, c := range cells {
			elems[i] = c
		}
		outs := arborbeam.EvalGrid(s, j, beam.Create(s, elems...))
		arborbeam.Finalize(s, arborbeam.WriteEval(s, outs, rep, o, name), o)
		return nil
	}
}

// kernelSpecs expands the --kernel list with the parameter flags
// (kernel.Expand) and checks each spec, as arbor eval does; a parameter
// flag no listed kernel reads is a usage error.
func kernelSpecs(fs *flag.FlagSet, list string) ([]string, error) {
	var out []string
	pv := paramValues{fs: fs, used: map[string]bool{}}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		text, err := kernel.Expand(name, pv)
		if err != nil {
			return nil, usagef("%v", err)
		}
		if _, err := kernel.ParseSpec(text); err != nil {
			return nil, usagef("--kernel: %v", err)
		}
		out = append(out, text)
	}
	if len(out) == 0 {
		return nil, usagef("--kernel is empty")
	}
	var unused error
	fs.Visit(func(f *flag.Flag) {
		if unused == nil && kernel.IsParam(f.Name) && !pv.used[f.Name] {
			unused = usagef("--%s has no effect on --kernel %s", f.Name, list)
		}
	})
	return out, unused
}

// paramValues reads the kernel parameter flags for kernel.Expand and
// records which ones were read.
type paramValues struct {
	fs   *flag.FlagSet
	used map[string]bool
}

func (v paramValues) text(name string) string {
	v.used[name] = true
	return v.fs.Lookup(name).Value.String()
}

func (v paramValues) Float(name string) float64 {
	f, err := strconv.ParseFloat(v.text(name), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func (v paramValues) Int(name string) int {
	n, _ := strconv.Atoi(v.text(name))
	return n
}

func (v paramValues) String(name string) string { return v.text(name) }

// evalSplits are arbor eval's splits: a file's lines (or one of them), or
// per-class draws with seeds seed, seed+1, …; protocol describes them.
func evalSplits(ds *dataset.Dataset, splitsPath string, splitLine, perClass, repeats int, seed uint64, quiet bool) ([][]int, string, error) {
	var splits [][]int
	var protocol string
	var err error
	switch {
	case splitsPath != "" && perClass > 0:
		return nil, "", usagef("--splits and --labeled-per-class are mutually exclusive")
	case splitsPath != "":
		if splits, err = readSplits(splitsPath, ds.Len()); err != nil {
			return nil, "", err
		}
		if splitLine < 0 || splitLine > len(splits) {
			return nil, "", usagef("--split-line %d: %s has %d lines", splitLine, splitsPath, len(splits))
		}
		protocol = "splits " + splitsPath
		if splitLine > 0 {
			splits = splits[splitLine-1 : splitLine]
			protocol += fmt.Sprintf(" line %d", splitLine)
		}
	case perClass > 0:
		if repeats < 1 {
			return nil, "", usagef("--repeats must be ≥ 1")
		}
		if seed+uint64(repeats) > math.MaxUint32+1 {
			return nil, "", usagef("--seed must leave room for the repeats below 2³²")
		}
		if splits, err = ssl.PerClassSplits(ds.Y, perClass, repeats, seed); err != nil {
			return nil, "", err
		}
		protocol = fmt.Sprintf("%d labelled per class, seeds %d..%d", perClass, seed, seed+uint64(repeats)-1)
		for _, c := range ssl.Singletons(ds.Y, len(ds.Classes)) {
			if !quiet {
				fmt.Fprintf(os.Stderr, "warning: class %q has a single row: it gets no labelled point and its row counts as an error\n", ds.Classes[c])
			}
		}
	default:
		return nil, "", usagef("give --labeled-per-class N or --splits FILE")
	}
	for s, l := range splits {
		if err := ssl.SplitClasses(l, ds.Y, ds.Classes); err != nil {
			which := fmt.Sprintf("split %d (seed %d)", s, seed+uint64(s))
			if splitsPath != "" {
				which = fmt.Sprintf("split %d of %s", s, splitsPath)
			}
			return nil, "", fmt.Errorf("%s, %s: %w", ds.Name, which, err)
		}
	}
	return splits, protocol, nil
}

// readSplits reads a file of splits (dataset.ReadSplits), or the embedded
// splits NAME:LABELLED (usps:10).
func readSplits(path string, n int) ([][]int, error) {
	if name, lab, ok := strings.Cut(path, ":"); ok && !strings.Contains(path, "/") {
		if _, err := os.Stat(path); err != nil {
			k, err := strconv.Atoi(lab)
			if err != nil {
				return nil, usagef("--splits %s: want NAME:LABELLED, e.g. usps:100", path)
			}
			return dataset.EmbeddedSplits(name, k)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dataset.ReadSplits(f, path, n)
}
