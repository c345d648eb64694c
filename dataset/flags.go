package dataset

import (
	"flag"
	"slices"
	"strings"
)

// AddFlags defines on fs the flags arbor's commands read data with, each
// setting a field of o: --data (Path; - is standard input, o.Stdin), --label, --id, --ignore,
// --features, --no-header, --sep, --unlabeled-marker (Unlabeled), --scale
// (Prep.Scale, default defaultScale) and --impute (Prep.Impute); the
// flags named in skip are not defined (a command that takes them from a
// saved model).
func (o *Options) AddFlags(fs *flag.FlagSet, defaultScale string, skip ...string) {
	str := func(p *string, name, value, usage string) {
		if !slices.Contains(skip, name) {
			fs.StringVar(p, name, value, usage)
		}
	}
	str(&o.Path, "data", "", "data file (delimited text: comma, tab, semicolon or blank separated, header optional; or LIBSVM text; .gz ok; - is standard input, gzip or not), or an embedded set: "+strings.Join(EmbeddedNames(), ", "))
	str(&o.Label, "label", "", "label column: a header name or 1-based position, or none (default: a column named label, class, target or y, any case)")
	str(&o.ID, "id", "", "ID column (name or position): never a feature, carried into every output file")
	str(&o.Ignore, "ignore", "", "columns to skip, comma-separated names or positions (text columns such as sample descriptions)")
	str(&o.Features, "features", "", "feature columns, comma-separated names, positions or ranges A..B (default: every column but the label, ID and ignored ones)")
	if !slices.Contains(skip, "no-header") {
		fs.BoolVar(&o.NoHeader, "no-header", false, "the first row is data, not column names (columns are then c1, c2, … or positions)")
	}
	str(&o.Sep, "sep", "", "separator: comma, tab, semicolon, pipe or whitespace (default: found from the first lines)")
	str(&o.Unlabeled, "unlabeled-marker", "", `label cells that mark an unlabelled row, comma-separated, e.g. -1 (scikit-learn) or NA; an empty cell always does (default "?,NA")`)
	str(&o.Prep.Scale, "scale", defaultScale, "feature scaling: none, std (z-score over all rows) or minmax")
	str(&o.Prep.Impute, "impute", "none", "fill missing feature values (empty, NA, ?, NaN cells) before scaling: none (missing values are an error, except for rbf-missing), mean, median, most_frequent (each column's, over all rows, as scikit-learn's SimpleImputer) or zero; new points and saved models use the same values")
}
