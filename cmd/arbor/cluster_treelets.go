package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"time"

	"github.com/arbor-ml/arbor/clustering"
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
	mem        memFlags // cluster's --max-memory (treeletsCheck)
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
	smp, err := treelets.ParseSample(c.similarity, c.extend, c.lambda, c.sample)
	if err != nil {
		return usageError("%v", err)
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
	switch {
	case m > n:
		return usageError("--sample %d is larger than the number of rows (%d)", m, n)
	case k > m:
		return usageError("--clusters %d is larger than the number of rows it cuts (%d)", k, m)
	case m < n && k == 0:
		return usageError("--sample %d needs --clusters K (the extension labels the other rows by the K clusters of the sample)", m)
	}
	if err := c.mem.treeletsCheck(n, m); err != nil {
		return err
	}
	progress := e.progress(quiet)
	start := time.Now()
	smp.M, smp.Seed, smp.Clusters, smp.Progress = m, seed, k, progress
	res, err := smp.Fit(ctx, g)
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
	fmt.Fprintf(info, "%s\nheights    %.6g … %.6g (running max of 1 − similarity)\n", res.Summary(smp, n), tree.Merges[0].Height, tree.Merges[len(tree.Merges)-1].Height)
	if labels != nil {
		if err := clustering.WriteClusters(info, ds.Y, labels, sizesText); err != nil {
			return err
		}
	} else if out != "" {
		return usageError("--out needs --clusters or --height to cut the tree")
	}
	title := fmt.Sprintf("%s: kernel treelets (%s)", displayName(ds.Name), smp.Similarity)
	o := clustering.Outputs{Labels: out, Stdout: e.stdout, Linkage: zOut, Newick: newick, Dendrogram: dendro, Height: height,
		Plot: c.plot.path, PlotFeatures: c.plot.features, PlotTitle: title,
		DendrogramOptions: figure.DendrogramOptions{Title: title, YLabel: treelets.HeightLabel, K: min(k, m), Leaves: leaves}}
	if err := writeTreeOutputs(ctx, o, info, ds, tree, labels, sampledRows(res.Rows, n)); err != nil {
		return err
	}
	e.done(progress, start)
	return nil
}

// sampledRows is nil for the identity sample (every row), else rows.
func sampledRows(rows []int, n int) []int {
	if len(rows) == n {
		return nil
	}
	return rows
}
