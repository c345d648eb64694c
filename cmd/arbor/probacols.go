package main

import (
	"strconv"

	"github.com/arbor-ml/arbor/learner"
)

// probaUsage and decisionUsage document --proba and --decision (classify
// and predict).
const (
	probaUsage    = "add a column p_CLASS per class: class probabilities (svm: Platt sigmoids on cross-validated decision values and pairwise coupling, as LIBSVM -b 1 — classify fits them; knn: vote shares, as scikit-learn's predict_proba; lp/spreading: the normalised label distribution); empty for a row no label reaches (docs/probabilities.md)"
	decisionUsage = "add the SVM's decision values: a column d_A_B per pair of classes A, B (f > 0 for A, LIBSVM's sign), d_A for one-vs-rest"
)

// table is a matrix of per-row values as the columns read it.
type table interface {
	Dims() (r, c int)
	At(i, j int) float64
}

// present is m as a table, or nil when m is a nil pointer (no values asked).
func present[M interface {
	comparable
	table
}](m M) table {
	var none M
	if m == none {
		return nil
	}
	return m
}

// extraColumns are the columns --proba and --decision add to the
// predictions: a header and, per row, the formatted values.
type extraColumns struct {
	head []string
	P, D table // rows as the predictions, nil when not asked
}

// newExtraColumns names the columns of P (one per class) and D (one per
// pair of class indices).
func newExtraColumns(classes []string, P, D table, pairs []learner.Pair) *extraColumns {
	x := &extraColumns{P: P, D: D}
	if P != nil {
		for _, c := range classes {
			x.head = append(x.head, "p_"+c)
		}
	}
	if D != nil {
		for _, pr := range pairs {
			name := "d_" + className(classes, pr.Pos)
			if pr.Neg != learner.Unlabeled {
				name += "_" + className(classes, pr.Neg)
			}
			x.head = append(x.head, name)
		}
	}
	return x
}

func className(classes []string, c int) string {
	if c >= 0 && c < len(classes) {
		return classes[c]
	}
	return strconv.Itoa(c)
}

// row appends the values of row i to rec: probabilities (all empty when
// the row has none: every probability 0), then decision values, in Go's
// shortest round-trip form.
func (x *extraColumns) row(rec []string, i int) []string {
	if x == nil {
		return rec
	}
	if x.P != nil {
		_, k := x.P.Dims()
		none := true
		for c := range k {
			if x.P.At(i, c) != 0 {
				none = false
			}
		}
		for c := range k {
			v := ""
			if !none {
				v = strconv.FormatFloat(x.P.At(i, c), 'g', -1, 64)
			}
			rec = append(rec, v)
		}
	}
	if x.D != nil {
		_, k := x.D.Dims()
		for c := range k {
			rec = append(rec, strconv.FormatFloat(x.D.At(i, c), 'g', -1, 64))
		}
	}
	return rec
}
