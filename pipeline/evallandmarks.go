package pipeline

import (
	"context"
	"fmt"
	"io"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
	"github.com/arbor-ml/arbor/svm"
)

// EvalLandmarks is the semi-supervised protocol (ssl.Eval) with M
// landmarks, what arbor eval --landmarks M runs: for every kernel and split
// the landmark features are built with the split's labelled rows among the
// landmarks (landmarkFlags.choose), then the learners run on them (svm:
// the C-SVC on the features; knn: kNN on the features; lp, spreading: the
// anchor graph of the landmarks, or for spreading with a knn:K affinity
// the kNN graph of all rows, knnGraphSpreading) and are scored on the rows outside the
// split, as ssl.Eval scores the exact methods. The learners on features
// fit on the labelled rows' features and label the others a block at a
// time (landmark.Training, PredictTraining), as classify does: memory is
// the map's, not N×r (LandmarkRunBytes).
func EvalLandmarks(ctx context.Context, l LandmarkChoice, ds *dataset.Dataset, specs []kernel.Spec, learners []learner.Learner, splits [][]int, log io.Writer) ([]ssl.Result, error) {
	if log == nil {
		log = io.Discard
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
	for _, ln0 := range learners {
		family := landmarkFamily(ln0)
		if family == "lp" || family == "spreading" {
			for si, split := range splits {
				t0 := time.Now()
				if s, ok := KNNGraphSpreading(ln0, ds.Len(), ds.Dim()); ok {
					// Spreading on a knn:K affinity: the kNN graph of all rows (knngraphspread.go).
					km, what, err := KNNGraphFit(ctx, ds.X, yFor(split), s)
					if err != nil {
						return nil, fmt.Errorf("split %d: %w", si, err)
					}
					if si == 0 {
						fmt.Fprintf(log, "--landmarks: %s\n", what)
					}
					r := ssl.Result{Kernel: fmt.Sprintf("%d-NN graph, all rows", km.K()), Learner: "spreading (kNN graph of all rows)", Split: si, FitS: time.Since(t0).Seconds(), Unreached: len(km.Model.Unreachable)}
					score(&r, km.Transduction(), split)
					out = append(out, r)
					continue
				}
				lm, _, err := l.Choose(ctx, ds.X, yFor(split))
				if err != nil {
					return nil, err
				}
				am, what, err := AnchorFit(ctx, ds.X, rowsOf(ds.X, lm), yFor(split), ln0)
				if err != nil {
					return nil, fmt.Errorf("split %d: %w", si, err)
				}
				if si == 0 {
					fmt.Fprintf(log, "landmarks %d: %s\n", len(lm), what)
				}
				r := ssl.Result{Kernel: fmt.Sprintf("anchors M=%d", len(lm)), Learner: family + " (anchor graph)", Split: si, FitS: time.Since(t0).Seconds(), Unreached: len(am.Unreachable)}
				score(&r, am.Transduction(), split)
				out = append(out, r)
			}
			continue
		}
		if family != "svm" && family != "knn" && family != "linsvm" {
			return nil, learner.Settingsf("--landmarks works with --learner svm, linsvm, knn, lp or spreading, not %s", ln0.Name())
		}
	}
	for _, spec := range specs {
		onFeatures := 0
		for _, ln := range learners {
			if f := landmarkFamily(ln); f == "svm" || f == "knn" || f == "linsvm" {
				onFeatures++
			}
		}
		if onFeatures == 0 {
			break
		}
		kname := fmt.Sprintf("%s M=%d", spec, l.M)
		// The features per split: its labelled rows are landmarks.
		for si, split := range splits {
			y := yFor(split)
			lab := labelledRows(y)
			yl := make([]int, len(lab))
			for a, i := range lab {
				yl[a] = y[i]
			}
			// The map, made once; with rbf:scale once per gamma (the SVM's
			// from the labelled rows, kNN's from all rows, as the exact
			// learners; LandmarkChoice.Training). The rows' features are
			// given a block at a time (landmark.Training), never N×r.
			var trs [2]*landmark.Training
			var kts [2]float64
			feat := func(svm bool) (*landmark.Training, float64, error) {
				i := 0
				if svm && spec.Kind == kernel.KindPoint && spec.Scale { // svm, linsvm: gamma from the labelled rows
					i = 1
				}
				if trs[i] == nil {
					t0 := time.Now()
					_, tr, _, desc, err := l.Training(ctx, ds.X, spec, y, i == 1)
					if err != nil {
						return nil, 0, err
					}
					kts[i] = time.Since(t0).Seconds()
					fmt.Fprintln(log, desc)
					trs[i] = tr
				}
				return trs[i], kts[i], nil
			}
			// The learners on one map fit on its labelled rows' features,
			// then label every row in one pass over the map's blocks of
			// features (labelTraining, which gives each block's rows lo..hi):
			// the features are computed once per map, not once per learner.
			// The block is kNN's when kNN is among them (its labels depend on
			// the block, PredictBlocks); the SVMs label each block in their
			// own smaller blocks, their rows being independent of the block.
			cells := make([]landmarkCell, 0, len(learners))
			for _, ln := range learners {
				name := landmarkFamily(ln)
				if name != "svm" && name != "knn" && name != "linsvm" {
					continue
				}
				cells = append(cells, landmarkCell{ln: ln, family: name})
			}
			var maps [2][]*landmarkCell
			for i := range cells {
				c := &cells[i]
				tr, kt, err := feat(c.family != "knn")
				if err != nil {
					return nil, err
				}
				Zl, err := tr.Rows(ctx, lab)
				if err != nil {
					return nil, err
				}
				t1 := time.Now()
				if err := c.fit(ctx, Zl, yl, spec, si, log); err != nil {
					return nil, err
				}
				c.tr, c.kt, c.took, c.pred = tr, kt, time.Since(t1), make([]int, n)
				m := 0
				if tr != trs[0] {
					m = 1
				}
				maps[m] = append(maps[m], c)
			}
			for _, these := range maps {
				if len(these) == 0 {
					continue
				}
				block := 0
				for _, c := range these {
					block = max(block, LabelBlockRows(c.family))
				}
				err := labelTraining(ctx, these[0].tr, block, func(lo, hi int, Zb *mat.Dense) error {
					r := Zb.RawMatrix().Cols
					for _, c := range these {
						t1 := time.Now()
						step := LabelBlockRows(c.family)
						for a := lo; a < hi; a += step {
							b := min(a+step, hi)
							if _, err := c.predict(c.pred[a:b], Zb.Slice(a-lo, b-lo, 0, r).(*mat.Dense)); err != nil {
								return err
							}
						}
						c.took += time.Since(t1)
					}
					return nil
				}, nil)
				if err != nil {
					return nil, err
				}
			}
			// One result per fitted model, in the order of the learners.
			for i := range cells {
				c := &cells[i]
				res := ssl.Result{Kernel: kname, Learner: c.label, Split: si, KernelS: c.kt, FitS: c.took.Seconds()}
				score(&res, c.pred, split)
				out = append(out, res)
			}
		}
	}
	return out, nil
}

// landmarkCell is one learner on landmark features in one split of
// EvalLandmarks: its fitted model's predict, the labels it gives every row
// and the seconds it took.
type landmarkCell struct {
	ln      learner.Learner
	family  string
	label   string
	tr      *landmark.Training
	predict func(dst []int, Zb *mat.Dense) ([]int, error)
	pred    []int
	kt      float64
	took    time.Duration
}

// fit fits the cell's learner on the labelled rows' features Zl with
// labels yl.
func (c *landmarkCell) fit(ctx context.Context, Zl *mat.Dense, yl []int, spec kernel.Spec, si int, log io.Writer) error {
	switch c.family {
	case "svm":
		p, _ := learner.As[svm.Classifier](c.ln)
		m, err := LandmarkSVM(ctx, Zl, yl, p.C)
		if err != nil {
			return fmt.Errorf("split %d: %w", si, err)
		}
		c.label = "svm (linear kernel on Z)"
		c.predict = func(dst []int, Zb *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Zb) }
	case "linsvm":
		p, _ := learner.As[linsvm.Classifier](c.ln)
		m, err := LandmarkLinSVM(ctx, Zl, yl, p)
		if err != nil {
			return fmt.Errorf("split %d: %w", si, err)
		}
		if w := LinsvmWarning(m); w != "" && si == 0 {
			fmt.Fprintln(log, "warning:", w)
		}
		c.label = "linsvm (LinearSVC on Z)"
		c.predict = func(dst []int, Zb *mat.Dense) ([]int, error) { return m.Predict(ctx, dst, Zb) }
	case "knn":
		p, _ := learner.As[knn.Classifier](c.ln)
		m, err := LandmarkKNN(ctx, Zl, yl, p.K, spec)
		if err != nil {
			return err
		}
		c.label = fmt.Sprintf("knn k=%d (on Z)", p.K)
		c.predict = func(dst []int, Zb *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Zb) }
	}
	return nil
}

// landmarkFamily names the learner family a landmark run treats ln as:
// svm, linsvm, knn, lp, spreading, or its own name.
func landmarkFamily(ln learner.Learner) string {
	if _, ok := learner.As[svm.Classifier](ln); ok {
		return "svm"
	}
	if _, ok := learner.As[linsvm.Classifier](ln); ok {
		return "linsvm"
	}
	if _, ok := learner.As[knn.Classifier](ln); ok {
		return "knn"
	}
	if _, ok := learner.As[propagate.Propagation](ln); ok {
		return "lp"
	}
	if _, ok := learner.As[propagate.Spreading](ln); ok {
		return "spreading"
	}
	return ln.Name()
}
