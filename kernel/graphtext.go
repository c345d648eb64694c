package kernel

import (
	"bufio"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/internal/gzfile"
)

// ReadEdgesFile is ReadEdges on the file at path, named by path in its
// errors; gzip data are decompressed (found by their magic bytes, any
// name; a ".gz" name must be gzip data).
func ReadEdgesFile(path string) (*GraphKernel, error) {
	f, err := gzfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadEdges(bufio.NewReaderSize(f, 1<<16), path)
}

// Summary describes the graph and its kernel: "N nodes, E edges; kernel:
// D on the diagonal, 1 per edge", the nodes followed by the range of
// their ids when those are not 0..N−1.
func (g *GraphKernel) Summary() string {
	nodes := fmt.Sprintf("%d nodes", g.Len())
	if !g.Dense() {
		nodes += fmt.Sprintf(" (the ids on its edges, %d..%d)", g.ID(0), g.ID(g.Len()-1))
	}
	return fmt.Sprintf("%s, %d edges; kernel: %d on the diagonal, 1 per edge", nodes, g.Edges(), g.MaxDegree())
}

// WriteLabels writes a label per node as CSV: the header node,cluster,
// then each node's id and labels[v], in node order.
func (g *GraphKernel) WriteLabels(dst io.Writer, labels []int) error {
	w := bufio.NewWriter(dst)
	fmt.Fprintln(w, "node,cluster")
	for v, c := range labels {
		fmt.Fprintf(w, "%d,%d\n", g.ID(v), c)
	}
	return w.Flush()
}
