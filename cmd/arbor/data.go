package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/dataset"
)

// dataFlags are the data-loading flags shared by every command, read into
// dataset.Options; a command sets the options no flag gives (Prep.Method
// names it in messages; LabelOptional, Prep.AllowMissing, Prep.MultiLabel:
// what its method takes).
type dataFlags struct {
	dataset.Options
	scaler *dataset.Scaler // the scaling fitted on the data, for new points
	// flags is the command's flag set (register sets it): load reads
	// its --quiet, which silences the reading notice but not its warnings.
	flags *flag.FlagSet
}

// missingHint says which methods take missing values.
const missingHint = "--impute mean (or median, most_frequent, zero) fills them as scikit-learn's SimpleImputer, and a saved model fills new rows the same way; arbor treelets and arbor cluster --method treelets also take them as they are with --kernel rbf-missing:GAMMA (the missing-data RBF kernel of paper 004 §4.3)"

// register defines the data flags on fs (dataset.Options.AddFlags) but
// those in skip.
func (d *dataFlags) register(fs *flag.FlagSet, defaultScale string, skip ...string) {
	d.flags = fs
	d.Prep.MissingHint = missingHint
	d.Options.AddFlags(fs, defaultScale, skip...)
}

// load reads the data set (dataset.Options.Load: a file, "-" for e's
// standard input, or an embedded set of that name), tells on e's stderr
// how it was read (which columns are features, the label, IDs, missing
// values; with --quiet only the warnings) and applies the imputation and
// scaling. A later loadTest reads "-" from the same standard input.
func (d *dataFlags) load(e *env) (*dataset.Dataset, error) {
	if d.Path == "" {
		return nil, usageError("--data is required")
	}
	d.Stdin = e.stdin
	ds, rep, err := d.Options.Load()
	fmt.Fprint(e.stderr, rep.Notices(d.quiet()))
	d.scaler = rep.Scaler
	return ds, dataError(err)
}

// dataError makes the mistakes in data flags usage errors (exit status 2)
// and says which commands take multi-label data.
func dataError(err error) error {
	switch {
	case errors.Is(err, dataset.ErrOption):
		return usageError("%v", err)
	case errors.Is(err, dataset.ErrMultiLabel):
		return fmt.Errorf("%w: `arbor eval --metric bep` evaluates it (knn and lp learners); this command needs one class per row", err)
	}
	return err
}

// quiet reports whether the command's --quiet flag is set.
func (d *dataFlags) quiet() bool {
	f := d.flags.Lookup("quiet")
	return f != nil && f.Value.String() == "true"
}

// loadTest reads a file of new points ("-": standard input) with the
// data's column roles (dataset.Options.LoadNew; its labels are optional),
// after load, readies it for the
// training set train (Dataset.MatchNew, its notes on log) and scales it
// with the data's statistics (as scikit-learn's transform after fit).
func (d *dataFlags) loadTest(path string, train *dataset.Dataset, log io.Writer) (*dataset.Dataset, error) {
	ds, err := d.Options.LoadNew(path, train, d.scaler)
	if err != nil {
		return nil, dataError(err)
	}
	if err := train.MatchNew(ds, path, log); err != nil {
		return nil, err
	}
	_, err = d.scaler.Transform(ds.X, ds.X)
	return ds, err
}
