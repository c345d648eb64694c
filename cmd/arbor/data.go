package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
)

// dataFlags are the data-loading flags shared by every command.
type dataFlags struct {
	path     string
	label    string
	id       string
	ignore   string
	features string
	noHeader bool
	sep      string
	markers  string
	scale    string
	impute   string

	scaler *dataset.Scaler // the scaling fitted on the data, for new points

	// flags is the command's flag set (when register got one): load reads
	// its --quiet, which silences the reading notice but not its warnings.
	flags *flag.FlagSet

	// labelOptional (unsupervised commands): a file without a label
	// column found by name is read as features only; an explicit
	// --label NAME must still exist.
	labelOptional bool
	// missingOK: the command's method uses missing values (NaN); without
	// it a file with missing values is an error naming the cells.
	missingOK bool
	// command names the command in messages.
	command string
	// multiLabel: the command reads multi-label data (dataset.Sets);
	// others refuse it rather than take each row's first class.
	multiLabel bool
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
	fsFlags.StringVar(&d.path, "data", "", "data file (delimited text: comma, tab, semicolon or blank separated, header optional; or LIBSVM text; .gz ok), or an embedded set: "+strings.Join(dataset.EmbeddedNames(), ", "))
	fsFlags.StringVar(&d.label, "label", "", "label column: a header name or 1-based position, or none (default: a column named label, class, target or y, any case)")
	fsFlags.StringVar(&d.id, "id", "", "ID column (name or position): never a feature, carried into every output file")
	fsFlags.StringVar(&d.ignore, "ignore", "", "columns to skip, comma-separated names or positions (text columns such as sample descriptions)")
	fsFlags.StringVar(&d.features, "features", "", "feature columns, comma-separated names, positions or ranges A..B (default: every column but the label, ID and ignored ones)")
	fsFlags.BoolVar(&d.noHeader, "no-header", false, "the first row is data, not column names (columns are then c1, c2, … or positions)")
	fsFlags.StringVar(&d.sep, "sep", "", "separator: comma, tab, semicolon, pipe or whitespace (default: found from the first lines)")
	fsFlags.StringVar(&d.markers, "unlabeled-marker", "", `label cells that mark an unlabelled row, comma-separated, e.g. -1 (scikit-learn) or NA; an empty cell always does (default "?,NA")`)
	fsFlags.StringVar(&d.scale, "scale", defaultScale, "feature scaling: none, std (z-score over all rows) or minmax")
	fsFlags.StringVar(&d.impute, "impute", "none", "fill missing feature values (empty, NA, ?, NaN cells) before scaling: none (missing values are an error, except for rbf-missing), mean, median, most_frequent (each column's, over all rows, as scikit-learn's SimpleImputer) or zero; new points and saved models use the same values")
}

// options turns the flags into reader options.
func (d *dataFlags) options() (dataset.CSVOptions, error) {
	opt := dataset.CSVOptions{
		Label:         d.label,
		NoLabel:       d.label == "none",
		ID:            d.id,
		NoHeader:      d.noHeader,
		Sep:           d.sep,
		LabelOptional: d.labelOptional && d.label == "",
		AllowMissing:  true,
	}
	if _, err := dataset.ParseSep(d.sep); err != nil {
		return opt, usageError("--sep: %v", err)
	}
	if d.ignore != "" {
		opt.Ignore = strings.Split(d.ignore, ",")
	}
	if d.features != "" {
		opt.Features = strings.Split(d.features, ",")
	}
	if d.markers != "" {
		opt.Unlabeled = strings.Split(d.markers, ",")
		for i, m := range opt.Unlabeled {
			if strings.EqualFold(strings.TrimSpace(m), "empty") {
				opt.Unlabeled[i] = ""
			}
		}
	}
	return opt, nil
}

// dataOnlyFlags are the flags that only make sense with a file (not an
// embedded set).
func (d *dataFlags) fileFlagsGiven() string {
	switch {
	case d.id != "":
		return "--id"
	case d.ignore != "":
		return "--ignore"
	case d.features != "":
		return "--features"
	case d.noHeader:
		return "--no-header"
	case d.sep != "":
		return "--sep"
	}
	return ""
}

