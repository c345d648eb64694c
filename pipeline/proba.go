package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
	"github.com/arbor-ml/arbor/svm"
)

// ErrOutput: the model cannot give the output asked for (probabilities
// or decision values from a learner that has none).
var ErrOutput = errors.New("output not available for this model")

// Want says what a prediction returns besides the labels.
type Want struct {
	// Proba asks for class probabilities (scikit-learn's predict_proba):
	// the SVM's Platt estimates (a model fitted with them), kNN's vote
	// shares, label propagation's and spreading's normalised scores.
	Proba bool
	// Decision asks for decision values (the SVM's, one column per
	// machine: DecisionColumns).
	Decision bool
	// Unreachable, if not "", replaces the policy a label propagation or
	// spreading model saved for new points no label reaches
	// (propagate.UnreachableUnlabeled or propagate.UnreachableFirst).
	Unreachable string
}

// Prediction holds what PredictWant returns for t points.
type Prediction struct {
	// Labels index Classes; learner.Unlabeled where the model leaves a
	// point unlabelled.
	Labels []int
	// Proba is t×len(Classes) (nil unless asked): column c is the
	// probability of Classes[c] (0 for a class the model never saw); a
	// row of zeros where the model has no estimate (a point no label
	// reaches).
	Proba *mat.Dense
	// Decision is t×len(DecisionColumns) (nil unless asked).
	Decision *mat.Dense
}

// DecisionColumns names the decision-value columns of the pipeline's
// model: class indices (into Classes) Pos against Neg, Neg =
// learner.Unlabeled for one class against the rest. nil when the model
// has no decision values.
func (p *Pipeline) DecisionColumns() []learner.Pair {
	if p.Landmarks != nil {
		return p.Landmarks.DecisionColumns()
	}
	if d, ok := p.Model.(learner.Decider); ok {
		return d.DecisionColumns()
	}
	return nil
}

// CheckWant returns an error wrapping ErrOutput when w asks for what the
// pipeline's model cannot give (before any point is read).
func (p *Pipeline) CheckWant(w Want) error {
	_, err := p.checkWant(w)
	return err
}

// checkWant returns ErrOutput when w asks for what the model cannot give,
// and the model to predict with (under w's unreachable policy).
func (p *Pipeline) checkWant(w Want) (learner.Model, error) {
	if w.Unreachable != "" && w.Unreachable != propagate.UnreachableUnlabeled && w.Unreachable != propagate.UnreachableFirst {
		return nil, fmt.Errorf("%w: unreachable policy %q (want %s or %s)", ErrOutput, w.Unreachable, propagate.UnreachableUnlabeled, propagate.UnreachableFirst)
	}
	if p.Landmarks != nil {
		return nil, p.Landmarks.checkWant(w)
	}
	m := p.Model
	if w.Unreachable != "" {
		pm, ok := m.(*propagate.Model)
		if !ok {
			return nil, fmt.Errorf("%w: an unreachable policy applies to label propagation and spreading, not to %s", ErrOutput, modelName(m))
		}
		var err error
		if m, err = pm.WithUnreachable(w.Unreachable); err != nil {
			return nil, err
		}
	}
	if w.Proba {
		if err := canProba(m); err != nil {
			return nil, err
		}
	}
	if w.Decision {
		if _, ok := m.(learner.Decider); !ok {
			return nil, fmt.Errorf("%w: %s gives no decision values (only the SVM does)", ErrOutput, modelName(m))
		}
	}
	return m, nil
}

