package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
)

// describeData says on w how a data file was read: its format, the label
// and ID columns, the ignored columns, every feature column, and the
// missing values; then it warns about columns that look like a class or
// an ID. Embedded sets (no Source) are described by the command itself.
// With quiet (--quiet) only the warnings are written.
func describeData(w io.Writer, ds *dataset.Dataset, quiet bool) {
	src := ds.Source
	if src == nil {
		return
	}
	var b strings.Builder
	switch src.Format {
	case "libsvm":
		fmt.Fprintf(&b, "data: %s: LIBSVM text, %d rows, %d features", ds.Name, ds.Len(), ds.Dim())
		if src.ZeroBased {
			b.WriteString(" (indices start at 0: read as 0-based, f0 is the first column)")
		}
	default:
		how := "separator " + dataset.SepName(src.Sep)
		if src.SepSniffed {
			how += " (found; --sep to set)"
		}
		head := "a header row"
		if !src.Header {
			head = "no header row (columns c1, c2, …; the first row is data)"
		}
		if src.HeaderSniffed && !src.Header {
			head = "no header row (the first row has numbers where the second has: it is data; columns are c1, c2, …)"
		}
		fmt.Fprintf(&b, "data: %s: %s, %s, %d rows", ds.Name, how, head, ds.Len())
		if src.DecimalCommas > 0 {
			fmt.Fprintf(&b, "; %d cells read with a decimal comma (1,5 = 1.5)", src.DecimalCommas)
		}
		if src.CROnly {
			b.WriteString("; lines end in a bare carriage return")
		}
	}
	b.WriteByte('\n')
	if ds.LabelName != "" || src.Format == "libsvm" {
		if ds.LabelName != "" {
			fmt.Fprintf(&b, "  label     column %q", ds.LabelName)
			if src.LabelAuto {
				if src.Header {
					b.WriteString(" (found by its name; --label NAME to choose another)")
				} else {
					b.WriteString(" (the last column, which holds text; --label to choose another)")
				}
			}
			b.WriteString(": ")
		} else {
			b.WriteString("  label     the first field of each line: ")
		}
		fmt.Fprintf(&b, "%d classes", len(ds.Classes))
		if len(ds.Classes) > 0 {
			fmt.Fprintf(&b, " (%s)", listQuoted(ds.Classes, 8))
		}
		unl := len(ds.UnlabeledRows())
		fmt.Fprintf(&b, "; unlabelled rows marked by %s: %d\n", markerList(src.Markers), unl)
	} else {
		b.WriteString("  label     none (no column named label, class, target or y; --label NAME to use one)\n")
	}
	if ds.IDName != "" {
		fmt.Fprintf(&b, "  id        column %q (in every output file)", ds.IDName)
		if src.IDAuto {
			b.WriteString("; the unnamed first column: row names as pandas and R write them (--ignore rowname drops it)")
		}
		b.WriteByte('\n')
	}
	if len(src.Ignored) > 0 {
		fmt.Fprintf(&b, "  ignored   %d: %s\n", len(src.Ignored), listQuoted(src.Ignored, 12))
	}
	fmt.Fprintf(&b, "  features  %d: %s\n", ds.Dim(), listQuoted(ds.Features, 12))
	if len(ds.Missing) > 0 {
		cols := map[int]bool{}
		for _, c := range ds.Missing {
			cols[c.Col] = true
		}
		fmt.Fprintf(&b, "  missing   %d values (empty, NA, ? or NaN) in %d columns\n", len(ds.Missing), len(cols))
	}
	if quiet {
		b.Reset()
	}
	for _, h := range columnHints(ds) {
		fmt.Fprintf(&b, "warning: %s\n", h)
	}
	io.WriteString(w, b.String())
}

// markerList shows the unlabelled markers as typed.
func markerList(m []string) string {
	q := make([]string, len(m))
	for i, s := range m {
		q[i] = strconv.Quote(s)
		if s == "" {
			q[i] = "an empty cell"
		}
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// listQuoted quotes up to max names, eliding the middle of longer lists.
func listQuoted(s []string, max int) string {
	q := make([]string, 0, max+1)
	if len(s) <= max {
		for _, v := range s {
			q = append(q, strconv.Quote(v))
		}
		return strings.Join(q, ", ")
	}
	for _, v := range s[:max-2] {
		q = append(q, strconv.Quote(v))
	}
	q = append(q, fmt.Sprintf("… (%d more)", len(s)-max+1), strconv.Quote(s[len(s)-1]))
	return strings.Join(q, ", ")
}

// columnHints words dataset's column hints as warnings with the flags
// that act on them.
func columnHints(ds *dataset.Dataset) []string {
	var out []string
	for _, h := range ds.ColumnHints() {
		name, word := strconv.Quote(h.Column), shellWord(h.Column)
		switch h.Kind {
		case dataset.HintRowID:
			out = append(out, fmt.Sprintf("feature column %s looks like a row ID (%d distinct integers, one per row): --id %s keeps it as IDs, --ignore %s drops it", name, h.Rows, word, word))
		case dataset.HintClass:
			out = append(out, fmt.Sprintf("feature column %s looks like a class (%d distinct integers in %d rows): --label %s makes it the labels, --ignore %s drops it", name, h.Distinct, h.Rows, word, word))
		case dataset.HintManyClasses:
			out = append(out, fmt.Sprintf("label column %s has %d distinct values in %d rows: if it is not a class, --label NAME chooses another column, --label none reads no labels", name, h.Distinct, h.Rows))
		case dataset.HintMinusOne:
			out = append(out, `class "-1" is taken as a class; if it marks unlabelled rows (scikit-learn's convention), add --unlabeled-marker -1`)
		}
	}
	return out
}
