package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/arbor-ml/arbor/figure/svcfig"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/svcluster"
)

func init() {
	register(command{name: "svc", summary: "support vector clustering (Ben-Hur et al.) at one (q, C) or as a hierarchy over q", run: runSVC})
}

func runSVC(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "svc", "--data F [--label NAME] [--scale std|minmax|none] [--pca N] [--kernel gaussian|exponential] "+
		"(--q Q --C C | --sweep [--clusters K]) [--labelling complete|sv|knn|cone] --out labels.csv [--tree T.json] [--plot P.png]")
	var lmf landmarkFlags
	d, mf := clusterInputs(fs, "arbor svc", &lmf)
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
	if err := checkOutputs("data", d.Path, "out", *out, "tree", *tree, "plot", *plot); err != nil {
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
	switch {
	case lmf.m > ds.Len():
		return usageError("--landmarks %d: more than the %d rows", lmf.m, ds.Len())
	case lmf.m > 0 && *plot != "":
		return usageError("--plot draws the fitted rows; it does not go with --landmarks")
	}
	// The SVDD's column cache and the labelling's capped tables, no N×N
	// matrix (a sample of --landmarks M rows fits M).
	fitRows, what, hint := svcluster.MemoryAdvice(ds.Len(), lmf.m)
	if err := mf.check(svcluster.Bytes(fitRows, ds.Dim()), what, hint); err != nil {
		return err
	}
	if !*quiet {
		if note := svcluster.WorkNotice(fitRows, func() float64 { return svcluster.PairTime(ds.X) }, func(m int) string {
			if lmf.m > 0 {
				return "fewer --landmarks fit fewer rows"
			}
			return fmt.Sprintf("--landmarks %d fits the sphere and clusters on %d sampled rows", m, m)
		}); note != "" {
			fmt.Fprintln(e.stderr, note)
		}
	}
	progress := e.progress(*quiet)
	s := svcluster.Settings{PCA: *pca, Landmarks: lmf.m, LandmarkMethod: lmf.method, Seed: lmf.seed, Log: e.stderr}
	if *sweep {
		s.Sweep = &svcluster.Sweep{Kernel: kind, Labelling: lab, Samples: *samples, K: *knnK, Unassigned: *noise,
			QFactor: *qfactor, MaxError: *maxErr, Clusters: *clusters, MinCluster: *minCluster, PStep: *pstep, PMax: *pmax, Progress: progress}
	} else {
		cval := *C
		if set["p"] {
			cval = 1 / (float64(fitRows) * *p)
		}
		s.Clusterer = svcluster.Clusterer{Q: *q, C: cval, Kernel: kind, Labelling: lab, Samples: *samples, K: *knnK, Unassigned: *noise, Progress: progress}
	}
	in, err := s.Prepare(ctx, ds.X)
	if pe := (*svcluster.PCAError)(nil); errors.As(err, &pe) {
		return fmt.Errorf("--pca %d: %w", pe.K, pe.Err)
	} else if err != nil {
		return err
	}
	if _, dim := in.X.Dims(); *plot != "" && dim != 2 && !*sweep {
		return usageError("--plot: contour pictures need 2-D data (%d features; try --pca 2)", dim)
	}
	start := time.Now()
	info := e.summary(*out) // stderr when the labels take stdout
	if err := s.WriteHeader(info, ds.Name, ds.Len(), ds.Dim(), d.Prep.Scale); err != nil {
		return err
	}
	fit, err := in.Fit(ctx)
	if err != nil {
		return err
	}
	res, h := fit.Clustering, fit.Hierarchy
	if err := in.WriteReport(info, e.stderr, fit, ds.Y, sizesText); err != nil {
		return err
	}
	var batch atomicfile.Batch // all outputs or none
	defer batch.Abort()
	if err := batch.WriteOut(*out, e.stdout, func(w io.Writer) error { return ds.WriteLabels(w, "cluster", res.Labels) }); err != nil {
		return err
	}
	if *tree != "" {
		if err := batch.Write(*tree, func(f *os.File) error { return h.WriteJSON(f) }); err != nil {
			return err
		}
	}
	if *plot != "" {
		fig, err := svcfig.Clustering(in.X, res, h, displayName(ds.Name), svcfig.Axes(*pca > 0, ds.Features))
		if errors.Is(err, svcfig.ErrNot2D) {
			_, d := in.X.Dims()
			return usageError("--plot: contour pictures need 2-D data (%d features; try --pca 2)", d)
		}
		if err != nil {
			return err
		}
		if err := batch.Write(*plot, func(f *os.File) error { return fig.WriteTo(f, filepath.Ext(*plot)) }); err != nil {
			return err
		}
	}
	if err := batch.Commit(); err != nil {
		return err
	}
	printWrote(info, *out, *tree, *plot)
	e.done(progress, start)
	return nil
}
