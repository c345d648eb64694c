package pipeline

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/svm"
)

// checkWant returns ErrOutput when w asks for what the landmark model
// cannot give: probabilities from the SVM fitted without Platt sigmoids or
// from linsvm (LIBLINEAR's L2-loss SVM has no probability model), decision
// values from a learner other than the SVMs, another unreachable policy.
func (lm *Landmarks) checkWant(w Want) error {
	if w.Unreachable != "" {
		return fmt.Errorf("%w: the unreachable policy of a landmark pipeline is fixed when it is fitted", ErrOutput)
	}
	if w.Proba {
		switch m := lm.Model.(type) {
		case *svm.Model:
			if !m.Probability {
				return fmt.Errorf("%w: the SVM on the landmark features was fitted without probability estimates (fit it with them: arbor classify --landmarks M --proba)", ErrOutput)
			}
		case *linsvm.Model:
			return fmt.Errorf("%w: linsvm gives no class probabilities (LIBLINEAR's L2-loss SVM, like scikit-learn's LinearSVC, has no probability model; ask for --decision, or use --learner svm)", ErrOutput)
		}
	}
	if w.Decision {
		switch lm.Model.(type) {
		case *svm.Model, *linsvm.Model:
		default:
			name, _ := learnerName(lm.Model)
			return fmt.Errorf("%w: %s on landmarks gives no decision values (svm and linsvm do)", ErrOutput, name)
		}
	}
	return nil
}

// DecisionColumns names the decision-value columns of the landmark model
// (class labels; nil when it has none): the SVM's machines, or linsvm's
// binary problems — class 1 against class 0 for two classes, each class
// against the rest otherwise.
func (lm *Landmarks) DecisionColumns() []learner.Pair {
	switch m := lm.Model.(type) {
	case *svm.Model:
		return m.DecisionColumns()
	case *linsvm.Model:
		k := len(m.Classes())
		if k == 2 {
			return []learner.Pair{{Pos: 1, Neg: 0}}
		}
		out := make([]learner.Pair, k)
		for c := range out {
			out[c] = learner.Pair{Pos: c, Neg: learner.Unlabeled}
		}
		return out
	}
	return nil
}

// classes are the model's class labels (the columns of its probabilities).
func (lm *Landmarks) classes() []int {
	return lm.Model.(interface{ Classes() []int }).Classes()
}

// folded returns the SVM (svm, linsvm) composed with the map's projection,
// nil when the map is not linear or the model is not an SVM.
func (lm *Landmarks) composed() (*svm.Model, *linsvm.Model, linearMap, error) {
	lin, ok := lm.Map.(linearMap)
	if !ok {
		return nil, nil, nil, nil
	}
	switch m := lm.Model.(type) {
	case *svm.Model:
		lm.once.Do(func() { lm.svmFolded, lm.err = m.Compose(lin.Projection()) })
	case *linsvm.Model:
		lm.once.Do(func() { lm.folded, lm.err = m.Compose(lin.Projection()) })
	default:
		return nil, nil, nil, nil
	}
	return lm.svmFolded, lm.folded, lin, lm.err
}

