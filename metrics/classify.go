package metrics

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Sentinel errors, usable with errors.Is.
var (
	ErrLength    = errors.New("metrics: length mismatch")
	ErrEmpty     = errors.New("metrics: no rows")
	ErrLabel     = errors.New("metrics: class index out of range")
	ErrNonFinite = errors.New("metrics: non-finite value")
)

func checkPair(yTrue, yPred []int) error {
	if len(yTrue) != len(yPred) {
		return fmt.Errorf("%w: %d true labels, %d predictions", ErrLength, len(yTrue), len(yPred))
	}
	if len(yTrue) == 0 {
		return ErrEmpty
	}
	return nil
}

// numClasses returns classes if > 0, else 1 + the largest label in the slices.
// It checks every label lies in 0..C-1.
func numClasses(classes int, ys ...[]int) (int, error) {
	if classes <= 0 {
		for _, y := range ys {
			for _, v := range y {
				if v+1 > classes {
					classes = v + 1
				}
			}
		}
	}
	names := []string{"yTrue", "yPred"}
	for k, y := range ys {
		for i, v := range y {
			if v < 0 || v >= classes {
				return 0, fmt.Errorf("%w: %s[%d] = %d, want 0..%d", ErrLabel, names[k], i, v, classes-1)
			}
		}
	}
	return classes, nil
}

// Accuracy returns the fraction of rows where yPred[i] == yTrue[i].
// yTrue must hold class indices (≥ 0); a prediction may be any value
// (for example dataset.Unlabeled, which then counts as wrong).
func Accuracy(yTrue, yPred []int) (float64, error) {
	if err := checkPair(yTrue, yPred); err != nil {
		return 0, err
	}
	hit := 0
	for i, t := range yTrue {
		if t < 0 {
			return 0, fmt.Errorf("%w: yTrue[%d] = %d", ErrLabel, i, t)
		}
		if yPred[i] == t {
			hit++
		}
	}
	return float64(hit) / float64(len(yTrue)), nil
}

// Confusion returns the classes×classes confusion matrix: entry (t, p) counts
// rows with true class t predicted as p. classes ≤ 0 means 1 + the largest
// label seen. A nil dst allocates; otherwise dst must be classes×classes.
func Confusion(dst *mat.Dense, yTrue, yPred []int, classes int) (*mat.Dense, error) {
	if err := checkPair(yTrue, yPred); err != nil {
		return nil, err
	}
	c, err := numClasses(classes, yTrue, yPred)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = mat.NewDense(c, c, nil)
	} else {
		if r, cc := dst.Dims(); r != c || cc != c {
			return nil, fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrLength, r, cc, c, c)
		}
		dst.Zero()
	}
	for i, t := range yTrue {
		p := yPred[i]
		dst.Set(t, p, dst.At(t, p)+1)
	}
	return dst, nil
}

// PerClass holds per-class precision, recall, F1 and support (number of true rows).
type PerClass struct {
	Precision, Recall, F1 []float64
	Support               []int
}

// PRF returns per-class scores for classes 0..C-1 (C = classes, or
// 1 + the largest label if classes ≤ 0), equal to scikit-learn's
// precision_recall_fscore_support(y_true, y_pred, labels=range(C),
// zero_division=0): a 0/0 ratio is 0.
func PRF(yTrue, yPred []int, classes int) (PerClass, error) {
	if err := checkPair(yTrue, yPred); err != nil {
		return PerClass{}, err
	}
	c, err := numClasses(classes, yTrue, yPred)
	if err != nil {
		return PerClass{}, err
	}
	tp := make([]int, c)
	nPred := make([]int, c)
	nTrue := make([]int, c)
	for i, t := range yTrue {
		p := yPred[i]
		nTrue[t]++
		nPred[p]++
		if p == t {
			tp[t]++
		}
	}
	r := PerClass{Precision: make([]float64, c), Recall: make([]float64, c), F1: make([]float64, c), Support: nTrue}
	for k := 0; k < c; k++ {
		if nPred[k] > 0 {
			r.Precision[k] = float64(tp[k]) / float64(nPred[k])
		}
		if nTrue[k] > 0 {
			r.Recall[k] = float64(tp[k]) / float64(nTrue[k])
		}
		// sklearn: F = 2·tp / (2·tp + fp + fn), 0 when the denominator is 0.
		if den := nPred[k] + nTrue[k]; den > 0 {
			r.F1[k] = 2 * float64(tp[k]) / float64(den)
		}
	}
	return r, nil
}
