package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// ErrOption is wrapped by the errors of Options that cannot be used: an
// unknown Sep (ErrBadSep), Prep.Impute (ErrUnknownImpute) or Prep.Scale
// (ErrUnknownScale), named by their flag ("--sep: unknown separator …"),
// and ErrFileOption.
var ErrOption = errors.New("bad data option")

// ErrFileOption: an option that applies to data files only (ID, Ignore,
// Features, NoHeader, Sep, Unlabeled) given with an embedded set, or a
// Label that does not name the embedded set's own label column
// (LoadEmbedded); or an option of delimited text (Label, ID, Ignore,
// Features, NoHeader, Sep) for data read as LIBSVM text.
var ErrFileOption = errors.New("option for data files only")

// optionError is an error of ErrOption that says msg and wraps err.
type optionError struct {
	msg string
	err error
}

func (e optionError) Error() string        { return e.msg }
func (e optionError) Unwrap() error        { return e.err }
func (e optionError) Is(target error) bool { return target == ErrOption }

// optionErr names the flag of an option error.
func optionErr(err error) error {
	for _, o := range []struct {
		flag string
		err  error
	}{{"--sep", ErrBadSep}, {"--impute", ErrUnknownImpute}, {"--scale", ErrUnknownScale}} {
		if errors.Is(err, o.err) {
			return optionError{o.flag + ": " + err.Error(), err}
		}
	}
	return err
}

// Options read and prepare a data set as arbor's commands do from their
// data flags. Lists are comma-separated text as on the command line, and
// each field is the flag of its name (Unlabeled is --unlabeled-marker):
// the remedies that Load's errors and Warnings suggest name those flags.
type Options struct {
	// Path is a data file (Load's formats), Stdin ("-": the data are
	// read from Stdin, ReadData) or, when no such file exists, the name of
	// an embedded set ("iris" or "embedded:iris").
	Path string
	// Stdin is the standard input that Path "-" and LoadNew's path "-"
	// read (nil: ErrNoStdin). It is read once.
	Stdin io.Reader
	// Label is the label column's name or 1-based position; "" finds it
	// (CSVOptions.Label), "none" reads no labels.
	Label string
	// LabelOptional: with Label "", a file with no label column found is
	// read with no labels.
	LabelOptional bool
	// ID names the column of row identifiers, Ignore the columns to skip,
	// Features the feature columns (names, positions or ranges A..B).
	ID, Ignore, Features string
	// NoHeader: the first row is data. Sep is the separator (ParseSep).
	NoHeader bool
	Sep      string
	// Unlabeled lists the label cells that mark an unlabelled row, "empty"
	// for the empty cell; "" means DefaultUnlabeled.
	Unlabeled string
	// Prep is what is done to the data once read; a Method of "" is
	// named "this command" in the missing-values error.
	Prep Prep
}

// CSV returns the reader's options for o. Missing values are kept (Prep
// decides about them). An unknown Sep is ErrBadSep (and ErrOption).
func (o Options) CSV() (CSVOptions, error) {
	opt := CSVOptions{
		Label:         o.Label,
		NoLabel:       o.Label == "none",
		ID:            o.ID,
		NoHeader:      o.NoHeader,
		Sep:           o.Sep,
		LabelOptional: o.LabelOptional && o.Label == "",
		AllowMissing:  true,
		Ignore:        splitList(o.Ignore),
		Features:      splitList(o.Features),
		Unlabeled:     splitList(o.Unlabeled),
	}
	for i, m := range opt.Unlabeled {
		if strings.EqualFold(strings.TrimSpace(m), "empty") {
			opt.Unlabeled[i] = ""
		}
	}
	_, err := ParseSep(o.Sep)
	return opt, optionErr(err)
}

// splitList splits a comma-separated list; "" is nil.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// IsEmbedded reports whether name ("iris" or "embedded:iris") names an
// embedded set.
func IsEmbedded(name string) bool {
	return slices.Contains(embeddedNames, strings.TrimPrefix(name, "embedded:"))
}

// Report says how Load read and prepared the data.
type Report struct {
	Prepared
	// Description is the data's Describe as read (before missing values
	// were filled), "" for an embedded set.
	Description string
	// Warnings are the data's Warnings.
	Warnings []string
	// Imputation is a line like Description's that says how missing
	// values were filled, "" when none were.
	Imputation string
}

// Notices is the report as arbor's commands print it on standard error:
// the Description, each warning on a line "warning: …", the Imputation;
// quiet keeps the warnings only.
func (r Report) Notices(quiet bool) string {
	var b strings.Builder
	if !quiet {
		b.WriteString(r.Description)
	}
	for _, w := range r.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	if !quiet {
		b.WriteString(r.Imputation)
	}
	return b.String()
}