// load reads the data set, tells on e's stderr how it was read (which
// columns are features, the label, IDs, missing values) and applies the
// scaling. A path that is not a file but names an embedded set loads the
// embedded set.
func (d *dataFlags) load(e *env) (*dataset.Dataset, error) {
	if d.path == "" {
		return nil, usageError("--data is required")
	}
	opt, err := d.options()
	if err != nil {
		return nil, err
	}
	var ds *dataset.Dataset
	_, statErr := os.Stat(d.path)
	switch {
	case statErr == nil:
		ds, err = dataset.Load(d.path, opt)
		if err != nil {
			return nil, d.explainReadError(err)
		}
	case errors.Is(statErr, fs.ErrNotExist) && isEmbedded(d.path):
		if f := d.fileFlagsGiven(); f != "" {
			return nil, usageError("%s applies to data files, not the embedded set %s", f, d.path)
		}
		ds, err = dataset.Embedded(strings.TrimPrefix(d.path, "embedded:"))
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("--data %s: %w (embedded sets: %s)", d.path, statErr, strings.Join(dataset.EmbeddedNames(), ", "))
	}
	if e != nil {
		describeData(e.stderr, ds, d.quiet())
	}
	prep, err := d.prep().Apply(ds)
	if e != nil && !d.quiet() && prep.Imputed > 0 {
		by := map[string]string{"mean": "each column's mean", "median": "each column's median", "most_frequent": "each column's most frequent value", "zero": "0"}[d.impute]
		fmt.Fprintf(e.stderr, "  imputed   %d missing values in %d columns by %s (--impute %s)\n", prep.Imputed, prep.ImputedColumns, by, d.impute)
	}
	switch {
	case errors.Is(err, dataset.ErrUnknownImpute):
		return nil, usageError("--impute: %v", err)
	case errors.Is(err, dataset.ErrUnknownScale):
		return nil, usageError("--scale: %v", err)
	case errors.Is(err, dataset.ErrMultiLabel):
		return nil, fmt.Errorf("%w: `arbor eval --metric bep` evaluates it (knn and lp learners); this command needs one class per row", err)
	case err != nil:
		return nil, magnitudeHint(err)
	}
	d.scaler = prep.Scaler
	return ds, nil
}

// prep is what load does to the data after reading them.
func (d *dataFlags) prep() dataset.Prep {
	p := dataset.Prep{Impute: d.impute, Scale: d.scale, AllowMissing: d.missingOK, MultiLabel: d.multiLabel, Method: d.command, MissingHint: missingHint}
	if p.Method == "" {
		p.Method = "this command"
	}
	return p
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
// (dataset.LoadNew); its labels are optional.
func (d *dataFlags) loadTest(path string, train *dataset.Dataset) (*dataset.Dataset, error) {
	opt, err := d.options()
	if err != nil {
		return nil, err
	}
	ds, err := dataset.LoadNew(path, train, opt)
	if err != nil {
		return nil, d.explainReadError(err)
	}
	if err := d.prep().CheckNew(ds, d.scaler); err != nil {
		return nil, magnitudeHint(err)
	}
	return ds, nil
}

// explainReadError adds what to do to a reader's error: a text column
// among the features wants a role.
func (d *dataFlags) explainReadError(err error) error {
	var pe *dataset.ParseError
	if errors.As(err, &pe) && errors.Is(err, dataset.ErrNotNumber) && pe.Column != "" && pe.Column != "label" && len(pe.TextColumns) > 0 {
		return textColumnsError(err, pe, d.id == "", d.label == "" && pe.LabelColumn == "")
	}
	if errors.As(err, &pe) && errors.Is(err, dataset.ErrNotNumber) && pe.Column != "" && pe.Column != "label" {
		return fmt.Errorf("%w (if column %q is not a feature: --id %s keeps it as row IDs, --ignore %s skips it, --label %s makes it the classes)",
			err, pe.Column, shellWord(pe.Column), shellWord(pe.Column), shellWord(pe.Column))
	}
	if errors.Is(err, dataset.ErrNoLabelColumn) {
		return fmt.Errorf("%w; name it with --label NAME", err)
	}
	return err
}

// textColumnsError names every text column of the row at once (a file
// with an ID, a date, a note and a class column would otherwise take four
// runs to learn them), with an example of roles: the first as IDs, the
// last as the classes, the others ignored.
// An --id or --label the user gave is not suggested again.
func textColumnsError(err error, pe *dataset.ParseError, suggestID, suggestLabel bool) error {
	cols := append([]string{pe.Column}, pe.TextColumns...)
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = strconv.Quote(c)
	}
	list := strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	var eg []string
	rest := cols
	if suggestID {
		eg = append(eg, "--id "+shellWord(rest[0]))
		rest = rest[1:]
	}
	var label string
	if suggestLabel && len(rest) > 0 {
		label = "--label " + shellWord(rest[len(rest)-1])
		rest = rest[:len(rest)-1]
	}
	if len(rest) > 0 {
		eg = append(eg, "--ignore "+shellWord(strings.Join(rest, ",")))
	}
	if label != "" {
		eg = append(eg, label)
	}
	return fmt.Errorf("%w; columns %s hold text on that line: give each a role (--id NAME keeps one as row IDs, --ignore A,B skips columns, --label NAME makes one the classes), e.g. %s",
		err, list, strings.Join(eg, " "))
}

// shellWord quotes s for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"$`\\|&;()<>*?[]#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// scaleNew scales new points in place with the data's statistics (as
// scikit-learn's transform after fit).
func (d *dataFlags) scaleNew(ds *dataset.Dataset) error {
	_, err := d.scaler.Transform(ds.X, ds.X)
	return err
}

func isEmbedded(name string) bool {
	return slices.Contains(dataset.EmbeddedNames(), strings.TrimPrefix(name, "embedded:"))
}

// magnitudeHint adds the remedy to an ErrMagnitude error.
func magnitudeHint(err error) error {
	var pe *dataset.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, dataset.ErrMagnitude) {
		return err
	}
	return fmt.Errorf("%w; rescale that column (e.g. to other units) or drop it (--ignore %s)", err, shellWord(pe.Column))
}
