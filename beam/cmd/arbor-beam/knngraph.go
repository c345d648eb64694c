package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
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
	var cols columnFlags
	cols.register(fs, "ID column (name or position): never a feature",
		"label column (name or position, or none): never a feature", "feature columns, comma-separated")
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
		csv, err := cols.options()
		if err != nil {
			return err
		}
		opt := arborbeam.GraphOptions{Data: *data, K: *k, Block: *block, CSV: csv}
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
