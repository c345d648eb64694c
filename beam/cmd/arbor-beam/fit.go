package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

func init() {
	jobs["fit"] = job{
		summary: "fit lp or spreading on the anchor graph, or linsvm or svm on landmark features, from training files (arbor classify --landmarks M --learner L --save-model, byte for byte)",
		flags:   fitFlags,
	}
}

func fitFlags(fs *flag.FlagSet) func(ctx context.Context, s beam.Scope) error {
	data := fs.String("data", "", "training files: comma-separated globs on any Beam filesystem (CSV/TSV as arbor classify reads --data; several files are one data set, in the order of their names)")
	save := fs.String("save-model", "", "the pipeline file to write (any Beam filesystem), as arbor classify --save-model writes it")
	learnerName := fs.String("learner", "lp", "learner: lp (label propagation) or spreading (label spreading) on the anchor graph of the landmarks; linsvm or svm (the C-SVC with the linear kernel) on the landmark features of --kernel")
	kernelSpec := fs.String("kernel", "", "linsvm, svm: the point kernel of the landmark features (linear, rbf:GAMMA, rbf:scale, poly:…, laplacian:…, exponential:…; default linear)")
	c := fs.String("C", "", "linsvm, svm: soft-margin penalty C (default: arbor classify's, 1)")
	tol := fs.String("tol", "", "linsvm: tolerance (default: arbor classify's)")
	maxIter := fs.String("max-iter", "", "linsvm: pass limit (default: arbor classify's)")
	landmarks := fs.Int("landmarks", 0, "M, the number of landmark rows: the anchors of the anchor graph")
	method := fs.String("landmark-method", "kmeans", "how landmarks are chosen: kmeans (k-means on a sample of 100·M rows) or random; labelled rows first when fewer than M")
	seed := fs.Uint64("seed", 0, "seed of the landmark choice (as arbor classify's)")
	scale := fs.String("scale", "std", "feature scaling fitted on the rows: std, minmax or none")
	affinity := fs.String("affinity", "", "lp/spreading affinity whose scale the anchor graph takes: knn:K (lp; spreading where arbor classify uses the anchor graph), rbf:GAMMA or kernel (the paper's width) (default: arbor classify's, knn:10)")
	alpha := fs.String("alpha", "", "spreading: clamping factor α (default: arbor classify's, 0.2)")
	unreachable := fs.String("unreachable", "", "rows no label reaches: unlabeled, first or error (default: arbor classify's)")
	chunk := fs.Int("chunk", arborbeam.DefaultChunk, "rows read together: one Beam element")
	split := fs.Int64("split-bytes", arborbeam.DefaultSplitBytes, "size of the byte ranges files are first split into")
	var cols columnFlags
	cols.register(fs, "ID column (name or position): never a feature", "label column (name or position); empty, ? or NA cells are unlabelled rows",
		"feature columns, comma-separated (default: every column but the label and ID)")
	return func(ctx context.Context, s beam.Scope) error {
		switch {
		case *data == "":
			return usagef("--data is required")
		case *save == "":
			return usagef("--save-model is required")
		case *chunk < 1:
			return usagef("--chunk must be ≥ 1, got %d", *chunk)
		case *split < 1:
			return usagef("--split-bytes must be ≥ 1, got %d", *split)
		}
		csv, err := cols.options()
		if err != nil {
			return err
		}
		csv.LabelOptional, csv.AllowMissing = false, false
		params := map[string]string{}
		if *affinity != "" {
			params["affinity"] = *affinity
		}
		for name, v := range map[string]string{"alpha": *alpha, "C": *c, "tol": *tol, "max-iter": *maxIter} {
			if v != "" {
				params[name] = v
			}
		}
		if *unreachable != "" {
			params["unreachable"] = *unreachable
		}
		set := arborbeam.FitSettings{Kernel: *kernelSpec, Scale: *scale, Learner: *learnerName, Params: params,
			Landmarks: *landmarks, LandmarkMethod: *method, Seed: *seed}
		what, err := set.Describe()
		if err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(os.Stderr, "fit: %s; sums over blocks of %d rows\n", what, arborbeam.BlockRows)
		out, name := arborbeam.ModelOutput(*save)
		opt := arborbeam.ReadOptions{Chunk: *chunk, SplitBytes: *split, CSV: csv}
		written, err := arborbeam.Fit(s, beam.Create(s, splitList(*data)...), opt, set, out, name)
		if err != nil {
			return err
		}
		arborbeam.Finalize(s, written, out)
		return nil
	}
}