// Load reads the data at o.Path and prepares them with o.Prep. Errors:
// ErrOption; a missing Path that names no embedded set;
// the reader's errors with what to do about them (a text column among
// the features wants a role); Prep.Apply's, ErrMagnitude with what to do.
// The Report tells what was done before an error.
func (o Options) Load() (*Dataset, Report, error) {
	var rep Report
	opt, err := o.CSV()
	if err != nil {
		return nil, rep, err
	}
	var d *Dataset
	_, statErr := os.Stat(o.Path)
	switch {
	case o.Path == Stdin:
		if o.Stdin == nil {
			return nil, rep, fmt.Errorf("--data -: %w to read", ErrNoStdin)
		}
		if d, err = ReadData(o.Stdin, StdinName, opt); err != nil {
			return nil, rep, o.Explain(err)
		}
	case statErr == nil:
		if d, err = Load(o.Path, opt); err != nil {
			return nil, rep, o.Explain(err)
		}
	case errors.Is(statErr, fs.ErrNotExist) && IsEmbedded(o.Path):
		if d, err = LoadEmbedded(o.Path, opt); err != nil {
			return nil, rep, err
		}
	default:
		return nil, rep, fmt.Errorf("--data %s: %w (embedded sets: %s)", o.Path, statErr, strings.Join(embeddedNames, ", "))
	}
	if err := d.CheckOptions(opt); err != nil {
		return nil, rep, err
	}
	rep.Description, rep.Warnings = d.Describe(), d.Warnings()
	rep.Prepared, err = o.prep().Apply(d)
	if rep.Imputed > 0 {
		by := map[string]string{"mean": "each column's mean", "median": "each column's median", "most_frequent": "each column's most frequent value", "zero": "0"}[o.Prep.Impute]
		rep.Imputation = fmt.Sprintf("  imputed   %d missing values in %d columns by %s (--impute %s)\n", rep.Imputed, rep.ImputedColumns, by, o.Prep.Impute)
	}
	if err != nil {
		return nil, rep, optionErr(magnitudeHint(err))
	}
	return d, rep, nil
}

// LoadEmbedded returns the embedded set name ("iris" or "embedded:iris";
// Embedded) for the reader's options opt. An embedded set's columns have
// their roles: opt may name its label column (Label: the column's name,
// any case, or its 1-based position, as ColumnIndex reads them), and
// nothing else. The options of data files only (ID, Ignore, Features,
// NoHeader, Sep, Unlabeled) and a Label naming another column, no column
// or none (NoLabel) are ErrFileOption (and ErrOption), named by their
// flag: "--id applies to data files, not the embedded set iris"; the
// Label's error lists the set's columns. An unknown name is Embedded's
// error.
func LoadEmbedded(name string, opt CSVOptions) (*Dataset, error) {
	if f := fileOption(opt); f != "" {
		return nil, optionError{f + " applies to data files, not the embedded set " + name, ErrFileOption}
	}
	d, err := Embedded(strings.TrimPrefix(name, "embedded:"))
	if err != nil || (opt.Label == "" && !opt.NoLabel) {
		return d, err
	}
	ref := opt.Label
	if ref == "" {
		ref = "none"
	}
	if d.LabelName == "" {
		return nil, optionError{fmt.Sprintf("--label %s: the embedded set %s (LIBSVM text, features %s) has its labels at the start of each line, not in a column: --label cannot name them",
			quote.Shell(ref), name, columnList(d.Features)), ErrFileOption}
	}
	cols := append(slices.Clone(d.Features), d.LabelName)
	if j, ok := ColumnIndex(cols, opt.Label); !ok || j != len(d.Features) || opt.NoLabel {
		return nil, optionError{fmt.Sprintf("--label %s: the embedded set %s (columns %s) has its labels in column %s (%d): --label can name only that column",
			quote.Shell(ref), name, columnList(cols), d.LabelName, len(cols)), ErrFileOption}
	}
	return d, nil
}

// CheckOptions refuses the reader's options opt that d, as it was read,
// cannot have followed: for LIBSVM text those of delimited text, a Label
// (the labels start each line, not a column; none included), ID, Ignore,
// Features, NoHeader and Sep, as ErrFileOption (and ErrOption) naming the
// flag and d. Load ignores them for LIBSVM text; Options.Load checks.
func (d *Dataset) CheckOptions(opt CSVOptions) error {
	if d.Source == nil || d.Source.Format != "libsvm" {
		return nil
	}
	if opt.Label != "" || opt.NoLabel {
		ref := opt.Label
		if ref == "" {
			ref = "none"
		}
		return optionError{fmt.Sprintf("--label %s: %s is LIBSVM text (features %s): its labels are at the start of each line, not in a column, and --label cannot name them",
			quote.Shell(ref), d.Name, columnList(d.Features)), ErrFileOption}
	}
	opt.Unlabeled = nil // markers apply to LIBSVM labels too
	if f := fileOption(opt); f != "" {
		return optionError{fmt.Sprintf("%s applies to delimited text, not to %s, which is LIBSVM text (features %s)", f, d.Name, columnList(d.Features)), ErrFileOption}
	}
	return nil
}

