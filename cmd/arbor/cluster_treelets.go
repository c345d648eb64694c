package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/treelets"
)

// clusterTreeletsFlags are `arbor cluster --method treelets`'s own flags:
// kernel treelets (paper 004) in the place of a linkage, with the
// settings of `arbor treelets`.
type clusterTreeletsFlags struct {
	method     string
	kernel     string
	lambda     float64
	similarity string
	sample     int
	extend     string
	mem        memFlags // cluster's --max-memory (treeletsmemory.go)
	plot       plotFlags
}

func (c *clusterTreeletsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.method, "method", "hclust", "`NAME`: hclust (agglomerative, --linkage) or treelets (kernel treelets of paper 004 on --kernel; the labels are those of arbor treelets with the same flags, --seed 1 unless given)")
	fs.StringVar(&c.kernel, "kernel", "", "--method treelets: kernel on the rows (linear, poly:A:B:D, rbf:GAMMA, rbf:scale, laplacian:G, exponential:G, rbf-missing:GAMMA)")
	fs.Float64Var(&c.lambda, "lambda", 0, "--method treelets: λ ≥ 0, weight of |A_ij| in the similarity")
	fs.StringVar(&c.similarity, "similarity", "abs", "--method treelets: pair rule abs, signed or raw (see arbor treelets --help)")
	fs.IntVar(&c.sample, "sample", 0, "--method treelets: treelets on a seeded sample of M rows, the others labelled by --extend (0: every row)")
	fs.StringVar(&c.extend, "extend", "svm", "--method treelets: svm or knn, labels the rows outside the sample")
}

// treeletsOnly are the flags that mean something only with --method
// treelets; hclustOnly only with hclust.
var (
	treeletsOnly = []string{"kernel", "lambda", "similarity", "sample", "extend"}
	hclustOnly   = []string{"linkage", "distance", "graph", "landmarks", "landmark-method", "cophenetic"}
)

// checkMethodFlags rejects the flags of the other method.
func (c *clusterTreeletsFlags) check(fs *flag.FlagSet) error {
	switch c.method {
	case "hclust":
		for _, f := range treeletsOnly {
			if flagGiven(fs, f) {
				return usageError("--%s belongs to --method treelets", f)
			}
		}
	case "treelets":
		for _, f := range hclustOnly {
			if flagGiven(fs, f) {
				return usageError("--%s belongs to --method hclust (treelets build their own hierarchy from --kernel)", f)
			}
		}
		if c.kernel == "" {
			return usageError("--method treelets needs --kernel SPEC (e.g. rbf:scale, rbf-missing:32)")
		}
	default:
		return usageError("--method must be hclust or treelets, got %q", c.method)
	}
	return nil
}

