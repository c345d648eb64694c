package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// runEvalBEP is eval --metric bep: micro- and macro-averaged
// precision–recall breakeven points over the hidden rows (paper 002
// Table 2), for multi-label data (every row's classes) or single-label data
// (each row's class); set.Scorers are the learners' scorers.
func runEvalBEP(ctx context.Context, e *env, set pipeline.EvalSettings, ds *dataset.Dataset,
	splits [][]int, protocol, scale string, asJSON, quiet bool) error {
	start := time.Now()
	res, err := pipeline.EvalBEP(ctx, set, ds, splits)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, r := range res {
			rec := struct {
				Dataset  string `json:"dataset"`
				Protocol string `json:"protocol"`
				Scale    string `json:"scale"`
				Metric   string `json:"metric"`
				ssl.BEPResult
			}{ds.Name, protocol, scale, "bep", r}
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
		return nil
	}
	kind := "single-label"
	if ds.MultiLabel() {
		kind = "multi-label"
	}
	fmt.Fprintf(e.stdout, "data: %s (%d rows, %d features, %d classes, %s), scale %s\n", displayName(ds.Name), ds.Len(), ds.Dim(), len(ds.Classes), kind, scale)
	fmt.Fprintf(e.stdout, "protocol: %s (%d splits); precision–recall breakeven (%%) on the hidden rows,\n", protocol, len(splits))
	fmt.Fprintf(e.stdout, "micro (all row–class pairs pooled) and macro (mean over classes); lp scores z-scored per class\n\n")
	if err := ssl.WriteBEPTable(e.stdout, ssl.SummarizeBEP(res)); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}
