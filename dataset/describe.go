package dataset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// Describe says how a data file was read, in lines ending in "\n" that
// arbor's commands print on standard error: the format, the label and ID
// columns, the ignored columns, every feature column and the missing
// values. Data with no Source (not read by a reader) give "".
func (d *Dataset) Describe() string {
	src := d.Source
	if src == nil {
		return ""
	}
	var b strings.Builder
	switch src.Format {
	case "libsvm":
		fmt.Fprintf(&b, "data: %s: LIBSVM text, %d rows, %d features", d.Name, d.Len(), d.Dim())
		if src.ZeroBased {
			b.WriteString(" (indices start at 0: read as 0-based, f0 is the first column)")
		}
	default:
		how := "separator " + SepName(src.Sep)
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
		fmt.Fprintf(&b, "data: %s: %s, %s, %d rows", d.Name, how, head, d.Len())
		if src.DecimalCommas > 0 {
			fmt.Fprintf(&b, "; %d cells read with a decimal comma (1,5 = 1.5)", src.DecimalCommas)
		}
		if src.CROnly {
			b.WriteString("; lines end in a bare carriage return")
		}
	}
	b.WriteByte('\n')
	switch {
	case d.LabelName != "":
		fmt.Fprintf(&b, "  label     column %q", d.LabelName)
		if src.LabelAuto && src.Header {
			b.WriteString(" (found by its name; --label NAME to choose another)")
		} else if src.LabelAuto {
			b.WriteString(" (the last column, which holds text; --label to choose another)")
		}
		b.WriteString(": ")
	case src.Format == "libsvm":
		b.WriteString("  label     the first field of each line: ")
	default:
		b.WriteString("  label     none (no column named label, class, target or y; --label NAME to use one)\n")
	}
	if d.LabelName != "" || src.Format == "libsvm" {
		fmt.Fprintf(&b, "%d classes", len(d.Classes))
		if len(d.Classes) > 0 {
			fmt.Fprintf(&b, " (%s)", listQuoted(d.Classes, 8))
		}
		fmt.Fprintf(&b, "; unlabelled rows marked by %s: %d\n", markerList(src.Markers), len(d.UnlabeledRows()))
	}
	if d.IDName != "" {
		fmt.Fprintf(&b, "  id        column %q (in every output file)", d.IDName)
		if src.IDAuto {
			b.WriteString("; the unnamed first column: row names as pandas and R write them (--ignore rowname drops it)")
		}
		b.WriteByte('\n')
	}
	if len(src.Ignored) > 0 {
		fmt.Fprintf(&b, "  ignored   %d: %s\n", len(src.Ignored), listQuoted(src.Ignored, 12))
	}
	fmt.Fprintf(&b, "  features  %d: %s\n", d.Dim(), listQuoted(d.Features, 12))
	if len(d.Missing) > 0 {
		fmt.Fprintf(&b, "  missing   %d values (empty, NA, ? or NaN) in %d columns\n", len(d.Missing), missingColumns(d.Missing))
	}
	return b.String()
}

// missingColumns counts the columns of the cells.
func missingColumns(cells []Cell) int {
	cols := map[int]bool{}
	for _, c := range cells {
		cols[c.Col] = true
	}
	return len(cols)
}

// Warnings words d's ColumnHints as warnings, each naming the arbor flags
// (--id, --label, --ignore, --unlabeled-marker) that act on it.
func (d *Dataset) Warnings() []string {
	var out []string
	for _, h := range d.ColumnHints() {
		name, word := strconv.Quote(h.Column), quote.Shell(h.Column)
		switch h.Kind {
		case HintRowID:
			out = append(out, fmt.Sprintf("feature column %s looks like a row ID (%d distinct integers, one per row): --id %s keeps it as IDs, --ignore %s drops it", name, h.Rows, word, word))
		case HintClass:
			out = append(out, fmt.Sprintf("feature column %s looks like a class (%d distinct integers in %d rows): --label %s makes it the labels, --ignore %s drops it", name, h.Distinct, h.Rows, word, word))
		case HintManyClasses:
			out = append(out, fmt.Sprintf("label column %s has %d distinct values in %d rows: if it is not a class, --label NAME chooses another column, --label none reads no labels", name, h.Distinct, h.Rows))
		case HintMinusOne:
			out = append(out, `class "-1" is taken as a class; if it marks unlabelled rows (scikit-learn's convention), add --unlabeled-marker -1`)
		}
	}
	return out
}

// markerList shows the unlabelled markers as typed: "?" or "NA".
func markerList(m []string) string {
	q := make([]string, len(m))
	for i, s := range m {
		q[i] = strconv.Quote(s)
		if s == "" {
			q[i] = "an empty cell"
		}
	}
	if len(q) == 1 {
		return q[0]
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
