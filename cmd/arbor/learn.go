package main

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/pipeline"
	"os"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

func init() {
	register(command{name: "classify", summary: "label the unlabelled rows (and new points with --test) with a kernel learner", run: runClassify})
	register(command{name: "eval", summary: "hide labels as told, run kernels × learners, report accuracy on the hidden rows", run: runEval})
}

func runClassify(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "classify", "--data F --kernel K [params] --learner svm|knn|lp|spreading|s4vm|hibust [--test F2] --out predictions.csv")
	var d dataFlags
	d.register(fs, "std")
	var mf memFlags
	mf.register(fs)
	d.Prep.Method = "arbor classify"
	var kf kernelFlags
	kf.register(fs, "linear")
	var lf learnerFlags
	exact, lm := learner.List(true, " or ")
	lf.register(fs, "learner: "+exact+" (one; arbor eval compares several); with --landmarks also "+lm)
	var tf treeFlags // hibust: --tree, --dendrogram (hibustflags.go)
	tf.register(fs)
	test := fs.String("test", "", "new points (same columns; labels ignored) to label through the out-of-sample extension (see --extension); - is standard input")
	var lmf landmarkFlags
	lmf.register(fs)
	extension := fs.String("extension", kernel.RuleTree, "out-of-sample rule of the cluster kernels (hck, hckg, connectivity) for --test: tree (the point enters the dendrogram through its nearest training point; exact for single linkage) or linear (paper 000 §3.5, linear in the features)")
	out := fs.String("out", "-", "write predictions (CSV: set,row[,id],label,given) to this file; - is standard output (the summary then goes to stderr)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	f32 := fs.Bool("float32", false, float32Usage)
	saveModel := fs.String("save-model", "", "save the fitted pipeline (scaling, kernel, training rows, model) to this file for arbor predict (format: package pipeline)")
	var pf plotFlags
	pf.register(fs, "the training rows coloured by their label after classify, the labelled rows ringed")
	proba := fs.Bool("proba", false, probaUsage)
	decision := fs.Bool("decision", false, decisionUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	lf.seed = lmf.seed // --seed also seeds s4vm's draws
	learners, err := lf.learners(true, lmf.m)
	if err != nil {
		return err
	}
	ln := learners[0]
	if err := tf.check(ln); err != nil {
		return err
	}
	specs, err := kf.specs()
	if err != nil {
		return err
	}
	if len(specs) != 1 {
		return usageError("classify uses one kernel; got %d", len(specs))
	}
	if *extension != kernel.RuleTree && *extension != kernel.RuleLinear {
		return usageError("--extension %q: want tree or linear", *extension)
	}
	info := e.stdout // the summary; stderr when the predictions take stdout
	if *out == "-" || *out == "" {
		info = e.stderr
	}
	if err := pf.check(); err != nil {
		return err
	}
	if err := checkOutputs("data", d.Path, "test", *test, "out", *out, "tree", tf.tree, "dendrogram", tf.dendrogram, "save-model", *saveModel, "plot", pf.path); err != nil {
		return err
	}
	if err := pipeline.Savable(ln, lmf.m); err != nil && *saveModel != "" {
		return usageError("--save-model: %v", err)
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	if err := pipeline.CheckTraining(ds, *test != "" || *saveModel != "" || *proba || *decision); err != nil {
		return err
	}
	var Xt *dataset.Dataset
	if *test != "" {
		// One new point is a fine test set; its labels are optional.
		if Xt, err = d.loadTest(*test, ds, e.stderr); err != nil {
			return err
		}
	}
	set := pipeline.Settings{Scaler: d.scaler, Learner: lf.learner, Landmarks: lmf.m, LandmarkMethod: lmf.method, Seed: lmf.seed,
		Rule: *extension, Float32: *f32, Log: e.stderr, Hold: memory.HoldHeapNear, Proba: *proba, Decision: *decision}
	if set.MemoryBudget, set.MemoryBudgetSource, err = mf.budget(); err != nil {
		return err
	}
	est, err := pipeline.CostLearner(set, specs[0], ln, learner.Family(lf.learner), pipeline.ShapeOf(ds, Xt))
	if err != nil {
		return settingsError(err)
	}
	if err := est.Err(); err != nil {
		return err
	}
	method := set.Method(specs[0], ln, learner.Family(lf.learner))
	onPoints, knnPoints := method == "svm on points", method == "knn on points"
	progress := e.progress(*quiet)
	set.Progress = progress
	start := time.Now()
	if *f32 && (onPoints || knnPoints) {
		fmt.Fprintf(e.stderr, "note: --float32 has no effect here: %s on the point kernel %s holds no N×N matrix (kernel values computed on demand)\n", lf.learner, specs[0])
	}
	if method == "float32 kernel matrix" || method == "kernel matrix" {
		if !(Xt != nil && *extension == kernel.RuleLinear && specs[0].Kind != kernel.KindPoint && *f32) {
			e.announceSpecs(*quiet, specs, ds.Len())
		}
	}
	fit, err := pipeline.FitLearner(ctx, set, specs[0], ln, learner.Family(lf.learner), ds, Xt.Points())
	if err != nil {
		return settingsError(err)
	}
	if err := fit.WriteSummary(info, Xt); err != nil {
		return err
	}
	if *out == "-" || *out == "" {
		if err := fit.WriteCSV(e.stdout, Xt); err != nil {
			return err
		}
	} else {
		if err := atomicfile.Write(*out, func(f *os.File) error { return fit.WriteCSV(f, Xt) }); err != nil {
			return err
		}
		fmt.Fprintf(info, "wrote    %s\n", *out)
	}
	if err := tf.write(info, fit.Model, ds.Classes); err != nil {
		return err
	}
	if err := pf.writeLabels(info, ds, fit.Labels, fmt.Sprintf("%s: %s, %d labelled rows", displayName(ds.Name), lf.learner, len(ds.Labeled()))); err != nil {
		return err
	}
	if err := savePipeline(info, *saveModel, fit); err != nil {
		return err
	}
	if progress != nil {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}

func runEval(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "eval", "--data F (--labeled-per-class N --repeats R --seed S | --splits FILE [--split-line I]) --kernel ... --learner ... [--json]")
	var d dataFlags
	d.register(fs, "std")
	var mf memFlags
	mf.register(fs)
	lmf := landmarkFlags{sharedSeed: true}
	lmf.register(fs)
	d.Prep.Method = "arbor eval"
	var kf kernelFlags
	kf.register(fs, "linear")
	var lf learnerFlags
	exact, lm := learner.List(true, ", ")
	lf.register(fs, "learners, comma-separated: "+exact+"; with --landmarks also "+lm)
	perClass := fs.Int("labeled-per-class", 0, "labelled points drawn per class (min(N, n_c−1), as the reference pipeline)")
	repeats := fs.Int("repeats", 5, "number of random splits (seeds S, S+1, …)")
	seed := fs.Uint64("seed", 0, "first seed (NumPy RandomState-compatible: the peer's splits)")
	splitsPath := fs.String("splits", "", "file of splits: one line of comma-separated 0-based labelled row indices per split; or usps:10 / usps:100 for the embedded official splits; - is standard input")
	splitLine := fs.Int("split-line", 0, "use only this line (1-based) of --splits; 0 = all lines")
	asJSON := fs.Bool("json", false, "print one JSON object per method and split instead of the table")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	metric := fs.String("metric", "accuracy", "accuracy, or bep: micro/macro precision–recall breakeven from class scores (knn, lp; multi-label data too, paper 002 Table 2)")
	f32 := fs.Bool("float32", false, float32Usage+"; eval builds one kernel at a time")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	lf.seed = *seed // s4vm's draws: the first split's seed
	var learners []learner.Learner
	var scorers []ssl.SetScorer
	var err error
	switch *metric {
	case "accuracy":
		if learners, err = lf.learners(false, lmf.m); err != nil {
			return err
		}
	case "bep":
		d.Prep.MultiLabel = true
		if scorers, err = ssl.SetScorers(lf.learner, lf.values()); err != nil {
			return settingsError(err)
		}
	default:
		return usageError("--metric must be accuracy or bep, got %q", *metric)
	}
	specs, err := kf.specs()
	if err != nil {
		return err
	}
	set := pipeline.EvalSettings{Kernels: specs, Learners: learners, Metric: *metric, Landmarks: lmf.m, LandmarkMethod: lmf.method,
		Seed: *seed, Float32: *f32, Progress: e.progress(*quiet), Log: e.stderr}
	if err := set.Check(); err != nil {
		return settingsError(err)
	}
	if err := checkStdin("data", d.Path, "splits", *splitsPath); err != nil {
		return err
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	if err := ds.CheckTwoClasses(); err != nil {
		return err
	}
	if set.MemoryBudget, set.MemoryBudgetSource, err = mf.budget(); err != nil {
		return err
	}
	est, err := pipeline.EvalCost(set, pipeline.EvalShape(ds, *perClass))
	if err != nil {
		return settingsError(err)
	}
	if err := est.Err(); err != nil {
		return err
	}
	if u := ds.UnlabeledRows(); len(u) > 0 {
		return fmt.Errorf("%s: eval needs every row labelled to score the hidden ones; %d rows are unlabelled (first: data row %d, counting from 0 after the header); use arbor classify to label them", ds.Name, len(u), u[0])
	}
	splits, protocol, err := pipeline.SplitChoice{PerClass: *perClass, Repeats: *repeats, Seed: *seed, Path: *splitsPath, Line: *splitLine, Log: e.stderr, Stdin: e.stdin}.Splits(ds)
	if err != nil {
		return settingsError(err)
	}
	report := ssl.Report{Dataset: ds.Name, Protocol: protocol, Scale: d.Prep.Scale}
	start := time.Now()
	if *metric == "bep" {
		// Micro- and macro-averaged precision–recall breakeven points over
		// the hidden rows (paper 002 Table 2), for multi-label data (every
		// row's classes) or single-label data (each row's class).
		set.Scorers = scorers
		res, err := pipeline.EvalBEP(ctx, set, ds, splits)
		if err != nil {
			return err
		}
		if *asJSON {
			return report.WriteBEPJSON(e.stdout, res)
		}
		if err := pipeline.WriteEvalBEPTable(e.stdout, ds, report, len(splits), res); err != nil {
			return err
		}
	} else {
		e.announceSpecs(*quiet, specs, ds.Len())
		res, err := pipeline.Eval(ctx, set, ds, splits)
		if lmf.m > 0 {
			err = settingsError(err)
		}
		if err != nil {
			return err
		}
		if *asJSON {
			return report.WriteJSON(e.stdout, res)
		}
		if err := pipeline.WriteEvalTable(e.stdout, ds, report, len(splits), res, lf.values().String("unreachable")); err != nil {
			return err
		}
	}
	if !*quiet {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}
