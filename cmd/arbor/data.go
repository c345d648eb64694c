package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
)

// dataFlags are the data-loading flags shared by every command, read into
// dataset.Options; a command sets the options no flag gives (Prep.Method
// names it in messages; LabelOptional, Prep.AllowMissing, Prep.MultiLabel:
// what its method takes).
type dataFlags struct {
	dataset.Options
	scaler *dataset.Scaler // the scaling fitted on the data, for new points
	// flags is the command's flag set (when register got one): load reads
	// its --quiet, which silences the reading notice but not its warnings.
	flags *flag.FlagSet
}

// missingHint says which methods take missing values.
const missingHint = "--impute mean (or median, most_frequent, zero) fills them as scikit-learn's SimpleImputer, and a saved model fills new rows the same way; arbor treelets and arbor cluster --method treelets also take them as they are with --kernel rbf-missing:GAMMA (the missing-data RBF kernel of paper 004 §4.3)"

func (d *dataFlags) register(fsFlags interface {
	StringVar(p *string, name, value, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}, defaultScale string) {
	if fs, ok := fsFlags.(*flag.FlagSet); ok {
		d.flags = fs
	}
	d.Prep.MissingHint = missingHint
	fsFlags.StringVar(&d.Path, "data", "", "data file (delimited text: comma, tab, semicolon or blank separated, header optional; or LIBSVM text; .gz ok), or an embedded set: "+strings.Join(dataset.EmbeddedNames(), ", "))
	fsFlags.StringVar(&d.Label, "label", "", "label column: a header name or 1-based position, or none (default: a column named label, class, target or y, any case)")
	fsFlags.StringVar(&d.ID, "id", "", "ID column (name or position): never a feature, carried into every output file")
	fsFlags.StringVar(&d.Ignore, "ignore", "", "columns to skip, comma-separated names or positions (text columns such as sample descriptions)")
	fsFlags.StringVar(&d.Features, "features", "", "feature columns, comma-separated names, positions or ranges A..B (default: every column but the label, ID and ignored ones)")
	fsFlags.BoolVar(&d.NoHeader, "no-header", false, "the first row is data, not column names (columns are then c1, c2, … or positions)")
	fsFlags.StringVar(&d.Sep, "sep", "", "separator: comma, tab, semicolon, pipe or whitespace (default: found from the first lines)")
	fsFlags.StringVar(&d.Unlabeled, "unlabeled-marker", "", `label cells that mark an unlabelled row, comma-separated, e.g. -1 (scikit-learn) or NA; an empty cell always does (default "?,NA")`)
	fsFlags.StringVar(&d.Prep.Scale, "scale", defaultScale, "feature scaling: none, std (z-score over all rows) or minmax")
	fsFlags.StringVar(&d.Prep.Impute, "impute", "none", "fill missing feature values (empty, NA, ?, NaN cells) before scaling: none (missing values are an error, except for rbf-missing), mean, median, most_frequent (each column's, over all rows, as scikit-learn's SimpleImputer) or zero; new points and saved models use the same values")
}

// load reads the data set (dataset.Options.Load: a file, or an embedded
// set of that name), tells on e's stderr how it was read (which columns
// are features, the label, IDs, missing values; with --quiet only the
// warnings) and applies the imputation and scaling.
func (d *dataFlags) load(e *env) (*dataset.Dataset, error) {
	if d.Path == "" {
		return nil, usageError("--data is required")
	}
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
	if d.flags == nil {
		return false
	}
	f := d.flags.Lookup("quiet")
	return f != nil && f.Value.String() == "true"
}

// loadTest reads a file of new points with the data's column roles
// (dataset.Options.LoadNew); its labels are optional.
func (d *dataFlags) loadTest(path string, train *dataset.Dataset) (*dataset.Dataset, error) {
	ds, err := d.Options.LoadNew(path, train, d.scaler)
	return ds, dataError(err)
}

// scaleNew scales new points in place with the data's statistics (as
// scikit-learn's transform after fit).
func (d *dataFlags) scaleNew(ds *dataset.Dataset) error {
	_, err := d.scaler.Transform(ds.X, ds.X)
	return err
}
