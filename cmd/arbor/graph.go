package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/arbor-ml/arbor/graph"
)

func init() {
	register(command{name: "graph", summary: "the exact k-nearest-neighbour graph of the rows (CSV edges: row,neighbour,distance)", run: runGraph})
}

func runGraph(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "graph", "--data X.csv --k K --out edges.csv")
	var d dataFlags
	d.register(fs, "none")
	d.labelOptional = true
	d.command = "arbor graph"
	k := fs.Int("k", 0, "neighbours of each row (the row itself not counted), 1 ≤ k < rows")
	fs.Bool("quiet", false, "no progress on stderr")
	out := fs.String("out", "", "edges file (CSV: row,neighbour,distance; 0-based rows of --data, k lines a row, nearest first, ties to the lower row)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError("--out is required")
	}
	if *k < 1 {
		return usageError("--k is required: the number of neighbours, at least 1")
	}
	if err := checkOutputs("data", d.path, "out", *out); err != nil {
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
	if err := writeAtomic(*out, func(f *os.File) error {
		w := bufio.NewWriterSize(f, 1<<16)
		w.WriteString("row,neighbour,distance\n")
		var b []byte
		for i := 0; i < nb.N; i++ {
			for r := 0; r < nb.K; r++ {
				p := i*nb.K + r
				b = strconv.AppendInt(b[:0], int64(i), 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(nb.Index[p]), 10)
				b = append(b, ',')
				b = strconv.AppendFloat(b, nb.Dist[p], 'g', -1, 64)
				b = append(b, '\n')
				w.Write(b)
			}
		}
		return w.Flush()
	}); err != nil {
		return err
	}
	if !d.quiet() {
		fmt.Fprintf(e.stderr, "wrote    %s (%d rows × %d neighbours)\n", *out, nb.N, nb.K)
	}
	return nil
}