// outputsBeforeFit refuses, before the fit, probabilities or decision
// values from a learner whose models have none (the SVM has both, kNN,
// label propagation and spreading probabilities; with landmarks, linsvm
// decision values).
func outputsBeforeFit(ln learner.Learner, s Settings) error {
	_, isSVM := learner.As[svm.Classifier](ln)
	_, isKNN := learner.As[knn.Classifier](ln)
	_, isProp := propagationAffinity(ln)
	if _, isLin := learner.As[linsvm.Classifier](ln); isLin && s.Landmarks > 0 {
		if s.Proba {
			return fmt.Errorf("%w: linsvm gives no class probabilities (LIBLINEAR's L2-loss SVM, like scikit-learn's LinearSVC, has no probability model; ask for --decision, or use --learner svm)", ErrOutput)
		}
		return nil
	}
	if s.Decision && !isSVM {
		if s.Landmarks > 0 {
			return fmt.Errorf("%w: %s gives no decision values (svm and linsvm do)", ErrOutput, ln.Name())
		}
		return fmt.Errorf("%w: %s gives no decision values (only the SVM does)", ErrOutput, ln.Name())
	}
	if s.Proba && !isSVM && !isKNN && !isProp {
		return fmt.Errorf("%w: %s gives no class probabilities (svm, knn, lp and spreading do)", ErrOutput, ln.Name())
	}
	return nil
}

// canProba says why m gives no probabilities (nil when it does).
func canProba(m learner.Model) error {
	if sm, ok := m.(*svm.Model); ok && !sm.Probability {
		return fmt.Errorf("%w: the SVM was fitted without probability estimates (fit it with them: arbor classify --proba)", ErrOutput)
	}
	_, p := m.(learner.Prober)
	_, dp := m.(learner.DiagProber)
	if !p && !dp {
		return fmt.Errorf("%w: %s gives no class probabilities", ErrOutput, modelName(m))
	}
	return nil
}

func modelName(m learner.Model) string {
	if name, ok := learner.ModelName(m); ok {
		return "the " + name + " model"
	}
	return fmt.Sprintf("%T", m)
}

// PredictWant labels the rows of Xraw as Predict does and gives what w
// asks for besides. Errors: those of Predict, ErrOutput.
func (p *Pipeline) PredictWant(ctx context.Context, Xraw *mat.Dense, w Want) (*Prediction, error) {
	m, err := p.checkWant(w)
	if err != nil {
		return nil, err
	}
	_, d := Xraw.Dims()
	if d != len(p.Features) {
		return nil, fmt.Errorf("%w: %d features, the model has %d", ErrColumns, d, len(p.Features))
	}
	Xt, err := p.Scaler.Transform(nil, Xraw)
	if err != nil {
		return nil, err
	}
	return p.predictScaled(ctx, m, Xt, w)
}

// predictScaled is PredictWant on scaled rows Xt with the model m
// (p.Model, or its copy under another unreachable policy).
func (p *Pipeline) predictScaled(ctx context.Context, m learner.Model, Xt *mat.Dense, w Want) (*Prediction, error) {
	var err error
	out := &Prediction{}
	if p.Landmarks != nil {
		if out, err = p.Landmarks.PredictWant(ctx, Xt, w); err != nil {
			return nil, err
		}
		if out.Proba != nil {
			out.Proba = spreadClasses(p.Landmarks.classes(), len(p.Classes), out.Proba)
		}
		return out, nil
	}
	if p.Affinity != "" {
		a, err := propagate.ParseAffinity(p.Affinity)
		if err != nil {
			return nil, err
		}
		pm, ok := m.(*propagate.Model)
		if ok && a.Kind == propagate.KNN {
			// The K nearest training rows alone, not t×N affinity rows.
			idx, k, err := p.knnRows(ctx, a, Xt)
			if err != nil {
				return nil, err
			}
			if out.Labels, err = pm.PredictNeighbors(ctx, nil, idx, k); err != nil {
				return nil, err
			}
			if w.Proba {
				P, err := pm.ProbaNeighbors(ctx, nil, idx, k)
				if err != nil {
					return nil, err
				}
				out.Proba = p.classColumns(m, P)
			}
			return out, nil
		}
		W, err := p.affinityRows(ctx, a, Xt)
		if err != nil {
			return nil, err
		}
		return p.fromRows(ctx, m, out, w, W, nil)
	}
	if sm, ok := m.(*svm.Model); ok && sm.Kernel != nil && p.Spec.Kind == kernel.KindPoint {
		// As classify's SVM on points: support-vector columns only.
		return p.svmPoints(ctx, sm, out, w, Xt)
	}
	b, err := p.kernelBuilt(ctx)
	if err != nil {
		return nil, err
	}
	Kt, diag, err := b.Extend(ctx, p.X, Xt, p.Rule)
	if err != nil {
		return nil, err
	}
	return p.fromRows(ctx, m, out, w, Kt, diag)
}

