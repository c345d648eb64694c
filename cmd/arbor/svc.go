package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/arbor-ml/arbor/figure/svcfig"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/svcluster"
)

func init() {
	register(command{name: "svc", summary: "support vector clustering (Ben-Hur et al.) at one (q, C) or as a hierarchy over q", run: runSVC})
}

func runSVC(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "svc", "--data F [--label NAME] [--scale std|minmax|none] [--pca N] [--kernel gaussian|exponential] "+
		"(--q Q --C C | --sweep [--clusters K]) [--labelling complete|sv|knn|cone] --out labels.csv [--tree T.json] [--plot P.png]")
	var d dataFlags
	d.register(fs, "none")
	var mf memFlags
	mf.register(fs)
	var lmf landmarkFlags
	lmf.register(fs)
	d.labelOptional = true
	d.command = "arbor svc"
	pca := fs.Int("pca", 0, "project the (scaled) data on its first N principal components first (0: no)")
	kern := fs.String("kernel", "gaussian", "gaussian exp(-q‖x−y‖²) (eq. 6) or exponential exp(-q‖x−y‖) (eq. 7, the paper's \"laplacian\", also accepted)")
	q := fs.Float64("q", math.NaN(), "kernel width q (single clustering)")
	C := fs.Float64("C", math.NaN(), "soft margin C in [1/N, 1] (single clustering; 1/(N·C) is the outlier fraction)")
	p := fs.Float64("p", math.NaN(), "alternative to --C: the paper's 1/(N·C) in [1/N, 1]")
	sweep := fs.Bool("sweep", false, "divisive sweep of q (§3.2) from 1/max‖xi−xj‖², raising 1/C when small clusters break off")
	clusters := fs.Int("clusters", 0, "with --sweep: stop at the first level with this many clusters")
	qfactor := fs.Float64("qfactor", 1.2, "with --sweep: ratio of successive q")
	maxErr := fs.Float64("max-error", 0.95, "with --sweep: stop when (n_sv+n_bsv)/N exceeds this")
	minCluster := fs.Int("min-cluster", 0, "with --sweep: raise 1/C when a cluster has fewer non-outlier points (0: max(2, N/20))")
	pstep := fs.Float64("pstep", 0.05, "with --sweep: increment of 1/(N·C) when it is raised")
	pmax := fs.Float64("pmax", 0.9, "with --sweep: largest 1/(N·C)")
	labelling := fs.String("labelling", "complete", "cluster labelling: complete (eq. 17, fast), sv (support-vector graph), knn (k-NN graph), cone (cone cluster labelling) or naive (eq. 17, literal)")
	samples := fs.Int("samples", svcluster.DefaultSamples, "points sampled per segment by eq. 17")
	knnK := fs.Int("k", svcluster.DefaultK, "neighbours for --labelling knn")
	noise := fs.Bool("noise", false, "leave outliers (bounded SVs) unassigned, label -1 (default: nearest cluster)")
	out := fs.String("out", "", "write cluster labels (CSV: row[,id],cluster; -1 = noise) to this file; - is standard output (the summary then goes to stderr)")
	tree := fs.String("tree", "", "with --sweep: write the hierarchy (levels table, tree of clusters, Newick with q as heights) as JSON")
	plot := fs.String("plot", "", "draw a picture: for 2-D data the contours R(x) = R with SVs/BSVs marked (and, with --sweep, the clusters against q)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	kind, err := svcluster.ParseKernel(*kern)
	if err != nil {
		return usageError("--kernel: %v", err)
	}
	if note := svcluster.PaperAlias(*kern); note != "" {
		fmt.Fprintf(e.stderr, "notice: --kernel %s: %s\n", *kern, note)
	}
	lab, err := svcluster.ParseLabelling(*labelling)
	if err != nil {
		return usageError("--labelling: %v", err)
	}
	if *out == "" {
		return usageError("--out is required")
	}
	if err := checkPictureExt("plot", *plot); err != nil {
		return err
	}
	if err := checkOutputs("data", d.path, "out", stdoutIsEmpty(*out), "tree", *tree, "plot", *plot); err != nil {
		return err
	}
	switch {
	case *sweep && (set["q"] || set["C"] || set["p"]):
		return usageError("--sweep chooses q and C itself: drop --q/--C/--p")
	case !*sweep && (set["clusters"] || set["tree"] || set["qfactor"] || set["max-error"] || set["min-cluster"] || set["pstep"] || set["pmax"]):
		return usageError("--clusters, --tree, --qfactor, --max-error, --min-cluster, --pstep and --pmax need --sweep")
	case !*sweep && !set["q"]:
		return usageError("give --q Q and --C C (or --p), or --sweep")
	case !*sweep && set["C"] == set["p"]:
		return usageError("give exactly one of --C and --p with --q")
	case *clusters < 0:
		return usageError("--clusters must be positive, got %d", *clusters)
	case *pca < 0:
		return usageError("--pca must be ≥ 0, got %d", *pca)
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	// The SVDD's column cache and the labelling's capped tables, no N×N
	// matrix (svcluster.Bytes; a sample of --landmarks M rows fits M).
	fitRows := ds.Len()
	hint := "cluster a sample of the rows"
	if m := min(2000, ds.Len()/4); m >= 2 {
		hint = fmt.Sprintf("use --landmarks %d (the sphere and clusters of %d sampled rows, every row labelled by them)", m, m)
	}
	if lmf.m > 0 {
		if lmf.m > ds.Len() {
			return usageError("--landmarks %d: more than the %d rows", lmf.m, ds.Len())
		}
		if *plot != "" {
			return usageError("--plot draws the fitted rows; it does not go with --landmarks")
		}
		fitRows, hint = lmf.m, "use fewer --landmarks"
	}
	if err := mf.check(svcluster.Bytes(fitRows, ds.Dim()), fmt.Sprintf("support vector clustering of %d rows", fitRows), hint); err != nil {
		return err
	}
	e.announceSVC(*quiet, func() float64 { return svcluster.PairTime(ds.X) }, fitRows, func(m int) string {
		if lmf.m > 0 {
			return "fewer --landmarks fit fewer rows"
		}
		return fmt.Sprintf("--landmarks %d fits the sphere and clusters on %d sampled rows", m, m)
	})
	X := ds.X
	desc := fmt.Sprintf("%s (%d rows, %d features, scale %s", ds.Name, ds.Len(), ds.Dim(), d.scale)
	if *pca > 0 {
		if X, err = svcluster.PCA(nil, X, *pca); err != nil {
			return fmt.Errorf("--pca %d: %w", *pca, err)
		}
		desc += fmt.Sprintf(", first %d principal components", *pca)
	}
	desc += ")"
	if _, dim := X.Dims(); *plot != "" && dim != 2 && !*sweep {
		return usageError("--plot: contour pictures need 2-D data (%d features; try --pca 2)", dim)
	}
	allX := X
	var sample []int
	if lmf.m > 0 {
		if sample, err = landmark.Choose(ctx, X, lmf.m, lmf.method, lmf.seed); err != nil {
			return err
		}
		X = clustering.Rows(X, sample)
		fmt.Fprintf(e.stderr, "landmarks %d (%s, seed %d): the sphere and clusters are fitted on them; every row is labelled by the sphere and its nearest sampled row's cluster\n", len(sample), lmf.method, lmf.seed)
	}
	n, _ := X.Dims()
	progress := e.progress(*quiet)
	start := time.Now()
	info := e.summary(*out) // stderr when the labels take stdout
	fmt.Fprintf(info, "data       %s\n", desc)
	fmt.Fprintf(info, "kernel     %s, labelling %s, %d samples per segment\n", kind, lab, *samples)

	var res *svcluster.Clustering
	var h *svcluster.Hierarchy
	if *sweep {
		h, err = svcluster.Sweep{
			Kernel: kind, Labelling: lab, Samples: *samples, K: *knnK, Unassigned: *noise,
			QFactor: *qfactor, MaxError: *maxErr, Clusters: *clusters, MinCluster: *minCluster,
			PStep: *pstep, PMax: *pmax, Progress: progress,
		}.Fit(ctx, X)
		if err != nil {
			return err
		}
		if err := h.WriteTable(info); err != nil {
			return err
		}
		fmt.Fprintf(info, "stopped    %s after %d SVDD fits\n", h.Stop, h.Fits)
		pick := len(h.Levels) - 1
		if *clusters > 0 {
			pick = h.Chosen
			if pick < 0 {
				var warn string
				pick, warn = closestLevel(h, *clusters, *qfactor, *maxErr, *pmax)
				fmt.Fprintln(e.stderr, "warning:", warn)
			}
			fmt.Fprintf(info, "chosen     level %d: q = %.6g, C = %.6g (1/(N·C) = %.4g), %d clusters\n", pick, h.Levels[pick].Q, h.Levels[pick].C, h.Levels[pick].P, h.Levels[pick].NClusters)
		} else {
			fmt.Fprintf(info, "labels of  the last level (%d)\n", pick)
		}
		res = h.Levels[pick].Result
	} else {
		cval := *C
		if set["p"] {
			cval = 1 / (float64(n) * *p)
		}
		res, err = svcluster.Clusterer{
			Q: *q, C: cval, Kernel: kind, Labelling: lab, Samples: *samples, K: *knnK,
			Unassigned: *noise, Progress: progress,
		}.Fit(ctx, X)
		if err != nil {
			return err
		}
	}
	if sample != nil {
		var outside int
		if res, outside, err = svcluster.Extend(ctx, res, allX, sample, *noise); err != nil {
			return err
		}
		fmt.Fprintf(info, "landmarks  %d sampled rows fitted; %d other rows outside the sphere\n", len(sample), outside)
	}
	printSVC(info, res, ds)
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "warning: %v\n", w)
	}
	var batch outputBatch // all outputs or none
	defer batch.abort()
	if err := batch.writeOut(*out, e.stdout, func(w io.Writer) error { return writeClusterLabels(w, ds, res.Labels) }); err != nil {
		return err
	}
	if *tree != "" {
		if err := batch.write(*tree, func(f *os.File) error { return h.WriteJSON(f) }); err != nil {
			return err
		}
	}
	if *plot != "" {
		axes := [2]string{"feature 1", "feature 2"}
		if *pca > 0 {
			axes = [2]string{"principal component 1", "principal component 2"}
		} else if len(ds.Features) >= 2 {
			axes = [2]string{ds.Features[0], ds.Features[1]}
		}
		fig, err := svcfig.Clustering(X, res, h, displayName(ds.Name), axes)
		if errors.Is(err, svcfig.ErrNot2D) {
			_, d := X.Dims()
			return usageError("--plot: contour pictures need 2-D data (%d features; try --pca 2)", d)
		}
		if err != nil {
			return err
		}
		if err := batch.write(*plot, func(f *os.File) error { return fig.WriteTo(f, filepath.Ext(*plot)) }); err != nil {
			return err
		}
	}
	if err := batch.commit(); err != nil {
		return err
	}
	printWrote(info, *out, *tree, *plot)
	if progress != nil {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}