// clusterTreelets is `arbor cluster --method treelets`: the hierarchy of
// kernel treelets cut like any other tree (--clusters K, or --height H on
// a full sample), printed and written as `arbor cluster` does.
func clusterTreelets(ctx context.Context, e *env, fs *flag.FlagSet, d *dataFlags, c *clusterTreeletsFlags,
	seed uint64, k int, height float64, out, zOut, newick, dendro string, leaves int, quiet bool) error {
	rule, err := treelets.ParseSimilarity(c.similarity)
	if err != nil {
		return usageError("--similarity: %v", err)
	}
	ext, err := treelets.ParseExtension(c.extend)
	if err != nil {
		return usageError("--extend: %v", err)
	}
	if c.lambda < 0 {
		return usageError("--lambda must be ≥ 0, got %v", c.lambda)
	}
	if c.sample < 0 || c.sample == 1 {
		return usageError("--sample must be ≥ 2 (or 0 for every row), got %d", c.sample)
	}
	if !flagGiven(fs, "seed") {
		seed = 1 // arbor treelets' default
	}
	if c.sample > 0 && !math.IsNaN(height) {
		return usageError("--height cuts the sample's hierarchy only with every row (--sample 0); use --clusters K with --sample")
	}
	g, ds, what, err := treeletsData(e, d, c.kernel)
	if err != nil {
		return err
	}
	n := g.Len()
	m := c.sample
	if m == 0 {
		m = n
	}
	if m > n {
		return usageError("--sample %d is larger than the number of rows (%d)", m, n)
	}
	if k > m {
		return usageError("--clusters %d is larger than the number of rows it cuts (%d)", k, m)
	}
	if m < n && k == 0 {
		return usageError("--sample %d needs --clusters K (the extension labels the other rows by the K clusters of the sample)", m)
	}
	if err := c.mem.treeletsCheck(n, m); err != nil {
		return err
	}
	progress := e.progress(quiet)
	start := time.Now()
	s := treelets.Sample{
		Settings: treelets.Settings{Lambda: c.lambda, Similarity: rule, Progress: progress},
		M:        m, Seed: seed, Clusters: k, Extend: ext,
	}
	res, err := s.Fit(ctx, g)
	if err != nil {
		return err
	}
	tree := res.Model.Tree()
	labels := res.Labels
	if !math.IsNaN(height) {
		labels = tree.CutHeight(height)
	}
	info := e.summary(out) // stderr when the labels take stdout
	fmt.Fprintln(info, what)
	fmt.Fprintf(info, "treelets   %s similarity, λ = %g; %d levels", rule, c.lambda, len(res.Model.Levels))
	if m < n {
		fmt.Fprintf(info, " on a sample of %d (seed %d), %s extension to the other %d", m, seed, ext, n-m)
	}
	fmt.Fprintf(info, "\nheights    %.6g … %.6g (running max of 1 − similarity)\n", tree.Merges[0].Height, tree.Merges[len(tree.Merges)-1].Height)
	if labels != nil {
		if err := printClusters(info, ds, labels); err != nil {
			return err
		}
	} else if out != "" {
		return usageError("--out needs --clusters or --height to cut the tree")
	}
	var batch outputBatch // all outputs or none
	defer batch.abort()
	if out != "" {
		if err := batch.writeOut(out, e.stdout, func(w io.Writer) error { return writeClusterLabels(w, ds, labels) }); err != nil {
			return err
		}
	}
	if zOut != "" {
		if err := batch.write(zOut, func(f *os.File) error { return dataset.WriteMatrix(ctx, f, tree.Matrix(), dataset.MatrixCSV) }); err != nil {
			return err
		}
	}
	if newick != "" {
		if err := batch.write(newick, func(f *os.File) error {
			_, err := fmt.Fprintln(f, tree.Newick(leafIDs(ds, sampledRows(res.Rows, n))))
			return err
		}); err != nil {
			return err
		}
	}
	if dendro != "" {
		opt := figure.DendrogramOptions{Title: fmt.Sprintf("%s: kernel treelets (%s)", displayName(ds.Name), rule),
			YLabel: "height (running max of 1 − similarity)", K: min(k, m), Leaves: leaves}
		if !math.IsNaN(height) {
			opt.Cut = height
		}
		if ds.IDs != nil && m == n { // leaves named by --id
			opt.Labels = ds.IDs
		}
		fig, err := figure.Dendrogram(tree, opt)
		if err != nil {
			return err
		}
		if err := batch.write(dendro, func(f *os.File) error { return fig.WriteTo(f, filepath.Ext(dendro)) }); err != nil {
			return err
		}
	}
	if err := c.plot.writeClusters(&batch, ds, labels, fmt.Sprintf("%s: kernel treelets (%s)", displayName(ds.Name), rule)); err != nil {
		return err
	}
	if err := batch.commit(); err != nil {
		return err
	}
	printWrote(info, out, zOut, newick, dendro, c.plot.path)
	if progress != nil {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}

// sampledRows is nil for the identity sample (every row), else rows.
func sampledRows(rows []int, n int) []int {
	if len(rows) == n {
		return nil
	}
	return rows
}
