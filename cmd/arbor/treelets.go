package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/treelets"
)

func init() {
	register(command{name: "treelets", summary: "kernel treelets (paper 004): hierarchical clustering by Jacobi rotations of a kernel matrix, sampled and extended", run: runTreelets})
}

func runTreelets(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "treelets", "(--data F --kernel SPEC | --graph-edges F) [--lambda L] [--similarity abs|signed|raw] [--sample M --extend svm|knn --seed S] [--clusters K] --out labels.csv [--linkage-out Z.csv] [--newick T] [--dendrogram P] [--roc roc.png --roc-against labels|graph]")
	var d dataFlags
	d.register(fs, "none")
	var mf memFlags
	mf.register(fs)
	d.LabelOptional = true
	d.Prep.Method = "arbor treelets"
	kspec := fs.String("kernel", "", "kernel on the rows of --data: linear, poly:A:B:D, rbf:GAMMA, rbf:scale, laplacian:G, exponential:G, or rbf-missing:GAMMA (paper §4.3: columns z-scored over observed cells, exp(−γ·mean squared difference over the columns both rows have); empty, NA and ? cells are missing)")
	edges := fs.String("graph-edges", "", "edge list \"u v\" per line (integer node ids ≥ 0; the nodes are the ids on some edge, in increasing order, named by id in every output): cluster the nodes with the graph kernel of paper §4.2 (largest degree on the diagonal, 1 per edge)")
	lambda := fs.Float64("lambda", 0, "λ ≥ 0: weight of |A_ij| in the similarity (the paper uses 0)")
	sim := fs.String("similarity", "abs", "pair rule: abs (the paper's |correlation|), signed (R's treelet package) or raw (the kernel entry, as the authors' code)")
	sample := fs.Int("sample", 0, "treelets on a seeded uniform sample of M rows; the others are labelled by --extend (0: every row, no extension)")
	extend := fs.String("extend", "svm", "labels the rows outside the sample: svm (C-SVC, C = 1, same kernel) or knn (kernel 1-NN)")
	seed := fs.Uint64("seed", 1, "seed of the sample")
	clusters := fs.Int("clusters", 0, "cut the hierarchy into K clusters (0: K at the largest gap between consecutive merge heights among K = 2..50)")
	out := fs.String("out", "", "write cluster labels (CSV: row[,id],cluster, or node,cluster for a graph) to this file; - is standard output (the summary then goes to stderr)")
	zOut := fs.String("linkage-out", "", "write the SciPy linkage matrix (N−1 rows: id1,id2,height,size; height = running max of 1 − similarity, see the treelets package) to this CSV file")
	newick := fs.String("newick", "", "write the hierarchy in Newick format to this file")
	dendro := fs.String("dendrogram", "", "draw the dendrogram to this .png or .svg file")
	levelsOut := fs.String("levels-out", "", "write the levels (level,sum,diff,similarity,cos,sin: the rotations and per-level similarities) to this CSV file")
	roc := fs.String("roc", "", "draw the pairwise ROC curve through all levels to this .png or .svg file (needs --roc-against)")
	rocAgainst := fs.String("roc-against", "", "positive pairs of the ROC: labels (same class) or graph (joined by an edge); prints AUC")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	smp, err := treelets.ParseSample(*sim, *extend, *lambda, *sample)
	if err != nil {
		return usageError("%v", err)
	}
	if *clusters < 0 {
		return usageError("--clusters must be positive, got %d", *clusters)
	}
	switch {
	case *edges != "" && (*kspec != "" || d.Path != ""):
		return usageError("--graph-edges clusters graph nodes: it takes neither --data nor --kernel")
	case *edges == "" && d.Path == "":
		return usageError("give --data F --kernel SPEC, or --graph-edges F")
	case *edges == "" && *kspec == "":
		return usageError("--data needs --kernel SPEC (e.g. rbf:scale, rbf-missing:32)")
	}
	switch *rocAgainst {
	case "", "labels", "graph":
	default:
		return usageError("--roc-against must be labels or graph, got %q", *rocAgainst)
	}
	if *rocAgainst == "graph" && *edges == "" {
		return usageError("--roc-against graph needs --graph-edges")
	}
	if *rocAgainst == "labels" && *edges != "" {
		return usageError("--roc-against labels needs --data with a label column (a graph has no labels)")
	}
	if *roc != "" && *rocAgainst == "" {
		return usageError("--roc needs --roc-against labels|graph")
	}
	for _, p := range [][2]string{{"dendrogram", *dendro}, {"roc", *roc}} {
		if err := checkPictureExt(p[0], p[1]); err != nil {
			return err
		}
	}
	input := d.Path
	if input == "" {
		input = *edges
	}
	if err := checkOutputs("data", input, "out", *out, "linkage-out", *zOut, "newick", *newick, "dendrogram", *dendro, "levels-out", *levelsOut, "roc", *roc); err != nil {
		return err
	}
	progress := e.progress(*quiet)
	start := time.Now()

	// the kernel, as on-demand blocks
	var (
		g     treelets.Gram
		ds    *dataset.Dataset
		graph *kernel.GraphKernel
		what  string
	)
	if *edges != "" {
		if graph, err = kernel.ReadEdgesFile(*edges); err != nil {
			return err
		}
		g, what = graph, fmt.Sprintf("graph      %s (%s)", displayName(*edges), graph.Summary())
	} else if g, ds, what, err = treeletsData(e, &d, *kspec); err != nil {
		return err
	}
	n := g.Len()
	if *sample > n {
		return usageError("--sample %d is larger than the number of rows (%d)", *sample, n)
	}
	m := *sample
	if m == 0 {
		m = n
	}
	if *clusters > m {
		return usageError("--clusters %d is larger than the number of sampled rows (%d)", *clusters, m)
	}
	if err := mf.treeletsCheck(n, m); err != nil {
		return err
	}
	smp.M, smp.Seed, smp.Clusters, smp.Progress = m, *seed, *clusters, progress
	res, k, err := smp.FitGap(ctx, g, 50)
	if err != nil {
		return err
	}
	model := res.Model
	tree := model.Tree()
	info := e.summary(*out) // stderr when the labels take stdout
	fmt.Fprintln(info, what)
	fmt.Fprintln(info, res.Summary(smp, n))
	fmt.Fprintf(info, "clusters   %d", k)
	if *clusters == 0 {
		fmt.Fprint(info, " (largest height gap; --clusters K to choose)")
	}
	fmt.Fprintf(info, ", sizes %s\n", sizesText(clusterSizes(res.Labels)))
	if t, p := metrics.Labelled(datasetY(ds), res.Labels); len(t) > 1 {
		ari, err := metrics.ARI(t, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(info, "vs labels  ARI %.4f (%d labelled rows)\n", ari, len(t))
	}
	var curve metrics.ROC
	if *rocAgainst != "" {
		if curve, err = treeletsROC(*rocAgainst, tree, res.Rows, ds, graph); err != nil {
			return err
		}
		scope := ""
		if m < n {
			scope = fmt.Sprintf(" (over the %d sampled rows)", m)
		}
		fmt.Fprintf(info, "AUC %.3f%s: pairwise ROC through all %d levels against %s (%d positive, %d negative pairs)\n",
			curve.AUC(), scope, len(model.Levels), *rocAgainst, curve.Positive, curve.Negative)
	}
	id := func(item int) int64 { return int64(item) }
	if graph != nil {
		id = graph.ID
	}
	writeLabels := func(dst io.Writer) error {
		if ds != nil {
			return ds.WriteLabels(dst, "cluster", res.Labels)
		}
		return graph.WriteLabels(dst, res.Labels)
	}
	if *out != "" && *out != "-" {
		if err := atomicfile.Write(*out, func(f *os.File) error { return writeLabels(f) }); err != nil {
			return err
		}
	}
	if *zOut != "" {
		if err := atomicfile.Write(*zOut, func(f *os.File) error { return dataset.WriteMatrix(ctx, f, tree.Matrix(), dataset.MatrixCSV) }); err != nil {
			return err
		}
	}
	if *levelsOut != "" {
		if err := atomicfile.Write(*levelsOut, func(f *os.File) error {
			return model.WriteLevels(f, func(i int) int64 { return id(res.Rows[i]) })
		}); err != nil {
			return err
		}
	}
	if *newick != "" {
		if err := atomicfile.Write(*newick, func(f *os.File) error {
			var nm []string // leaves named by --id, else by row or node id where those are not 0..m−1
			if ds != nil && ds.IDName != "" {
				nm = res.LeafNames(func(r int) string { return ds.IDs[r] })
			} else if m < n || (graph != nil && !graph.Dense()) {
				nm = res.LeafNames(func(r int) string { return strconv.FormatInt(id(r), 10) })
			}
			_, err := fmt.Fprintln(f, tree.Newick(nm))
			return err
		}); err != nil {
			return err
		}
	}
	if *dendro != "" {
		title := fmt.Sprintf("%s: kernel treelets (%s)", displayName(input), smp.Similarity)
		fig, err := figure.Dendrogram(tree, figure.DendrogramOptions{Title: title, YLabel: "height (running max of 1 − similarity)", K: min(k, m)})
		if err != nil {
			return err
		}
		if err := fig.Save(*dendro); err != nil {
			return err
		}
	}
	if *roc != "" {
		fig, err := figure.ROC(curve.FPR, curve.TPR, fmt.Sprintf("kernel treelets, AUC %.3f", curve.AUC()), fmt.Sprintf("%s: pairwise ROC through the hierarchy", displayName(input)))
		if err != nil {
			return err
		}
		if err := fig.Save(*roc); err != nil {
			return err
		}
	}
	if *out == "-" {
		if err := writeLabels(e.stdout); err != nil {
			return err
		}
	}
	printWrote(info, *out, *zOut, *levelsOut, *newick, *dendro, *roc)
	if progress != nil {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}

// treeletsData loads --data and builds the kernel --kernel SPEC on its
// rows as on-demand blocks: rbf-missing:GAMMA (the data may then have
// missing cells) or a point kernel. what describes both for stdout.
func treeletsData(e *env, d *dataFlags, kspec string) (g treelets.Gram, ds *dataset.Dataset, what string, err error) {
	k, kerr := treelets.ParseKernel(kspec)
	d.Prep.AllowMissing = k.Missing()
	if ds, err = d.load(e); err != nil {
		return nil, nil, "", err
	}
	if kerr != nil {
		return nil, nil, "", usageError("%v", kerr)
	}
	g, desc, err := k.Gram(ds.X)
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", d.Path, err)
	}
	what = fmt.Sprintf("data       %s (%d rows, %d features)\nkernel     %s", ds.Name, ds.Len(), ds.Dim(), desc)
	if k.Missing() {
		what += fmt.Sprintf(" (%d missing cells)", len(ds.Missing))
	}
	return g, ds, what, nil
}