func printSVC(w io.Writer, r *svcluster.Clustering, ds *dataset.Dataset) {
	// N counts the fitted rows (one β each): the sample with --landmarks.
	fmt.Fprintf(w, "q = %.6g   C = %.6g   1/(N·C) = %.4g\n", r.Q, r.C, 1/(float64(len(r.Beta))*r.C))
	fmt.Fprintf(w, "sphere     R = %.6g, n_sv = %d, n_bsv = %d, (n_sv+n_bsv)/N = %.4f (eq. 14), SVDD %d iterations\n",
		r.R, r.NSV, r.NBSV, r.PError, r.Iter)
	fmt.Fprintf(w, "clusters   %d, sizes %s", r.NClusters, sizesText(r.Sizes))
	if r.Singletons > 0 {
		fmt.Fprintf(w, " (%d single-point)", r.Singletons)
	}
	fmt.Fprintln(w)
	if l := ds.Labeled(); len(l) > 1 {
		truth := make([]int, len(l))
		pred := make([]int, len(l))
		for i, row := range l {
			truth[i], pred[i] = ds.Y[row], r.Labels[row]
		}
		ari, err1 := metrics.ARI(truth, pred)
		nmi, err2 := metrics.NMI(truth, pred)
		mis, _, err3 := metrics.Misclassified(truth, pred)
		if err1 == nil && err2 == nil && err3 == nil {
			fmt.Fprintf(w, "vs labels  ARI %.4f, NMI %.4f, misclassified %d of %d (best one-to-one matching)\n", ari, nmi, mis, len(l))
		}
	}
}
