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

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
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
	imp, err := d.imputeData(e, ds)
	if err != nil {
		return nil, err
	}
	if !d.missingOK {
		what := d.command
		if what == "" {
			what = "this command"
		}
		if err := ds.MissingError(what, missingHint); err != nil {
			return nil, err
		}
	}
	if err := checkMultiLabel(ds, d.multiLabel); err != nil {
		return nil, err
	}
	if err := checkMagnitude(ds); err != nil {
		return nil, err
	}
	sc, err := dataset.FitScaler(ds.X, d.scale)
	if err != nil {
		return nil, usageError("--scale: %v", err)
	}
	sc.Impute = imp
	if ds.X, err = sc.Transform(nil, ds.X); err != nil {
		return nil, err
	}
	d.scaler = sc
	return ds, nil
}

// quiet reports whether the command's --quiet flag is set.
func (d *dataFlags) quiet() bool {
	if d.flags == nil {
		return false
	}
	f := d.flags.Lookup("quiet")
	return f != nil && f.Value.String() == "true"
}

// loadTest reads a file of new points with the data's column roles; its
// labels are optional.
func (d *dataFlags) loadTest(path string, train *dataset.Dataset) (*dataset.Dataset, error) {
	opt, err := d.options()
	if err != nil {
		return nil, err
	}
	opt.OneRow = true
	opt.LabelOptional = d.label == "" || d.label == "none"
	opt = testColumns(path, train, opt)
	ds, err := dataset.Load(path, opt)
	if errors.Is(err, dataset.ErrNoLabelColumn) {
		// New points need no labels: a file of features alone is fine.
		opt.NoLabel = true
		ds, err = dataset.Load(path, opt)
	}
	if err != nil {
		return nil, d.explainReadError(err)
	}
	if d.scaler != nil && d.scaler.Impute != nil {
		// Filled by scaleNew with the data's values.
		ds.Missing = nil
	}
	if !d.missingOK {
		if err := ds.MissingError(d.command, missingHint); err != nil {
			return nil, err
		}
	}
	if err := checkMagnitude(ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// imputeData fits --impute's values on ds and fills its missing cells
// (nil, nil for --impute none), saying on stderr how many it filled.
func (d *dataFlags) imputeData(e *env, ds *dataset.Dataset) (*dataset.Imputer, error) {
	imp, err := dataset.FitImputer(ds.X, d.impute, ds.Features)
	if err != nil {
		if errors.Is(err, dataset.ErrUnknownImpute) {
			return nil, usageError("--impute: %v", err)
		}
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	if imp == nil {
		return nil, nil
	}
	n, err := imp.Transform(ds.X)
	if err != nil {
		return nil, err
	}
	cols := map[int]bool{}
	for _, c := range ds.Missing {
		cols[c.Col] = true
	}
	ds.Missing = nil
	if e != nil && !d.quiet() && n > 0 {
		by := map[string]string{"mean": "each column's mean", "median": "each column's median", "most_frequent": "each column's most frequent value", "zero": "0"}[d.impute]
		fmt.Fprintf(e.stderr, "  imputed   %d missing values in %d columns by %s (--impute %s)\n", n, len(cols), by, d.impute)
	}
	return imp, nil
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
func (d *dataFlags) scaleNew(X *mat.Dense) error {
	_, err := d.scaler.Transform(X, X)
	return err
}

func isEmbedded(name string) bool {
	name = strings.TrimPrefix(name, "embedded:")
	for _, n := range dataset.EmbeddedNames() {
		if n == name {
			return true
		}
	}
	return false
}

// specsTakeMissing reports whether every kernel of specs uses missing
// values (the missing-data RBF kernel); a learner without a kernel does not.
func specsTakeMissing(specs []kernel.Spec, usesKernel bool) bool {
	if !usesKernel || len(specs) == 0 {
		return false
	}
	for _, s := range specs {
		if !strings.HasPrefix(s.String(), "rbf-missing") {
			return false
		}
	}
	return true
}

// testColumns picks the columns of a --test file with a header by the
// training features' names, as arbor predict does (pipeline.Stream): every
// column that is not a training feature, the label column or the ID
// column is left unread (a text column, an extra measurement), and
// --ignore names only the training file's columns (one the test file
// lacks is no error). A file without a header, or one that lacks a
// training feature, is read with opt unchanged (by position; the feature
// count is then checked).
func testColumns(path string, train *dataset.Dataset, opt dataset.CSVOptions) dataset.CSVOptions {
	if train == nil || len(opt.Features) > 0 || isSparseText(path) {
		return opt
	}
	r, err := dataset.Open(path)
	if err != nil {
		return opt // Load reports it
	}
	defer r.Close()
	header, src, err := dataset.ReadHeader(r, path, opt)
	if err != nil || !src.Header {
		return opt
	}
	unread, absent := dataset.Unread(header, train.Features, opt.Label, train.LabelName, opt.ID, train.IDName)
	if len(absent) > 0 {
		return opt
	}
	opt.Ignore = unread
	if opt.Label == "" && train.LabelName != "" && slices.Contains(header, train.LabelName) {
		opt.Label = train.LabelName
	}
	if opt.ID == "" && train.IDName != "" && slices.Contains(header, train.IDName) {
		opt.ID = train.IDName
	}
	return opt
}
