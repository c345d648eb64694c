package pipeline

import (
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/ssl"
)

// WriteEvalTable writes the report of arbor eval on ds: a line on the
// data (rows, features, classes, r.Scale), one on r.Protocol with the
// number of splits, and the table of res (ssl.Summarize, ssl.WriteTable;
// unreachable is the label propagation policy its note names).
func WriteEvalTable(w io.Writer, ds *dataset.Dataset, r ssl.Report, splits int, res []ssl.Result, unreachable string) error {
	fmt.Fprintf(w, "data: %s (%d rows, %d features, %d classes), scale %s\n", ds.Name, ds.Len(), ds.Dim(), len(ds.Classes), r.Scale)
	fmt.Fprintf(w, "protocol: %s (%d splits); accuracy (%%) on the unlabelled rows\n\n", r.Protocol, splits)
	return ssl.WriteTable(w, ssl.Summarize(res), unreachable)
}

// WriteEvalBEPTable writes the report of arbor eval --metric bep on ds: a
// line on the data (rows, features, classes, single- or multi-label,
// r.Scale), the protocol with the number of splits and how the
// breakevens are averaged, and the table of res (ssl.SummarizeBEP,
// ssl.WriteBEPTable).
func WriteEvalBEPTable(w io.Writer, ds *dataset.Dataset, r ssl.Report, splits int, res []ssl.BEPResult) error {
	kind := "single-label"
	if ds.MultiLabel() {
		kind = "multi-label"
	}
	fmt.Fprintf(w, "data: %s (%d rows, %d features, %d classes, %s), scale %s\n", dataset.DisplayName(ds.Name), ds.Len(), ds.Dim(), len(ds.Classes), kind, r.Scale)
	fmt.Fprintf(w, "protocol: %s (%d splits); precision–recall breakeven (%%) on the hidden rows,\n", r.Protocol, splits)
	fmt.Fprintf(w, "micro (all row–class pairs pooled) and macro (mean over classes); lp scores z-scored per class\n\n")
	return ssl.WriteBEPTable(w, ssl.SummarizeBEP(res))
}