// PredictWant labels the scaled rows Xt as Predict does and gives what w
// asks for besides: Proba with a column per model class (Classes order of
// the model), Decision with a column per DecisionColumns. The anchor graph
// and the kNN graph give their normalised label distributions
// (propagate.AnchorModel.Proba, propagate.KNNModel.Proba); kNN its vote
// shares on z(Xt) (knn.Model.Probabilities); the SVM its Platt
// probabilities and decision values, and linsvm its decision values, from
// the base rows through the composed model when the map is linear (equal
// to those on z(Xt) up to rounding), from z(Xt) otherwise. Errors: those
// of Predict, ErrOutput (checkWant).
func (lm *Landmarks) PredictWant(ctx context.Context, Xt *mat.Dense, w Want) (*Prediction, error) {
	if err := lm.checkWant(w); err != nil {
		return nil, err
	}
	out := &Prediction{}
	var err error
	switch m := lm.Model.(type) {
	case *propagate.AnchorModel:
		if out.Labels, err = m.Predict(ctx, nil, Xt); err == nil && w.Proba {
			out.Proba, err = m.Proba(ctx, nil, Xt)
		}
		return out, err
	case *propagate.KNNModel:
		if out.Labels, err = m.Predict(ctx, nil, Xt); err == nil && w.Proba {
			out.Proba, err = m.Proba(ctx, nil, Xt)
		}
		return out, err
	}
	sv, lin, lmap, err := lm.composed()
	if err != nil {
		return nil, err
	}
	var B *mat.Dense // the rows the model (composed or not) reads
	if lmap != nil {
		B, err = lmap.Base(ctx, Xt)
	} else {
		B, err = lm.Map.Features(ctx, Xt)
		sv, _ = lm.Model.(*svm.Model)
		lin, _ = lm.Model.(*linsvm.Model)
	}
	if err != nil {
		return nil, err
	}
	if km, ok := lm.Model.(*knn.Model); ok {
		return out, featureOutputs(ctx, km, out, w, B, true)
	}
	if sv != nil {
		return out, featureOutputs(ctx, sv, out, w, B, true)
	}
	if lin != nil {
		return out, featureOutputs(ctx, lin, out, w, B, true)
	}
	return nil, fmt.Errorf("%w: %T on landmark features", ErrLearner, lm.Model)
}

// featureOutputs fills out (labels when labels is true, then what w asks
// for) from a model on landmark features (svm, linsvm, knn) on the rows Z.
func featureOutputs(ctx context.Context, m any, out *Prediction, w Want, Z *mat.Dense, labels bool) error {
	var err error
	switch m := m.(type) {
	case *svm.Model:
		var lab []int
		lab, out.Decision, out.Proba, err = m.Outputs(ctx, Z, w.Decision, w.Proba)
		if labels {
			out.Labels = lab
		}
	case *linsvm.Model:
		if labels {
			if out.Labels, err = m.Predict(ctx, nil, Z); err != nil {
				return err
			}
		}
		if w.Decision {
			t, _ := Z.Dims()
			dec, err := m.Decision(nil, Z)
			if err != nil {
				return err
			}
			out.Decision = mat.NewDense(t, len(dec)/t, dec)
		}
	case *knn.Model:
		if labels {
			if out.Labels, err = m.PredictPoints(ctx, nil, Z); err != nil {
				return err
			}
		}
		if w.Proba {
			out.Proba, err = m.Probabilities(ctx, nil, knn.Points(Z))
		}
	default:
		err = fmt.Errorf("%w: %T on landmark features", ErrLearner, m)
	}
	return err
}

// landmarkOutputBytes is the memory of the probabilities and decision
// values of a landmark run on n rows with k classes (a float64 per row
// and column: k probabilities, and k(k−1)/2 one-vs-one decision values
// for the SVM, k for linsvm), and for the SVM's Platt sigmoids the
// cross-validation folds' copies of the l labelled rows' m features.
func landmarkOutputBytes(s Settings, family string, n, k, l, m int) float64 {
	cols := 0
	if s.Proba {
		cols += k
	}
	if s.Decision {
		switch family {
		case "svm":
			cols += k * (k - 1) / 2
		case "linsvm":
			cols += k
		}
	}
	b := 8 * float64(n) * float64(cols)
	if s.Proba && family == "svm" {
		b += 8 * float64(l) * float64(m)
	}
	return b
}

// landmarkOutputs sets r.Proba (over the data's classes), r.Decision and
// r.DecisionColumns from a landmark fit's outputs.
func (r *Result) landmarkOutputs() {
	out := r.lm.out
	if out == nil {
		return
	}
	lm := &Landmarks{Map: r.lm.fm, Model: r.lm.model}
	if out.Proba != nil {
		r.Proba = spreadClasses(lm.classes(), len(r.ds.Classes), out.Proba)
	}
	if out.Decision != nil {
		r.Decision, r.DecisionColumns = out.Decision, lm.DecisionColumns()
	}
}
