package learner

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// Prober is a Model that estimates class probabilities (scikit-learn's
// predict_proba, LIBSVM's -b 1) for new points given, as for Predict, by
// their t×n kernel rows Kt. The result is t×len(Classes()), columns in
// Classes() order, each row summing to 1, or all 0 for a point the model
// has no estimate for (label propagation's points no label reaches). dst,
// if not nil, must be t×len(Classes()); nil allocates.
type Prober interface {
	Model
	Proba(ctx context.Context, dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error)
}

// DiagProber is Prober for a model whose predictions also need the new
// points' self-similarities k(x, x) (a DiagPredictor).
type DiagProber interface {
	Model
	ProbaDiag(ctx context.Context, dst *mat.Dense, Kt mat.Matrix, diag []float64) (*mat.Dense, error)
}

// TransductionProber is a transductive model whose probabilities for its
// own n training rows come from the fit itself (label propagation's
// label_distributions_): n×len(Classes()), rows as Prober's.
type TransductionProber interface {
	TransductionProba() *mat.Dense
}

// Decider is a Model with decision values (scikit-learn's
// decision_function, LIBSVM's dec_values): t×len(DecisionColumns()) for
// t new points given by their kernel rows, as Predict.
type Decider interface {
	Model
	Decide(ctx context.Context, dst *mat.Dense, Kt mat.Matrix) (*mat.Dense, error)
	// DecisionColumns says what each column decides: f > 0 for class
	// label Pos against class label Neg, or against all other classes
	// when Neg is Unlabeled.
	DecisionColumns() []Pair
}

// Pair names a decision-value column: class labels Pos against Neg
// (Unlabeled: against the rest).
type Pair struct{ Pos, Neg int }