// svmPoints fills out from an SVM with its point kernel.
func (p *Pipeline) svmPoints(ctx context.Context, sm *svm.Model, out *Prediction, w Want, Xt *mat.Dense) (*Prediction, error) {
	// One pass over the kernel values for the labels and the outputs.
	labels, D, P, err := sm.Outputs(ctx, Xt, w.Decision, w.Proba)
	if err != nil {
		return nil, err
	}
	out.Labels, out.Decision = labels, D
	if P != nil {
		out.Proba = p.classColumns(sm, P)
	}
	return out, nil
}

// fromRows fills out from the model on kernel (or affinity) rows Kt and
// the new points' self-similarities diag.
func (p *Pipeline) fromRows(ctx context.Context, m learner.Model, out *Prediction, w Want, Kt mat.Matrix, diag []float64) (*Prediction, error) {
	var err error
	if dp, ok := m.(learner.DiagPredictor); ok {
		out.Labels, err = dp.PredictDiag(ctx, nil, Kt, diag)
	} else {
		out.Labels, err = m.Predict(ctx, nil, Kt)
	}
	if err != nil {
		return nil, err
	}
	return p.fromRowsOutputs(ctx, m, out, w, Kt, diag)
}

// classColumns spreads P (columns in m.Classes() order) over the
// pipeline's classes.
func (p *Pipeline) classColumns(m learner.Model, P *mat.Dense) *mat.Dense {
	return spreadClasses(m.Classes(), len(p.Classes), P)
}

// spreadClasses returns P with its columns (labels cls) placed at those
// labels among k columns (0 for a class not in cls).
func spreadClasses(cls []int, k int, P *mat.Dense) *mat.Dense {
	t, c := P.Dims()
	if c == k && slices.Equal(cls, seq(k)) {
		return P
	}
	out := mat.NewDense(t, k, nil)
	for i := range t {
		for j, lab := range cls {
			if lab >= 0 && lab < k {
				out.Set(i, lab, P.At(i, j))
			}
		}
	}
	return out
}

func seq(k int) []int {
	s := make([]int, k)
	for i := range s {
		s[i] = i
	}
	return s
}

// knnPoints are the probabilities of kNN on points (no kernel matrix).
func knnPointsProba(ctx context.Context, m *knn.Model, X *mat.Dense) (*mat.Dense, error) {
	return m.Probabilities(ctx, nil, knn.Points(X))
}

