package dataset

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MatchNew readies new points t, read from path for this data set
// (LoadNew), to be labelled with it: a LIBSVM file (SparseName, or LIBSVM
// text read from standard input, path Stdin; its rows
// omit zeros) with fewer features than d gets zero features up to d's
// (PadFeatures); features in another order are matched to d's by name
// (AlignFeatures, a note to log); labels of t that are not classes of d
// are a warning to log (those rows count as wrong). Errors: another
// number of features, and CheckColumns's. log may be nil.
func (d *Dataset) MatchNew(t *Dataset, path string, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	sparse := SparseName(path) || path == Stdin && t.Source != nil && t.Source.Format == "libsvm"
	if t.Dim() < d.Dim() && sparse {
		t.PadFeatures(d)
	}
	if t.Dim() != d.Dim() {
		return fmt.Errorf("%s: %d features, but %s has %d", InputName(path), t.Dim(), d.Name, d.Dim())
	}
	if d.AlignFeatures(t) {
		fmt.Fprintf(log, "test: %s: feature columns matched to %s by name (they are in another order)\n", t.Name, d.Name)
	}
	if err := d.CheckColumns(t); err != nil {
		return err
	}
	if unknown := quoteAll(d.UnknownClasses(t)); len(unknown) > 0 {
		fmt.Fprintf(log, "warning: %s: test labels %s are not classes of %s (%s); those rows count as wrong\n",
			t.Name, strings.Join(unknown, ", "), d.Name, strings.Join(quoteAll(d.Classes), ", "))
	}
	return nil
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.Quote(v)
	}
	return out
}
