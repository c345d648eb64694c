package ssl

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteTable writes sum as arbor eval's table: per method its learner,
// kernel, mean accuracy, its standard deviation and the mean seconds in
// the learner, the learner and kernel columns as wide as their longest
// entry. A method that left rows no labelled point reaches on the
// affinity graph is marked with their count, and a note after the table
// says how those rows were labelled: unreachable is the label
// propagation policy, "first" (given the first class) or any other text
// (left unlabelled).
func WriteTable(w io.Writer, sum []Summary, unreachable string) error {
	wl, wk := len("learner"), len("kernel")
	for _, m := range sum {
		wl, wk = max(wl, len(m.Learner)), max(wk, len(m.Kernel))
	}
	fmt.Fprintf(w, "%-*s  %-*s  %8s  %6s  %s\n", wl, "learner", wk, "kernel", "accuracy", "± std", "fit s")
	marked := false
	for _, m := range sum {
		mark := ""
		if m.Unreached > 0 {
			mark = fmt.Sprintf("  * %d unreached", m.Unreached)
			marked = true
		}
		fmt.Fprintf(w, "%-*s  %-*s  %8.2f  %6.2f  %.3f%s\n", wl, m.Learner, wk, m.Kernel, m.Mean, m.Std, m.FitS, mark)
	}
	if !marked {
		return nil
	}
	how := "left unlabelled and counted as errors (--unreachable unlabeled)"
	if unreachable == "first" {
		how = "given the first class as scikit-learn does (--unreachable first): their labels are forced, not learnt"
	}
	_, err := fmt.Fprintf(w, "\n* rows no labelled point reaches on the affinity graph (summed over the splits): %s; a wider affinity (knn:K with a larger K) reaches them\n", how)
	return err
}

// WriteBEPTable writes sum as arbor eval --metric bep's table: per method
// its learner, kernel and mean micro and macro breakeven, the learner and
// kernel columns as wide as their longest entry; then, for more than one
// method, the best (BestBEP).
func WriteBEPTable(w io.Writer, sum []BEPSummary) error {
	wl, wk := len("learner"), len("kernel")
	for _, m := range sum {
		wl, wk = max(wl, len(m.Learner)), max(wk, len(m.Kernel))
	}
	fmt.Fprintf(w, "%-*s  %-*s  %9s  %9s\n", wl, "learner", wk, "kernel", "micro BEP", "macro BEP")
	for _, m := range sum {
		fmt.Fprintf(w, "%-*s  %-*s  %9.2f  %9.2f\n", wl, m.Learner, wk, m.Kernel, m.Micro, m.Macro)
	}
	if len(sum) < 2 {
		return nil
	}
	var best BEPSummary
	if i := BestBEP(sum); i >= 0 {
		best = sum[i]
	}
	_, err := fmt.Fprintf(w, "\nbest (mean of micro and macro): %s on %s\n", best.Learner, best.Kernel)
	return err
}

// Report names an evaluation in its JSON records: the data set, the
// protocol (how the labelled rows were chosen) and the feature scaling.
type Report struct{ Dataset, Protocol, Scale string }

// WriteJSON writes one JSON object per result to w (arbor eval --json):
// the report's names, the method (Result.Method) and the result's
// fields.
func (r Report) WriteJSON(w io.Writer, res []Result) error {
	enc := json.NewEncoder(w)
	for _, x := range res {
		rec := struct {
			Dataset  string `json:"dataset"`
			Protocol string `json:"protocol"`
			Scale    string `json:"scale"`
			Method   string `json:"method"`
			Result
		}{r.Dataset, r.Protocol, r.Scale, x.Method(), x}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}

// WriteBEPJSON writes one JSON object per result to w (arbor eval
// --metric bep --json): the report's names, the metric "bep" and the
// result's fields.
func (r Report) WriteBEPJSON(w io.Writer, res []BEPResult) error {
	enc := json.NewEncoder(w)
	for _, x := range res {
		rec := struct {
			Dataset  string `json:"dataset"`
			Protocol string `json:"protocol"`
			Scale    string `json:"scale"`
			Metric   string `json:"metric"`
			BEPResult
		}{r.Dataset, r.Protocol, r.Scale, "bep", x}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}
