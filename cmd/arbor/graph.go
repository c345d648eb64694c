package main

import (
	"context"
	"fmt"
	"os"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/atomicfile"
)

func init() {
	register(command{name: "graph", summary: "the exact k-nearest-neighbour graph of the rows (CSV edges: row,neighbour,distance)", run: runGraph})
}

func runGraph(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "graph", "--data X.csv --k K --out edges.csv")
	var d dataFlags
	d.register(fs, "none")
	d.LabelOptional = true
	d.Prep.Method = "arbor graph"
	k := fs.Int("k", 0, "neighbours of each row (the row itself not counted), 1 ≤ k < rows")
	fs.Bool("quiet", false, "no progress on stderr")
	out := fs.String("out", "", "edges file (CSV: row,neighbour,distance; 0-based rows of --data, k lines a row, nearest first, ties to the lower row); - is standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError("--out is required")
	}
	if *k < 1 {
		return usageError("--k is required: the number of neighbours, at least 1")
	}
	if err := checkOutputs("data", d.Path, "out", *out); err != nil {
		return err
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	nb, err := graph.KNearest(ctx, ds.X, *k)
	if err != nil {
		return err
	}
	if *out == "-" {
		return nb.WriteCSV(e.stdout)
	}
	if err := atomicfile.Write(*out, func(f *os.File) error { return nb.WriteCSV(f) }); err != nil {
		return err
	}
	if !d.quiet() {
		fmt.Fprintf(e.stderr, "wrote    %s (%d rows × %d neighbours)\n", *out, nb.N, nb.K)
	}
	return nil
}
