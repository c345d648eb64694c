package dataset

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
)

// WriteLabels writes one label per row of d as CSV: a header
// row[,ID],column, the ID column named as in the input when d has one,
// then i[,d.IDs[i]],labels[i] for each row i.
func (d *Dataset) WriteLabels(dst io.Writer, column string, labels []int) error {
	w := bufio.NewWriter(dst)
	cw := csv.NewWriter(w)
	if d.IDName != "" {
		cw.Write([]string{"row", d.IDName, column})
	} else {
		cw.Write([]string{"row", column})
	}
	for i, c := range labels {
		if d.IDName != "" {
			cw.Write([]string{strconv.Itoa(i), d.IDs[i], strconv.Itoa(c)})
		} else {
			cw.Write([]string{strconv.Itoa(i), strconv.Itoa(c)})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return w.Flush()
}
