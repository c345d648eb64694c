package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/progress"
)

func init() {
	register(command{name: "cluster", summary: "agglomerative clustering on Euclidean or graph (geodesic) distances", run: runCluster})
}

func runCluster(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "cluster", "--data F (--linkage average [--distance euclidean|graph --graph knn:7] | --method treelets --kernel SPEC [--lambda L --similarity abs|signed|raw --sample M --extend svm|knn --seed S]) (--clusters N | --height H) [outputs]")
	var lmf landmarkFlags
	d, mf := clusterInputs(fs, "arbor cluster", &lmf)
	linkage := fs.String("linkage", "average", clusterLinkageUsage)
	dist := fs.String("distance", "euclidean", "pointwise distance: euclidean or graph (shortest paths on --graph)")
	graphSpec := fs.String("graph", "knn:7", "neighbourhood graph for --distance graph: knn:K (symmetrised) or eps:E")
	k := fs.Int("clusters", 0, "cut the tree into this many clusters")
	kOld := fs.Int("k", 0, "deprecated spelling of --clusters (--k means neighbours in classify, eval and svc)")
	height := fs.Float64("height", math.NaN(), "cut the tree at this height (clusters merged above it stay apart)")
	criterion := fs.String("criterion", "", clusterCriterionUsage)
	threshold := fs.Float64("threshold", math.NaN(), "the inconsistency coefficient at which --criterion inconsistent or monocrit cuts")
	depth := fs.Int("depth", 2, "levels below each merge whose heights the inconsistency statistics include (SciPy's depth)")
	out := fs.String("out", "", "write cluster labels (CSV: row[,id],cluster) to this file; - is standard output (the summary then goes to stderr)")
	zOut := fs.String("linkage-out", "", "write the SciPy linkage matrix (N-1 rows: id1,id2,height,size) to this CSV file")
	newick := fs.String("newick", "", "write the tree in Newick format to this file")
	dendro := fs.String("dendrogram", "", "draw the dendrogram to this .png or .svg file")
	dendroLeaves := fs.Int("dendrogram-leaves", 0, "leaves the dendrogram draws, as SciPy's truncate_mode='lastp' (0: every leaf up to 50 rows, else 30; -1: every leaf)")
	cophenetic := fs.Bool("cophenetic", true, "report the cophenetic correlation (O(N²) time, O(N) memory); --cophenetic=false skips it")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	f32 := fs.Bool("float32", false, clusterFloat32Usage)
	var pf plotFlags
	pf.register(fs, "the rows coloured by cluster (shaped by class when the data have labels)")
	var tf clusterTreeletsFlags
	tf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := tf.check(fs); err != nil {
		return err
	}
	method, err := hclust.ParseMethod(*linkage)
	if err != nil {
		return usageError("--linkage: %v", err)
	}
	if flagGiven(fs, "k") {
		if flagGiven(fs, "clusters") {
			return usageError("--k is the old name of --clusters: give only --clusters")
		}
		fmt.Fprintln(e.stderr, "warning: cluster --k is deprecated: use --clusters N (--k means neighbours in classify, eval and svc)")
		*k = *kOld
	}
	switch {
	case *k != 0 && !math.IsNaN(*height):
		return usageError("--clusters and --height are mutually exclusive")
	case *k < 0:
		return usageError("--clusters must be positive, got %d", *k)
	}
	cut, err := clustering.CutOptions{Criterion: *criterion, Clusters: *k, Height: *height, Threshold: *threshold,
		Depth: *depth, DepthSet: flagGiven(fs, "depth")}.Cut()
	if err != nil {
		return usageError("%v", err)
	}
	if cut != nil && (cut.Criterion != hclust.NClusters && cut.Criterion != hclust.Distance) && tf.method == "treelets" {
		return usageError("--criterion %s cuts a linkage tree: give --clusters or --height with --method treelets", cut.Criterion)
	}
	if d.Path != "" && cut == nil && *zOut == "" && *newick == "" && *dendro == "" {
		return usageError("give --clusters N or --height H to cut the tree into clusters (or ask for the tree itself: --linkage-out, --newick, --dendrogram)")
	}
	if err := checkPictureExt("dendrogram", *dendro); err != nil {
		return err
	}
	if err := pf.check(); err != nil {
		return err
	}
	if err := checkOutputs("data", d.Path, "out", *out, "linkage-out", *zOut, "newick", *newick, "dendrogram", *dendro, "plot", pf.path); err != nil {
		return err
	}
	switch {
	case *f32 && lmf.m > 0:
		return usageError("--float32 and --landmarks: the tree is on the %d landmarks, an M×M matrix; leave out --float32", lmf.m)
	case *f32 && tf.method == "treelets":
		return usageError("--float32 is not available with --method treelets")
	}
	if tf.method == "treelets" {
		tf.mem, tf.plot = *mf, pf
		return clusterTreelets(ctx, e, fs, d, &tf, lmf.seed, *k, *height, *out, *zOut, *newick, *dendro, *dendroLeaves, *quiet)
	}
	s := clustering.Settings{Linkage: method, Distance: *dist, Graph: *graphSpec, Float32: *f32,
		Landmarks: lmf.m, LandmarkMethod: lmf.method, Seed: lmf.seed, Cophenetic: *cophenetic, Cut: cut, Log: e.stderr}
	switch *dist {
	case clustering.Euclidean:
	case clustering.Graph:
		if _, err := graph.ParseSpec(*graphSpec); err != nil {
			return usageError("--graph: %v", err)
		}
	default:
		return usageError("--distance must be euclidean or graph, got %q", *dist)
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	n := ds.Len()
	switch {
	case *k > n:
		return usageError("--clusters %d is larger than the number of rows (%d)", *k, n)
	case lmf.m > n:
		return usageError("--landmarks %d: more than the %d rows", lmf.m, n)
	}
	s.Budget, _, _ = mf.budget() // a bad --max-memory is reported by mf.check
	c, err := s.Cost(n, ds.Dim())
	if err != nil {
		return err
	}
	what, hint := s.Advice(n, c)
	if c.LowMemory {
		_, src, _ := mf.budget()
		fmt.Fprintln(e.stderr, s.LowMemoryNotice(c, src))
	}
	if err := mf.check(c.Bytes, what, hint); err != nil {
		return err
	}
	s.Progress = e.progress(*quiet)
	start := time.Now()
	res, err := clustering.Fit(ctx, s, ds.X)
	if me := (*clustering.MemoryError)(nil); errors.As(err, &me) {
		return mf.check(me.Bytes, me.What, hint)
	}
	if err != nil {
		return err
	}
	tree, lm := res.Tree, res.Landmarks

	info := e.summary(*out) // stderr when the labels take stdout
	fmt.Fprintf(info, "data       %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	if err := res.WriteSummary(info, s); err != nil {
		return err
	}

	labels := res.Labels
	if labels != nil {
		if err := clustering.WriteClusters(info, ds.Y, labels, sizesText); err != nil {
			return err
		}
	} else if *out != "" {
		return usageError("--out needs a cut: --clusters, --height or --threshold")
	}
	o := clustering.Outputs{Labels: *out, Stdout: e.stdout, Linkage: *zOut, Newick: *newick, Dendrogram: *dendro, Height: *height,
		Plot: pf.path, PlotFeatures: pf.features, PlotTitle: fmt.Sprintf("%s: %s linkage", displayName(ds.Name), method),
		DendrogramOptions: figure.DendrogramOptions{Title: fmt.Sprintf("%s: %s linkage, %s distances", displayName(ds.Name), method, *dist), K: *k, Leaves: *dendroLeaves}}
	if err := writeTreeOutputs(ctx, o, info, ds, tree, labels, lm); err != nil {
		return err
	}
	e.done(s.Progress, start)
	return nil
}