// outputs fills r.Proba and r.Decision for the training rows (ds, scaled)
// and the test rows: from the points for the SVM and kNN on a point
// kernel, from the kernel rows (K, then Kt) otherwise; a transductive
// model's training rows from its fit (learner.TransductionProber).
func (r *Result) outputs(ctx context.Context, s Settings, method string, p ssl.Problem, ds, test *dataset.Dataset) error {
	m := r.Model
	w := Want{Proba: s.Proba, Decision: s.Decision}
	pl := &Pipeline{Classes: ds.Classes}
	if _, err := pl.withModel(m).checkWant(w); err != nil {
		return err
	}
	var parts []*Prediction
	add := func(X *mat.Dense, Kt mat.Matrix, diag []float64) error {
		out := &Prediction{}
		var err error
		switch mm := m.(type) {
		case *svm.Model:
			if method == methodSVMPoints {
				_, err = pl.svmPoints(ctx, mm, out, w, X)
				break
			}
			_, err = pl.fromRowsOutputs(ctx, m, out, w, Kt, diag)
		case *knn.Model:
			if method == methodKNNPoints {
				var P *mat.Dense
				if P, err = knnPointsProba(ctx, mm, X); err == nil {
					out.Proba = pl.classColumns(m, P)
				}
				break
			}
			_, err = pl.fromRowsOutputs(ctx, m, out, w, Kt, diag)
		default:
			_, err = pl.fromRowsOutputs(ctx, m, out, w, Kt, diag)
		}
		parts = append(parts, out)
		return err
	}
	// The training rows.
	if tp, ok := m.(learner.TransductionProber); ok && w.Proba && !w.Decision {
		parts = append(parts, &Prediction{Proba: pl.classColumns(m, tp.TransductionProba())})
	} else {
		var K mat.Matrix
		var diag []float64
		switch {
		case p.K != nil:
			K = p.K
		case p.K32 != nil:
			K = p.K32
		}
		if K != nil {
			n, _ := K.Dims()
			diag = make([]float64, n)
			for i := range diag {
				diag[i] = K.At(i, i)
			}
		}
		if K == nil && method != methodSVMPoints && method != methodKNNPoints {
			return fmt.Errorf("%w: %s on its own affinity gives no decision values", ErrOutput, r.Learner.Name())
		}
		if err := add(ds.X, K, diag); err != nil {
			return err
		}
	}
	switch {
	case test == nil:
	case method == methodAffinity:
		a, _ := propagationAffinity(r.Learner)
		out, err := affinityPipeline(ds, a, m).predictScaled(ctx, m, test.X, Want{Proba: w.Proba})
		if err != nil {
			return err
		}
		parts = append(parts, out)
	case p.Kt == nil && method != methodSVMPoints && method != methodKNNPoints:
		return fmt.Errorf("%w: %s gives no probabilities for --test rows", ErrOutput, r.Learner.Name())
	default:
		if err := add(test.X, p.Kt, p.TestDiag); err != nil {
			return err
		}
	}
	r.Proba, r.Decision = stack(parts, func(q *Prediction) *mat.Dense { return q.Proba }), stack(parts, func(q *Prediction) *mat.Dense { return q.Decision })
	if s.Decision {
		if d, ok := m.(learner.Decider); ok {
			r.DecisionColumns = d.DecisionColumns()
		}
	}
	return nil
}

// fromRowsOutputs is fromRows without the labels (the fit has them).
func (p *Pipeline) fromRowsOutputs(ctx context.Context, m learner.Model, out *Prediction, w Want, Kt mat.Matrix, diag []float64) (*Prediction, error) {
	var err error
	if w.Proba {
		var P *mat.Dense
		if dp, ok := m.(learner.DiagProber); ok {
			P, err = dp.ProbaDiag(ctx, nil, Kt, diag)
		} else {
			P, err = m.(learner.Prober).Proba(ctx, nil, Kt)
		}
		if err != nil {
			return nil, err
		}
		out.Proba = p.classColumns(m, P)
	}
	if w.Decision {
		if out.Decision, err = m.(learner.Decider).Decide(ctx, nil, Kt); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// withModel returns a pipeline value holding only m and the classes, for
// checkWant and the column helpers.
func (p *Pipeline) withModel(m learner.Model) *Pipeline {
	return &Pipeline{Classes: p.Classes, Model: m}
}

// stack stacks the matrices f picks from parts (nil when there are none).
func stack(parts []*Prediction, f func(*Prediction) *mat.Dense) *mat.Dense {
	var ms []*mat.Dense
	rows, cols := 0, 0
	for _, q := range parts {
		if m := f(q); m != nil {
			r, c := m.Dims()
			rows, cols = rows+r, c
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	out := mat.NewDense(rows, cols, nil)
	at := 0
	for _, m := range ms {
		r, _ := m.Dims()
		out.Slice(at, at+r, 0, cols).(*mat.Dense).Copy(m)
		at += r
	}
	return out
}
