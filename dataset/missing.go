package dataset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// HasMissing reports whether d has missing feature values.
func (d *Dataset) HasMissing() bool { return len(d.Missing) > 0 }

// MissingError returns nil when d has no missing values, else an error
// wrapping ErrMissing that counts them, names the first few cells (file,
// line, column) and says that method cannot use them, followed by hint
// (say, which method can):
//
//	mice.csv: 1396 missing values (empty, NA, ? or NaN cells) in 49 of 77 columns,
//	first at line 3 column "BAD_N", line 3 column "BCL2_N", …: cluster cannot use them; hint
func (d *Dataset) MissingError(method, hint string) error {
	if len(d.Missing) == 0 {
		return nil
	}
	cols := map[int]bool{}
	for _, c := range d.Missing {
		cols[c.Col] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d missing value", len(d.Missing))
	if len(d.Missing) > 1 {
		b.WriteByte('s')
	}
	fmt.Fprintf(&b, " (empty, NA, ? or NaN cells) in %d of %d columns, first at ", len(cols), d.Dim())
	for k, c := range d.Missing {
		if k == 3 {
			b.WriteString(", …")
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		if c.Line > 0 {
			b.WriteString("line " + strconv.Itoa(c.Line))
		} else {
			b.WriteString("row " + strconv.Itoa(c.Row))
		}
		name := "f" + strconv.Itoa(c.Col+1)
		if c.Col < len(d.Features) {
			name = d.Features[c.Col]
		}
		b.WriteString(" column " + quote.Cell(name))
	}
	fmt.Fprintf(&b, ": %s cannot use them", method)
	if hint != "" {
		b.WriteString("; " + hint)
	}
	return fmt.Errorf("%s: %w: %s", d.Name, ErrMissing, b.String())
}
