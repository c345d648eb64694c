package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/treelets"
)

func init() {
	register(command{name: "treelets", summary: "kernel treelets (paper 004): hierarchical clustering by Jacobi rotations of a kernel matrix, sampled and extended", run: runTreelets})
}

func runTreelets(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "treelets", "(--data F --kernel SPEC | --graph-edges F) [--lambda L] [--similarity abs|signed|raw] [--sample M --extend svm|knn --seed S] [--clusters K] --out labels.csv [--linkage-out Z.csv] [--newick T] [--dendrogram P] [--roc roc.png --roc-against labels|graph]")
	d, mf := clusterInputs(fs, "arbor treelets", nil)
	kspec := fs.String("kernel", "", "kernel on the rows of --data: linear, poly:A:B:D, rbf:GAMMA, rbf:scale, laplacian:G, exponential:G, or rbf-missing:GAMMA (paper §4.3: columns z-scored over observed cells, exp(−γ·mean squared difference over the columns both rows have); empty, NA and ? cells are missing)")
	edges := fs.String("graph-edges", "", "edge list \"u v\" per line (integer node ids ≥ 0; the nodes are the ids on some edge, in increasing order, named by id in every output): cluster the nodes with the graph kernel of paper §4.2 (largest degree on the diagonal, 1 per edge); - is standard input")
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
	case *rocAgainst != "" && *rocAgainst != "labels" && *rocAgainst != "graph":
		return usageError("--roc-against must be labels or graph, got %q", *rocAgainst)
	case *rocAgainst == "graph" && *edges == "":
		return usageError("--roc-against graph needs --graph-edges")
	case *rocAgainst == "labels" && *edges != "":
		return usageError("--roc-against labels needs --data with a label column (a graph has no labels)")
	case *roc != "" && *rocAgainst == "":
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
		if graph, err = readEdges(e, *edges); err != nil {
			return err
		}
		g, what = graph, fmt.Sprintf("graph      %s (%s)", displayName(dataset.InputName(*edges)), graph.Summary())
	} else if g, ds, what, err = treeletsData(e, d, *kspec); err != nil {
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
	run := &treelets.Run{SampleModel: res, Sample: smp, Data: ds, Graph: graph, K: k}
	info := e.summary(*out) // stderr when the labels take stdout
	fmt.Fprintln(info, what)
	if err := run.WriteReport(info, *clusters != 0, *rocAgainst, sizesText); err != nil {
		return treeletsROCError(err)
	}
	o := treelets.Outputs{Labels: *out, Stdout: e.stdout, Linkage: *zOut, Levels: *levelsOut, Newick: *newick,
		Dendrogram: *dendro, ROC: *roc, Title: displayName(dataset.InputName(input))}
	if err := run.Write(ctx, o); err != nil {
		return err
	}
	printWrote(info, *out, *zOut, *levelsOut, *newick, *dendro, *roc)
	e.done(progress, start)
	return nil
}

// readEdges reads the edge list of --graph-edges: the file path, or for
// "-" e's standard input (gzip found by its magic bytes), named "standard
// input" in errors.
func readEdges(e *env, path string) (*kernel.GraphKernel, error) {
	if path != dataset.Stdin {
		return kernel.ReadEdgesFile(path)
	}
	r, err := dataset.OpenInput(path, e.stdin)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return kernel.ReadEdges(r, dataset.StdinName)
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
		return nil, nil, "", fmt.Errorf("%s: %w", dataset.InputName(d.Path), err)
	}
	what = fmt.Sprintf("data       %s (%d rows, %d features)\nkernel     %s", ds.Name, ds.Len(), ds.Dim(), desc)
	if k.Missing() {
		what += fmt.Sprintf(" (%d missing cells)", len(ds.Missing))
	}
	return g, ds, what, nil
}

// treeletsROCError words a *treelets.LabelError as a usage error.
func treeletsROCError(err error) error {
	var le *treelets.LabelError
	switch {
	case !errors.As(err, &le):
		return err
	case le.Row < 0:
		return usageError("--roc-against labels: the data have no label column (--label NAME)")
	}
	return usageError("--roc-against labels: row %d has no label (every row needs one)", le.Row)
}

// treeletsCheck stops a treelets run on a sample of m of n rows whose
// matrices exceed the budget, with the --sample that fits.
func (mf memFlags) treeletsCheck(n, m int) error {
	b, _, err := mf.budget()
	if err != nil {
		return err
	}
	what, hint := treelets.MemoryAdvice(n, m, b)
	return mf.check(treelets.Bytes(n, m), what, hint)
}
