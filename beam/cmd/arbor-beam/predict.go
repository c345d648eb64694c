package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

func init() {
	jobs["predict"] = job{
		summary: "label files of new points with a model saved by arbor classify --save-model",
		flags:   func(fs *flag.FlagSet) func(ctx context.Context, s beam.Scope) error { return fileJobFlags(fs, false) },
	}
	jobs["features"] = job{
		summary: "the landmark features z(x) of a saved landmark model over files of points, in shards (CSV or .npy)",
		flags:   func(fs *flag.FlagSet) func(ctx context.Context, s beam.Scope) error { return fileJobFlags(fs, true) },
	}
}

// fileJobFlags registers the flags of predict, or of features, and
// returns the job's builder.
func fileJobFlags(fs *flag.FlagSet, featureJob bool) func(ctx context.Context, s beam.Scope) error {
	what, outUsage := "labels", "output directory: part files (file,row[,ID],label), or with --ordered one file per input"
	if featureJob {
		what, outUsage = "features", "output directory: part files (file,row[,ID],z1,…,zr; with --format npy part-….npy and part-….rows.csv), or with --ordered one CSV file per input"
	}
	model := fs.String("model", "", "pipeline file written by arbor classify --save-model (any Beam filesystem: local, gs://, s3://)")
	data := fs.String("data", "", "files of points: comma-separated globs on any Beam filesystem (CSV/TSV as arbor predict reads them; .gz read whole; .parquet by row groups, columns by name)")
	out := fs.String("out", "", outUsage)
	ordered := fs.Bool("ordered", false, "write one file per input, NAME.predictions.csv (NAME.features.csv), in arbor predict's format and row order (one worker holds a whole file's "+what+")")
	format := "csv"
	if featureJob {
		fs.StringVar(&format, "format", "csv", "part files: csv, parquet (file,row[,ID],z1,…,zr; DOUBLE features) or npy (float64 rows × r, the rows' file,row[,ID] in part-….rows.csv)")
	} else {
		fs.StringVar(&format, "format", "csv", "part files: csv or parquet (file,row[,ID],label)")
	}
	shards := fs.Int("shards", 16, "number of part files")
	chunk := fs.Int("chunk", arborbeam.DefaultChunk, "rows read and labelled together: one Beam element")
	split := fs.Int64("split-bytes", arborbeam.DefaultSplitBytes, "size of the byte ranges files are first split into")
	var cols columnFlags
	cols.register(fs, "ID column (name or position), carried into the output (default: the model's ID column, when the file has it)",
		"label column (name or position, or none): never a feature (default: the model's, unread)",
		"feature columns, comma-separated (default: the model's features, by name, in any order)")
	return func(ctx context.Context, s beam.Scope) error {
		switch {
		case *model == "":
			return usagef("--model is required")
		case *data == "":
			return usagef("--data is required")
		case *out == "":
			return usagef("--out is required")
		case *chunk < 1:
			return usagef("--chunk must be ≥ 1, got %d", *chunk)
		case *shards < 1:
			return usagef("--shards must be ≥ 1, got %d", *shards)
		case *split < 1:
			return usagef("--split-bytes must be ≥ 1, got %d", *split)
		}
		csv, err := cols.options()
		if err != nil {
			return err
		}
		switch {
		case format == "npy" && !featureJob:
			return usagef("--format %q: csv or parquet", format)
		case format != "csv" && format != "npy" && format != "parquet":
			return usagef("--format %q: csv, parquet or npy", format)
		case format != "csv" && *ordered:
			return usagef("--ordered writes CSV: leave out --format %s", format)
		}
		p, err := arborbeam.LoadModel(ctx, *model)
		if err != nil {
			return err
		}
		if featureJob {
			if err := arborbeam.CheckFeatures(p, *model); err != nil {
				return err
			}
		}
		if err := checkOut(ctx, *out); err != nil {
			return err
		}
		opt := arborbeam.ReadOptions{Chunk: *chunk, SplitBytes: *split, CSV: csv}
		globs := beam.Create(s, splitList(*data)...)
		o := arborbeam.NewOutput(*out)
		w := arborbeam.WriteOptions{Shards: *shards, Ordered: *ordered, Format: formats[format]}
		if featureJob {
			arborbeam.FeatureFiles(s, *model, globs, opt, o, w)
		} else {
			arborbeam.PredictFiles(s, *model, globs, opt, o, w)
		}
		return nil
	}
}

// formats are the part files' formats by their --format names.
var formats = map[string]arborbeam.Format{"csv": arborbeam.FormatCSV, "parquet": arborbeam.FormatParquet, "npy": arborbeam.FormatNpy}

// splitStrings splits a comma-separated flag value (nil for "").
func splitStrings(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func splitList(s string) []any {
	var out []any
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// checkOut refuses an output directory that already holds files.
func checkOut(ctx context.Context, dir string) error {
	dir = strings.TrimSuffix(dir, "/")
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, dir+"/*")
	if err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	if len(files) > 0 {
		return fmt.Errorf("--out %s already holds files (%s): give a new directory", dir, files[0])
	}
	return nil
}
