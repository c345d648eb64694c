package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
)

// setScorers builds the multi-label learners of eval --metric bep: soft kNN
// for each --k, and label propagation on the --kernel matrix (--affinity
// kernel: W = K; rbf:G or knn:K: on its kernel-induced distances) with its
// class scores z-scored over the hidden rows (ssl.SetPropagation).
func (l *learnerFlags) setScorers() ([]ssl.SetScorer, error) {
	var out []ssl.SetScorer
	for _, name := range strings.Split(l.learner, ",") {
		switch name = strings.TrimSpace(strings.ToLower(name)); name {
		case "knn":
			ks, err := knn.ParseKs(l.String("k"))
			if err != nil {
				return nil, settingsError(err)
			}
			for _, k := range ks {
				out = append(out, ssl.SoftKNN{Settings: knn.Classifier{K: k, Weights: l.String("weights")}})
			}
		case "lp", "propagation":
			aff := propagate.Affinity{Kind: propagate.Precomputed}
			if l.String("affinity") != "kernel" {
				var err error
				if aff, err = propagate.ParseAffinity(l.String("affinity")); err != nil {
					return nil, usageError("--affinity: %v", err)
				}
			}
			out = append(out, ssl.SetPropagation{Standardize: true, Settings: propagate.Propagation{
				Affinity: aff, Method: l.String("method"), Tol: l.Float("tol"), MaxIter: l.Int("max-iter"), Unreachable: propagate.UnreachableUnlabeled}})
		case "":
		default:
			return nil, usageError("--metric bep: learner %q has no class scores (knn, lp)", name)
		}
	}
	if len(out) == 0 {
		return nil, usageError("--learner is empty")
	}
	return out, nil
}

// runEvalBEP is eval --metric bep: micro- and macro-averaged
// precision–recall breakeven points over the hidden rows (paper 002
// Table 2), for multi-label data (every row's classes) or single-label data
// (each row's class).
func runEvalBEP(ctx context.Context, e *env, ds *dataset.Dataset, specs []kernel.Spec, lf *learnerFlags,
	splits [][]int, protocol, scale string, asJSON, quiet bool) error {
	learners, err := lf.setScorers()
	if err != nil {
		return err
	}
	sets := ds.Sets
	if sets == nil {
		sets = make([][]int, ds.Len())
		for i, c := range ds.Y {
			sets[i] = []int{c}
		}
	}
	start := time.Now()
	warn := func(err error) { fmt.Fprintln(e.stderr, "warning:", err) }
	res, err := ssl.BEPEval{Kernels: specs, Learners: learners, Progress: e.progress(quiet), Warn: warn}.Run(ctx, ds.X, sets, len(ds.Classes), splits)
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
	type key struct{ learner, kernel string }
	var order []key
	micro, macro := map[key][]float64{}, map[key][]float64{}
	for _, r := range res {
		k := key{r.Learner, r.Kernel}
		if _, ok := micro[k]; !ok {
			order = append(order, k)
		}
		micro[k], macro[k] = append(micro[k], 100*r.MicroBEP), append(macro[k], 100*r.MacroBEP)
	}
	wl, wk := len("learner"), len("kernel")
	for _, k := range order {
		wl, wk = max(wl, len(k.learner)), max(wk, len(k.kernel))
	}
	fmt.Fprintf(e.stdout, "%-*s  %-*s  %9s  %9s\n", wl, "learner", wk, "kernel", "micro BEP", "macro BEP")
	best, bestAt := -1.0, key{}
	for _, k := range order {
		mi, _ := meanStd(micro[k])
		ma, _ := meanStd(macro[k])
		fmt.Fprintf(e.stdout, "%-*s  %-*s  %9.2f  %9.2f\n", wl, k.learner, wk, k.kernel, mi, ma)
		if (mi+ma)/2 > best {
			best, bestAt = (mi+ma)/2, k
		}
	}
	if len(order) > 1 {
		fmt.Fprintf(e.stdout, "\nbest (mean of micro and macro): %s on %s\n", bestAt.learner, bestAt.kernel)
	}
	if !quiet {
		fmt.Fprintf(e.stderr, "done in %.2fs\n", time.Since(start).Seconds())
	}
	return nil
}
