package main

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/knn"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// evalLandmarks is arbor eval --landmarks M: for every kernel and split
// the landmark features are built with the split's labelled rows among the
// landmarks (landmarkFlags.choose), then the learners run on them (svm:
// the C-SVC on the features; knn: kNN on the features; lp, spreading: the
// anchor graph of the landmarks, or for spreading with a knn:K affinity
// the kNN graph of all rows, knnGraphSpreading) and are scored on the rows outside the
// split, as ssl.Eval scores the exact methods.
func evalLandmarks(ctx context.Context, e *env, l landmarkFlags, ds *dataset.Dataset, specs []kernel.Spec, lf learnerFlags, splits [][]int) ([]ssl.Result, error) {
	var names []string
	for _, s := range strings.Split(lf.learner, ",") {
		if s = strings.TrimSpace(strings.ToLower(s)); s != "" {
			names = append(names, s)
		}
	}
	ks, err := knn.ParseKs(lf.String("k"))
	if err != nil {
		return nil, settingsError(err)
	}
	n := ds.Len()
	yFor := func(split []int) []int {
		y := make([]int, n)
		for i := range y {
			y[i] = -1
		}
		for _, r := range split {
			y[r] = ds.Y[r]
		}
		return y
	}
	score := func(res *ssl.Result, pred []int, split []int) {
		in := make(map[int]bool, len(split))
		for _, r := range split {
			in[r] = true
		}
		for i, c := range pred {
			if in[i] {
				continue
			}
			res.Total++
			if c == ds.Y[i] {
				res.Correct++
			}
		}
		res.Labeled = len(split)
		if res.Total > 0 {
			res.Accuracy = float64(res.Correct) / float64(res.Total)
		}
	}
	var out []ssl.Result
	for _, name := range names {
		if name == "lp" || name == "propagation" || name == "spreading" {
			ln0, err := lf.one(name)
			if err != nil {
				return nil, err
			}
			for si, split := range splits {
				t0 := time.Now()
				if s, ok := knnGraphSpreading(ln0, ds.Len(), ds.Dim()); ok {
					// Spreading on a knn:K affinity: the kNN graph of all rows (knngraphspread.go).
					km, what, err := knnGraphFit(ctx, ds.X, yFor(split), s)
					if err != nil {
						return nil, fmt.Errorf("split %d: %w", si, err)
					}
					if si == 0 {
						fmt.Fprintf(e.stderr, "--landmarks: %s\n", what)
					}
					r := ssl.Result{Kernel: fmt.Sprintf("%d-NN graph, all rows", km.K()), Learner: "spreading (kNN graph of all rows)", Split: si, FitS: time.Since(t0).Seconds(), Unreached: len(km.Model.Unreachable)}
					score(&r, km.Transduction(), split)
					out = append(out, r)
					continue
				}
				lm, _, err := l.choose(ctx, ds.X, yFor(split))
				if err != nil {
					return nil, err
				}
				ln, err := lf.one(name)
				if err != nil {
					return nil, err
				}
				am, what, err := anchorFitRows(ctx, ds.X, landmarkPoints(ds.X, lm), yFor(split), ln)
				if err != nil {
					return nil, fmt.Errorf("split %d: %w", si, err)
				}
				if si == 0 {
					fmt.Fprintf(e.stderr, "landmarks %d: %s\n", len(lm), what)
				}
				r := ssl.Result{Kernel: fmt.Sprintf("anchors M=%d", len(lm)), Learner: learnerFamily(name) + " (anchor graph)", Split: si, FitS: time.Since(t0).Seconds(), Unreached: len(am.Unreachable)}
				score(&r, am.Transduction(), split)
				out = append(out, r)
			}
			continue
		}
		if name != "svm" && name != "knn" && name != "linsvm" {
			return nil, usageError("--landmarks works with --learner svm, linsvm, knn, lp or spreading, not %s", name)
		}
	}
	for _, spec := range specs {
		learners := 0
		for _, name := range names {
			if name == "svm" || name == "knn" || name == "linsvm" {
				learners++
			}
		}
		if learners == 0 {
			break
		}
		kname := fmt.Sprintf("%s M=%d", spec, l.m)
		// The features per split: its labelled rows are landmarks.
		for si, split := range splits {
			y := yFor(split)
			// The features, made once; with rbf:scale once per gamma (the
			// SVM's from the labelled rows, kNN's from all rows, as the
			// exact learners; landmarkFlags.features).
			var zs [2]*mat.Dense
			var kts [2]float64
			feat := func(svm bool) (*mat.Dense, float64, error) {
				i := 0
				if svm && spec.Kind == kernel.KindPoint && spec.Scale { // svm, linsvm: gamma from the labelled rows
					i = 1
				}
				if zs[i] == nil {
					t0 := time.Now()
					_, Z, _, desc, err := l.features(ctx, ds.X, spec, y, i == 1)
					if err != nil {
						return nil, 0, err
					}
					kts[i] = time.Since(t0).Seconds()
					fmt.Fprintln(e.stderr, desc)
					zs[i] = Z
				}
				return zs[i], kts[i], nil
			}
			for _, name := range names {
				if name != "svm" && name != "knn" && name != "linsvm" {
					continue
				}
				Z, kt, err := feat(name != "knn")
				if err != nil {
					return nil, err
				}
				// Each learner fits on the labelled rows of Z and labels
				// every row (predictBlocks); one result per fitted model.
				result := func(learner string, t1 time.Time, predict func(dst []int, Zb *mat.Dense) ([]int, error)) error {
					pred, err := predictBlocks(Z, predict, nil)
					if err != nil {
						return err
					}
					res := ssl.Result{Kernel: kname, Learner: learner, Split: si, KernelS: kt, FitS: time.Since(t1).Seconds()}
					score(&res, pred, split)
					out = append(out, res)
					return nil
				}
				switch name {
				case "svm":
					t1 := time.Now()
					m, err := landmarkSVM(ctx, Z, y, lf.Float("C"))
					if err != nil {
						return nil, fmt.Errorf("split %d: %w", si, err)
					}
					if err := result("svm (linear kernel on Z)", t1, func(dst []int, Zb *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Zb) }); err != nil {
						return nil, err
					}
				case "linsvm":
					t1 := time.Now()
					m, err := landmarkLinSVM(ctx, Z, y, lf)
					if err != nil {
						return nil, fmt.Errorf("split %d: %w", si, err)
					}
					if w := linsvmWarning(m); w != "" && si == 0 {
						fmt.Fprintln(e.stderr, "warning:", w)
					}
					if err := result("linsvm (LinearSVC on Z)", t1, func(dst []int, Zb *mat.Dense) ([]int, error) { return m.Predict(ctx, dst, Zb) }); err != nil {
						return nil, err
					}
				case "knn":
					for _, k := range ks {
						t1 := time.Now()
						m, err := landmarkKNN(ctx, Z, y, k, spec)
						if err != nil {
							return nil, err
						}
						if err := result(fmt.Sprintf("knn k=%d (on Z)", k), t1, func(dst []int, Zb *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Zb) }); err != nil {
							return nil, err
						}
					}
				}
			}
		}
	}
	return out, nil
}
