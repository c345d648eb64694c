package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/gzfile"
	"github.com/arbor-ml/arbor/internal/progress"
	"github.com/arbor-ml/arbor/pipeline"
)

func init() {
	register(command{name: "features", summary: "the landmark features z(x) of any rows under a model saved by classify --landmarks M --save-model, streaming", run: runFeatures})
}

func runFeatures(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "features", "--model lm.arbor --data points.csv [--out Z.csv|Z.npy]")
	var d dataFlags
	registerStreamedData(fs, &d, "never a feature, not read")
	model := fs.String("model", "", "landmark pipeline file written by arbor classify --landmarks M --save-model (a point, cluster, ISOMAP or multitype kernel's feature map); - is standard input")
	out := fs.String("out", "-", "write the features to this file: .npy (NumPy float64, rows × r, no IDs; a regular file) or CSV (row[,id],z1,…,zr; one row per input row, in order); - is standard output (CSV)")
	chunk := fs.Int("chunk", pipeline.DefaultChunk, "rows read at a time, rounded up to a multiple of 4096 (memory: chunk × landmarks kernel values)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return predictFlagError(err)
	}
	format := dataset.MatrixCSV
	if *out != "-" && *out != "" {
		if f, err := dataset.MatrixFormatOf(*out, false); err == nil {
			format = f
		}
	}
	p, err := loadStreamed(e, *model, d.Path, *out, *chunk)
	if err != nil {
		return err
	}
	if err := p.CheckFeatures(); err != nil {
		return fmt.Errorf("%s: %w", dataset.InputName(*model), err)
	}
	opt, check, explain, err := streamedReading(p, d, "arbor features")
	if err != nil {
		return err
	}
	stream := pipeline.FeatureStream{Chunk: *chunk, Format: format, Check: check}
	if !*quiet {
		stream.Progress = progress.RowsDone(e.stderr, "features", "mapped", time.Now())
	}
	if err := p.LandmarkFeaturesFile(ctx, d.Path, *out, e.stdin, e.stdout, opt, stream, explain); err != nil {
		if errors.Is(err, pipeline.ErrNoMap) {
			return fmt.Errorf("%s: %w", dataset.InputName(*model), err)
		}
		return err
	}
	if !*quiet && *out != "-" && *out != "" {
		fmt.Fprintf(e.stderr, "wrote    %s\n", *out)
	}
	return nil
}

// streamedDataUsage documents --data of the commands that read a file of
// points in chunks (predict, features).
var streamedDataUsage = "file of points (delimited text: comma, tab, semicolon or blank separated, header optional; .gz ok; - is standard input, gzip or not), read in chunks (not LIBSVM text), or an embedded set kept as delimited text: " + strings.Join(dataset.EmbeddedDelimited(), ", ")

// registerStreamedData registers the data flags of the commands that read
// new points in chunks under a saved model (predict, features): no --scale
// or --impute, since the model carries its scaling and imputation; label
// says what the command does with the label column.
func registerStreamedData(fs *flag.FlagSet, d *dataFlags, label string) {
	d.register(fs, "none", "scale", "impute")
	for name, usage := range map[string]string{
		"data":     streamedDataUsage,
		"label":    "label column (name or 1-based position, or none): " + label + " (default: the model's label column, skipped when the file has it)",
		"id":       "ID column (name or position): never a feature, carried into the output (default: the model's ID column, classify --id, when the file has it)",
		"features": "feature columns, comma-separated names, positions or ranges A..B (default: the model's features, matched by name in any order; no other column is read)",
		"ignore":   "columns to skip, comma-separated names or positions (without --features, every column that is not one of the model's features is skipped anyway)",
	} {
		fs.Lookup(name).Usage = usage
	}
}

// loadStreamed checks the flags predict and features share (--model and
// --data given, --chunk positive, no output that is an input, one input
// at most from standard input) and loads the model ("-": from e's
// standard input), gzip data decompressed.
func loadStreamed(e *env, model, data, out string, chunk int) (*pipeline.Pipeline, error) {
	switch {
	case model == "":
		return nil, usageError("--model is required")
	case data == "":
		return nil, usageError("--data is required")
	case chunk < 1:
		return nil, usageError("--chunk must be ≥ 1, got %d", chunk)
	}
	if err := checkOutputs("model", model, "data", data, "out", out); err != nil {
		return nil, err
	}
	if model == dataset.Stdin {
		r, err := gzfile.Reader(e.stdin, dataset.StdinName, nil)
		if err != nil {
			return nil, err
		}
		return pipeline.Load(r, dataset.StdinName)
	}
	return pipeline.LoadFile(model)
}

// streamedReading returns how predict and features read the new points
// under p: the reader's options (the label column optional), the check
// that refuses missing values a model without imputation cannot fill
// (cmd names the command), and the explanation of read errors.
func streamedReading(p *pipeline.Pipeline, d dataFlags, cmd string) (dataset.CSVOptions, func(*dataset.Dataset) error, func(error) error, error) {
	opt, err := d.CSV()
	if err != nil {
		return opt, nil, nil, dataError(err)
	}
	opt.LabelOptional = d.Label == "" || d.Label == "none"
	check := func(ds *dataset.Dataset) error {
		if p.Scaler == nil || p.Scaler.Impute == nil {
			return ds.MissingError(cmd, "fill or drop those cells, or refit the model with --impute")
		}
		return nil
	}
	explain := func(err error) error { return p.ExplainReadError(err, d.Options) }
	return opt, check, explain, nil
}