// writeTreeOutputs writes the files of arbor cluster (both methods) and
// says which on info; its mistakes are usage errors.
func writeTreeOutputs(ctx context.Context, o clustering.Outputs, info io.Writer, ds *dataset.Dataset, tree *hclust.Tree, labels, leafRows []int) error {
	err := o.Write(ctx, ds, tree, labels, leafRows)
	var pe *clustering.PlotError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("--plot: %w", pe.Err)
	case errors.Is(err, clustering.ErrNoCut):
		return usageError("--plot draws the clusters: give a cut (--clusters, --height or --threshold)")
	case errors.Is(err, clustering.ErrOutput):
		return usageError("%v", err)
	case err != nil:
		return err
	}
	printWrote(info, o.Labels, o.Linkage, o.Newick, o.Dendrogram, o.Plot)
	return nil
}

const (
	clusterLinkageUsage = "single, complete, average, weighted, ward, centroid or median; when the N×N matrix does not fit --max-memory, single, ward, centroid and median switch to an O(N·d)-memory algorithm on the points, and complete, average and weighted to the exact tree on clusters certified on the 40-NN graph (O(N·k + K²) memory for K clusters) — no N×N matrix; heights within a few ulps of the matrix path's, the same tree unless two candidate distances tie within rounding"
	clusterFloat32Usage = "hold the linkage's N×N working matrix in float32 (half the memory; distances and updates computed in float64 and rounded once: heights within a few 2⁻²⁴ relative, the same tree unless candidate distances are that close) and compute the cophenetic correlation without a distance matrix"
)

// clusterInputs registers the flags the clustering commands share: --data
// and its columns (labels optional, no scaling unless asked),
// --max-memory and, when lmf is not nil, --landmarks.
func clusterInputs(fs *flag.FlagSet, method string, lmf *landmarkFlags) (*dataFlags, *memFlags) {
	d, mf := &dataFlags{}, &memFlags{}
	d.register(fs, "none")
	mf.register(fs)
	if lmf != nil {
		lmf.register(fs)
	}
	d.LabelOptional = true
	d.Prep.Method = method
	return d, mf
}

// done says on stderr how long the work since start took when progress is
// shown (progress not nil: no --quiet).
func (e *env) done(progress func(string, int, int), start time.Time) {
	if progress != nil {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
}

// summary is where cluster, treelets and svc print their summary:
// stdout, or stderr when --out - writes the labels there (as classify
// does), line by line so that stderr's lineWriter never breaks a line
// printed in pieces.
func (e *env) summary(out string) io.Writer {
	if out == "-" {
		return &progress.WholeLines{W: e.stderr}
	}
	return e.stdout
}

// printWrote says on w which files were written: the paths not empty and
// not "-" (standard output).
func printWrote(w io.Writer, paths ...string) {
	for _, p := range paths {
		if p != "" && p != "-" {
			fmt.Fprintf(w, "wrote      %s\n", p)
		}
	}
}

const clusterCriterionUsage = "how the tree is cut into flat clusters, as SciPy's fcluster criterion: " +
	"nclusters (exactly --clusters N: the last N-1 merges undone, tied heights split in linkage order; the default with --clusters), " +
	"maxclust (at most --clusters N: the lowest height that gives no more, fewer where heights tie), " +
	"distance (no merge above --height H; the default with --height), " +
	"inconsistent (no inconsistency coefficient above --threshold T, statistics over --depth levels), " +
	"maxclust_monocrit (at most --clusters N by the largest inconsistency coefficient in each subtree), " +
	"monocrit (that largest coefficient at most --threshold T)"
