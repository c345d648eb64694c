package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
)

func init() {
	jobs["knngraph"] = job{
		summary: "the exact k-nearest-neighbour graph by blocks (equal to arbor graph)",
		flags:   knngraphFlags,
	}
}

func knngraphFlags(fs *flag.FlagSet) func(ctx context.Context, s beam.Scope) error {
	data := fs.String("data", "", "data file (any Beam filesystem), read as arbor graph reads --data; every worker reads it whole")
	k := fs.Int("k", 0, "neighbours of each row (the row itself not counted), 1 ≤ k < rows")
	out := fs.String("out", "", "output directory: one edges file a query block (CSV row,neighbour,distance; in block order they are arbor graph's lines)")
	block := fs.Int("block", arborbeam.DefaultBlock, "rows of a block: one task compares a query block with a reference block")
	label := fs.String("label", "", "label column (name or position, or none): never a feature")
	id := fs.String("id", "", "ID column (name or position): never a feature")
	ignore := fs.String("ignore", "", "columns to skip, comma-separated names or positions")
	features := fs.String("features", "", "feature columns, comma-separated")
	noHeader := fs.Bool("no-header", false, "the first row is data, not column names")
	sep := fs.String("sep", "", "separator (default: found from the first lines)")
	return func(ctx context.Context, s beam.Scope) error {
		switch {
		case *data == "":
			return usagef("--data is required")
		case *out == "":
			return usagef("--out is required")
		case *k < 1:
			return usagef("--k is required: the number of neighbours, at least 1")
		case *block < 1:
			return usagef("--block must be ≥ 1, got %d", *block)
		}
		if _, err := dataset.ParseSep(*sep); err != nil {
			return usagef("--sep: %v", err)
		}
		opt := arborbeam.GraphOptions{Data: *data, K: *k, Block: *block, CSV: dataset.CSVOptions{
			Label: *label, NoLabel: *label == "none", ID: *id, NoHeader: *noHeader, Sep: *sep,
			LabelOptional: *label == "", AllowMissing: true,
		}}
		opt.CSV.Ignore = splitStrings(*ignore)
		opt.CSV.Features = splitStrings(*features)
		// The launcher reads the data once for its number of rows (the blocks).
		ds, err := arborbeam.LoadData(ctx, *data, opt.CSV)
		if err != nil {
			return err
		}
		n := ds.Len()
		if *k >= n {
			return usagef("--k %d: want k < rows = %d", *k, n)
		}
		if err := checkOut(ctx, *out); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "knngraph: %d rows, %d blocks of %d rows, %d tasks\n", n, (n+*block-1) / *block, *block, ((n+*block-1) / *block)*((n+*block-1) / *block))
		o := arborbeam.NewOutput(*out)
		blocks := arborbeam.KNNGraph(s, opt, n)
		arborbeam.Finalize(s, arborbeam.WriteGraph(s, blocks, o, (n+*block-1) / *block), o)
		return nil
	}
}