// fileOption names the first option of opt given that applies to files
// only.
func fileOption(opt CSVOptions) string {
	switch {
	case opt.ID != "":
		return "--id"
	case len(opt.Ignore) > 0:
		return "--ignore"
	case len(opt.Features) > 0:
		return "--features"
	case opt.NoHeader:
		return "--no-header"
	case opt.Sep != "":
		return "--sep"
	case len(opt.Unlabeled) > 0:
		return "--unlabeled-marker"
	}
	return ""
}

// columnList lists column names for a message, comma-separated: all of
// them up to eight, else the first two, an ellipsis and the last two.
func columnList(cols []string) string {
	if n := len(cols); n > 8 {
		cols = []string{cols[0], cols[1], "…", cols[n-2], cols[n-1]}
	}
	return strings.Join(cols, ", ")
}

func (o Options) prep() Prep {
	p := o.Prep
	if p.Method == "" {
		p.Method = "this command"
	}
	return p
}

// LoadNew reads new points at path with train's column roles (the
// function LoadNew; their labels are optional) and holds them to
// Prep.CheckNew with sc, the data's scaling. Path Stdin reads o.Stdin,
// once: the first lines, which give the header, are kept and read again
// with the rows. Errors are Load's.
func (o Options) LoadNew(path string, train *Dataset, sc *Scaler) (*Dataset, error) {
	opt, err := o.CSV()
	if err != nil {
		return nil, err
	}
	var d *Dataset
	if path == Stdin {
		var r io.ReadCloser
		if r, err = OpenInput(Stdin, o.Stdin); err == nil {
			d, err = loadNewStream(r, train, opt)
			r.Close()
		}
	} else {
		d, err = LoadNew(path, train, opt)
	}
	if err != nil {
		return nil, o.Explain(err)
	}
	if err := o.prep().CheckNew(d, sc); err != nil {
		return nil, magnitudeHint(err)
	}
	return d, nil
}

// Explain adds what to do to a reader's error: a text column among the
// features wants a role (every text column of the row is named at once);
// a label column not found wants --label.
func (o Options) Explain(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) && errors.Is(err, ErrNotNumber) && pe.Column != "" && pe.Column != "label" {
		if len(pe.TextColumns) > 0 {
			return textColumnsError(err, pe, o.ID == "", o.Label == "" && pe.LabelColumn == "")
		}
		c := quote.Shell(pe.Column)
		return fmt.Errorf("%w (if column %q is not a feature: --id %s keeps it as row IDs, --ignore %s skips it, --label %s makes it the classes)",
			err, pe.Column, c, c, c)
	}
	if errors.Is(err, ErrNoLabelColumn) {
		return fmt.Errorf("%w; name it with --label NAME", err)
	}
	return err
}

// textColumnsError names every text column of the row at once (a file
// with an ID, a date, a note and a class column would otherwise take four
// runs to learn them), with an example of roles: the first as IDs, the
// last as the classes, the others ignored. An ID or label column the
// options name is not suggested again.
func textColumnsError(err error, pe *ParseError, suggestID, suggestLabel bool) error {
	cols := append([]string{pe.Column}, pe.TextColumns...)
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = strconv.Quote(c)
	}
	list := strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	var eg []string
	rest := cols
	if suggestID {
		eg = append(eg, "--id "+quote.Shell(rest[0]))
		rest = rest[1:]
	}
	var label string
	if suggestLabel && len(rest) > 0 {
		label = "--label " + quote.Shell(rest[len(rest)-1])
		rest = rest[:len(rest)-1]
	}
	if len(rest) > 0 {
		eg = append(eg, "--ignore "+quote.Shell(strings.Join(rest, ",")))
	}
	if label != "" {
		eg = append(eg, label)
	}
	return fmt.Errorf("%w; columns %s hold text on that line: give each a role (--id NAME keeps one as row IDs, --ignore A,B skips columns, --label NAME makes one the classes), e.g. %s",
		err, list, strings.Join(eg, " "))
}

// magnitudeHint adds the remedy to an ErrMagnitude error.
func magnitudeHint(err error) error {
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrMagnitude) {
		return err
	}
	return fmt.Errorf("%w; rescale that column (e.g. to other units) or drop it (--ignore %s)", err, quote.Shell(pe.Column))
}
