package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/progress"
	"github.com/arbor-ml/arbor/pipeline"
)

func init() {
	register(command{name: "predict", summary: "label new points with a pipeline saved by classify --save-model, streaming", run: runPredict})
}

// savePipeline writes the pipeline of fit (a fit, or a search's refit) to
// path (atomically) and says so on info.
func savePipeline(info io.Writer, path string, fit interface {
	Pipeline() (*pipeline.Pipeline, error)
}) error {
	if path == "" {
		return nil
	}
	p, err := fit.Pipeline()
	if err != nil {
		return fmt.Errorf("--save-model %s: %w", path, err)
	}
	if err := p.SaveFile(path); err != nil {
		return err
	}
	fmt.Fprintf(info, "model    %s\n", path)
	return nil
}

func runPredict(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "predict", "--model m.arbor --data new.csv [--out predictions.csv]")
	var d dataFlags
	registerStreamedData(fs, &d, "never a feature; predict does not use its cells")
	model := fs.String("model", "", "pipeline file written by arbor classify --save-model; - is standard input")
	out := fs.String("out", "-", "write predictions (CSV: row[,id],label; one row per input row, in order) to this file; - is standard output")
	chunk := fs.Int("chunk", pipeline.DefaultChunk, "rows read and labelled at a time (memory: chunk × training rows kernel values, chunk × landmarks for a --landmarks model)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	proba := fs.Bool("proba", false, probaUsage)
	decision := fs.Bool("decision", false, decisionUsage)
	unreachable := fs.String("unreachable", "", "lp/spreading models: new points no label reaches are left unlabelled (unlabeled: written as ?) or given the first class as scikit-learn does (first); default: the policy the model was fitted with (classify --unreachable)")
	if err := parseFlags(fs, args); err != nil {
		return predictFlagError(err)
	}
	p, err := loadStreamed(e, *model, d.Path, *out, *chunk)
	if err != nil {
		return err
	}
	want := pipeline.Want{Proba: *proba, Decision: *decision, Unreachable: *unreachable}
	if err := p.CheckWant(want); err != nil {
		return fmt.Errorf("%s: %w", dataset.InputName(*model), err)
	}
	opt, check, explain, err := streamedReading(p, d, "arbor predict")
	if err != nil {
		return err
	}
	stream := pipeline.PredictStream{Want: want, Chunk: *chunk, Check: check}
	if !*quiet {
		stream.Progress = progress.Rows(e.stderr, "predict", time.Now())
	}
	if err := p.PredictFile(ctx, d.Path, *out, e.stdin, e.stdout, opt, stream, explain); err != nil {
		return err
	}
	if !*quiet && *out != "-" && *out != "" {
		fmt.Fprintf(e.stderr, "wrote    %s\n", *out)
	}
	return nil
}

// predictFlagError says why predict has no --scale and no --impute.
func predictFlagError(err error) error {
	switch msg := err.Error(); {
	case strings.Contains(msg, "not defined: --scale "):
		return usageError("--scale: predict applies the scaling saved in the model (classify --scale); it has no --scale")
	case strings.Contains(msg, "not defined: --impute "):
		return usageError("--impute: predict fills missing values as the model was fitted (classify --impute); it has no --impute")
	}
	return err
}

// probaUsage and decisionUsage document --proba and --decision (classify
// and predict).
const (
	probaUsage    = "add a column p_CLASS per class: class probabilities (svm: Platt sigmoids on cross-validated decision values and pairwise coupling, as LIBSVM -b 1 — classify fits them; knn: vote shares, as scikit-learn's predict_proba; lp/spreading: the normalised label distribution); empty for a row no label reaches (docs/probabilities.md)"
	decisionUsage = "add the SVM's decision values: a column d_A_B per pair of classes A, B (f > 0 for A, LIBSVM's sign), d_A for one-vs-rest"
)
