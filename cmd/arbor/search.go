package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/modelselect"
)

func init() {
	register(command{name: "search", summary: "grid search with k-fold cross-validation on the labelled rows; refit the best setting", run: runSearch})
}

func runSearch(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "search", "--data F --kernel K1,K2,... --learner svm,knn [--C 0.1,1,10] [--k 1-15] [--cv 5 | --folds FILE] [--scoring accuracy] [--save-model m.arbor] [--json]")
	var d dataFlags
	d.register(fs, "std")
	d.Prep.Method = "arbor search"
	var mf memFlags
	mf.register(fs)
	var kf kernelFlags
	kf.register(fs, "linear")
	exact, _ := learner.List(false, ", ")
	fams := fs.String("learner", "svm", "learner families to search, comma-separated: "+exact+"; each searches the settings it reads")
	given := modelselect.AddListFlags(fs)
	cv := fs.Int("cv", 5, "number of folds over the labelled rows")
	method := fs.String("fold-method", modelselect.Stratified, "folds: stratified (scikit-learn's StratifiedKFold: class proportions kept) or kfold (KFold: consecutive labelled rows)")
	shuffle := fs.Bool("shuffle", false, "shuffle the labelled rows (within each class for stratified) before making folds, with --seed (Arbor's own draw, not NumPy's: give --folds to reproduce a peer's shuffled folds)")
	foldsPath := fs.String("folds", "", "file of folds: one line of comma-separated 0-based row indices (the held-out labelled rows) per fold; instead of --cv; - is standard input")
	saveFolds := fs.String("save-folds", "", "write the folds used to this file (the --folds format)")
	scoring := fs.String("scoring", modelselect.Accuracy, "accuracy, breakeven (micro-averaged precision–recall breakeven of the class scores: knn, lp) or breakeven-macro")
	seed := fs.Uint64("seed", 0, "seed of --shuffle and of the learners that draw (s4vm, hibust)")
	saveModel := fs.String("save-model", "", "refit the best setting on every labelled row and save the pipeline (with the setting chosen) for arbor predict")
	asJSON := fs.Bool("json", false, "print one JSON object per setting (scikit-learn's cv_results_ names) instead of the table")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, f := range []string{"cv", "fold-method", "shuffle"} {
		if flagGiven(fs, f) && *foldsPath != "" {
			return usageError("--%s and --folds are mutually exclusive (the file gives the folds)", f)
		}
	}
	grids, err := modelselect.Grids(*fams, given)
	if err != nil {
		return settingsError(err)
	}
	specs, err := kf.specs()
	if err != nil {
		return err
	}
	modelselect.SetKernels(grids, specs)
	if err := checkStdin("data", d.Path, "folds", *foldsPath); err != nil {
		return err
	}
	if err := checkOutputs("data", d.Path, "save-model", *saveModel, "save-folds", *saveFolds); err != nil {
		return err
	}
	d.Prep.MultiLabel = *scoring != modelselect.Accuracy
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	if err := ds.CheckTwoClasses(); err != nil {
		return err
	}
	folds, cvText, err := modelselect.FoldChoice{K: *cv, Method: *method, Shuffle: *shuffle, Seed: *seed, Path: *foldsPath, Stdin: e.stdin}.Folds(ds.Y)
	if err != nil {
		if errors.Is(err, modelselect.ErrFolds) && *foldsPath == "" {
			return usageError("%s: %v", ds.Name, err)
		}
		return err
	}
	if *foldsPath == "" && *method != modelselect.Plain {
		for _, c := range modelselect.SmallClasses(ds.Y, *cv) {
			fmt.Fprintf(e.stderr, "warning: class %q has fewer labelled rows than the %d folds: some folds hold none of it\n", ds.Classes[c], *cv)
		}
	}
	if *saveFolds != "" {
		if err := atomicfile.Write(*saveFolds, func(f *os.File) error { return folds.Write(f) }); err != nil {
			return err
		}
	}
	start := time.Now()
	s := modelselect.Search{Grids: grids, Folds: folds, CV: cvText, Scoring: *scoring, Scaler: d.scaler, Seed: *seed,
		Refit: *saveModel != "", Progress: e.progress(*quiet), Log: e.stderr}
	need, what, err := s.Bytes(ds)
	if err != nil {
		return settingsError(err)
	}
	if err := mf.check(need, what, ""); err != nil {
		return err
	}
	res, err := s.Run(ctx, ds)
	if err != nil {
		return settingsError(err)
	}
	if err := savePipeline(io.Discard, *saveModel, res); err != nil {
		return err
	}
	if *asJSON {
		return res.WriteJSON(e.stdout)
	}
	fmt.Fprintf(e.stdout, "data: %s (%d rows, %d labelled, %d features, %d classes), scale %s\n", displayName(ds.Name), ds.Len(), len(ds.Labeled()), ds.Dim(), len(ds.Classes), d.Prep.Scale)
	fmt.Fprintf(e.stdout, "cv: %s (%d folds); %s on the held-out rows: mean and population std over the folds\n\n", cvText, len(folds), res.Scoring)
	if err := res.WriteTable(e.stdout); err != nil {
		return err
	}
	if *saveModel != "" {
		fmt.Fprintf(e.stdout, "model: %s (the best setting refit with all %d labelled rows)\n", *saveModel, len(ds.Labeled()))
	}
	if !*quiet {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}