// datasetY is the labels of ds, nil for none.
func datasetY(ds *dataset.Dataset) []int {
	if ds == nil {
		return nil
	}
	return ds.Y
}

// treeletsROC is the pairwise ROC of the hierarchy over the rows it covers.
func treeletsROC(against string, t *hclust.Tree, rows []int, ds *dataset.Dataset, g *kernel.GraphKernel) (metrics.ROC, error) {
	switch against {
	case "labels":
		if ds == nil || len(ds.Labeled()) == 0 {
			return metrics.ROC{}, usageError("--roc-against labels: the data have no label column (--label NAME)")
		}
		y := make([]int, len(rows))
		for i, r := range rows {
			if ds.Y[r] < 0 {
				return metrics.ROC{}, usageError("--roc-against labels: row %d has no label (every row needs one)", r)
			}
			y[i] = ds.Y[r]
		}
		return metrics.HierarchyROCLabels(t, y)
	default:
		if len(rows) == g.Len() {
			return metrics.HierarchyROCGraph(t, g.Len(), g.Neighbors)
		}
		return metrics.HierarchyROCSubgraph(t, rows, g.Neighbors)
	}
}

// treeletsCheck stops a treelets run on a sample of m of n rows whose
// matrices exceed the budget, with the --sample that fits.
func (mf memFlags) treeletsCheck(n, m int) error {
	what := fmt.Sprintf("kernel treelets on %d rows", m)
	if m < n {
		what = fmt.Sprintf("kernel treelets on a sample of %d of %d rows", m, n)
	}
	b, _, err := mf.budget()
	if err != nil {
		return err
	}
	hint := "even a sample of 2 rows does not fit"
	if s := treelets.LargestSample(b, m); s >= 2 {
		hint = fmt.Sprintf("use --sample %d --clusters K (about %s; the other rows labelled by --extend)", s, humanBytes(treelets.Bytes(n, s)))
	}
	return mf.check(treelets.Bytes(n, m), what, hint)
}
