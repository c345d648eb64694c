package knn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// weights fills w with the vote weight of each neighbour.
func (m *Model) weights(w []float64, nb []neighbour, name func() string) error {
	switch m.settings.Weights {
	case Similarity:
		for t, x := range nb {
			if x.kv < 0 {
				return fmt.Errorf("%w: %s has kernel value %v with labelled row %d (use uniform or distance weights)",
					ErrNegativeSim, name(), x.kv, m.Labeled[x.j])
			}
			w[t] = x.kv
		}
	case Distance:
		// scikit-learn: 1/d, and if some neighbour is at distance 0, those
		// count 1 and the others 0. Distance 0 = quantised distance 0.
		zero := false
		for _, x := range nb {
			if x.q == 0 {
				zero = true
			}
		}
		for t, x := range nb {
			switch {
			case zero && x.q == 0:
				w[t] = 1
			case zero:
				w[t] = 0
			default:
				w[t] = 1 / math.Sqrt(x.d2)
			}
		}
	default:
		for t := range nb {
			w[t] = 1
		}
	}
	return nil
}

// vote returns the class with the largest weight, ties to the tied class
// whose member ranks first (the peer's rule) or, with TiesLowest, to the
// lowest tied class (scikit-learn's). score (len C) receives the
// normalised class weights.
func (m *Model) vote(nb []neighbour, w, score []float64) int {
	for c := range score {
		score[c] = 0
	}
	sum := 0.0
	for t, x := range nb {
		score[m.y[x.j]] += w[t]
		sum += w[t]
	}
	best := math.Inf(-1)
	for _, s := range score {
		best = max(best, s)
	}
	win := -1
	if m.settings.Ties == TiesLowest {
		win = slices.Index(score, best)
	} else {
		for _, x := range nb {
			if score[m.y[x.j]] == best {
				win = m.y[x.j]
				break
			}
		}
	}
	if sum > 0 {
		for c := range score {
			score[c] /= sum
		}
	}
	return win
}

// setScores fills score with the weighted average of label indicator vectors.
func (m *Model) setScores(nb []neighbour, w, score []float64) {
	for c := range score {
		score[c] = 0
	}
	sum := 0.0
	for t, x := range nb {
		for _, c := range m.sets[x.j] {
			score[c] += w[t]
		}
		sum += w[t]
	}
	if sum > 0 {
		for c := range score {
			score[c] /= sum
		}
	}
}

// PredictRows returns the predicted classes of the given rows of the Gram
// matrix passed to FitGram (see GramRows). A nil dst allocates; otherwise
// len(dst) must equal len(rows).
func (m *Model) PredictRows(ctx context.Context, dst []int, rows []int) ([]int, error) {
	return m.predict(ctx, dst, GramRows(rows))
}

// PredictPoints returns the predicted classes of the rows of X (model from
// Fit).
func (m *Model) PredictPoints(ctx context.Context, dst []int, X mat.Matrix) ([]int, error) {
	return m.predict(ctx, dst, Points(X))
}

// PredictDiag returns the predicted classes of t new points given by their
// t×n kernel rows Kt against the fitted rows (only the labelled columns
// are read) and their self-similarities diag[i] = k(x_i, x_i) (see Cross).
func (m *Model) PredictDiag(ctx context.Context, dst []int, Kt mat.Matrix, diag []float64) ([]int, error) {
	return m.predict(ctx, dst, Cross(Kt, diag))
}

func (m *Model) predict(ctx context.Context, dst []int, q Query) ([]int, error) {
	if m.MultiLabel {
		return nil, fmt.Errorf("%w: use PredictSets", ErrMultiLabel)
	}
	n, err := m.queryLen(q)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = make([]int, n)
	} else if len(dst) != n {
		return nil, fmt.Errorf("%w: dst has length %d, query has %d points", ErrShape, len(dst), n)
	}
	C := m.NClasses
	err = m.search(ctx, q, func(i int, nb []neighbour) error {
		var wbuf [16]float64
		w := wbuf[:0]
		if len(nb) > len(wbuf) {
			w = make([]float64, len(nb))
		}
		w = w[:len(nb)]
		if err := m.weights(w, nb, func() string { return fmt.Sprintf("query %d", i) }); err != nil {
			return err
		}
		score := make([]float64, C)
		dst[i] = m.vote(nb, w, score)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

func (m *Model) queryLen(q Query) (int, error) {
	switch q.kind {
	case qRows:
		return len(q.rows), nil
	case qPoints:
		if q.x == nil {
			return 0, fmt.Errorf("%w: nil query matrix", ErrShape)
		}
		r, _ := q.x.Dims()
		return r, nil
	case qCross:
		if q.kt == nil {
			return 0, fmt.Errorf("%w: nil cross-kernel matrix", ErrShape)
		}
		r, _ := q.kt.Dims()
		return r, nil
	}
	return 0, fmt.Errorf("%w: empty Query", ErrShape)
}

// Scores returns the soft-kNN class-membership scores of paper 002 §2.1,
// f(x) = Σ_{z∈N_k(x)} W_zx·y_z / Σ_{z∈N_k(x)} W_zx, with y_z the 0/1 label
// (indicator) vector of neighbour z and W the vote weights: a t×Classes
// matrix whose rows sum to 1 for single-label models (0 rows when all
// weights are 0). A nil dst allocates.
func (m *Model) Scores(ctx context.Context, dst *mat.Dense, q Query) (*mat.Dense, error) {
	n, err := m.queryLen(q)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		if n == 0 {
			return nil, nil
		}
		dst = mat.NewDense(n, m.NClasses, nil)
	} else if r, c := dst.Dims(); r != n || c != m.NClasses {
		return nil, fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, r, c, n, m.NClasses)
	}
	err = m.search(ctx, q, func(i int, nb []neighbour) error {
		w := make([]float64, len(nb))
		if err := m.weights(w, nb, func() string { return fmt.Sprintf("query %d", i) }); err != nil {
			return err
		}
		row := dst.RawRowView(i)
		if m.MultiLabel {
			m.setScores(nb, w, row)
		} else {
			m.vote(nb, w, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// PredictSets returns predicted label sets: with TopR > 0 the TopR labels of
// highest score (ties to the lower label); otherwise the labels whose score
// is ≥ Threshold (Soft; Threshold 0 means 0.5) or > 1/2 (not Soft: a strict
// weighted majority of the neighbours carry the label). For a single-label
// model it returns one-element sets from the vote. Labels are in increasing
// order.
func (m *Model) PredictSets(ctx context.Context, q Query) ([][]int, error) {
	n, err := m.queryLen(q)
	if err != nil {
		return nil, err
	}
	out := make([][]int, n)
	if !m.MultiLabel {
		p, err := m.predict(ctx, nil, q)
		if err != nil {
			return nil, err
		}
		for i, c := range p {
			out[i] = []int{c}
		}
		return out, nil
	}
	s := m.settings
	thr := s.Threshold
	if thr == 0 {
		thr = 0.5
	}
	C := m.NClasses
	err = m.search(ctx, q, func(i int, nb []neighbour) error {
		w := make([]float64, len(nb))
		if err := m.weights(w, nb, func() string { return fmt.Sprintf("query %d", i) }); err != nil {
			return err
		}
		score := make([]float64, C)
		m.setScores(nb, w, score)
		var set []int
		if s.TopR > 0 {
			idx := make([]int, C)
			for c := range idx {
				idx[c] = c
			}
			sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
			set = append(set, idx[:min(s.TopR, C)]...)
			sort.Ints(set)
		} else {
			for c, v := range score {
				if (s.Soft && v >= thr) || (!s.Soft && v > 0.5) {
					set = append(set, c)
				}
			}
		}
		out[i] = set
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Neighbors returns, for each query, the rows (of the fitted matrix) of its K
// nearest labelled points in rank order: by kernel-induced squared distance
// d² = K_xx + K_zz − 2K_xz quantised to 1e-9 of the batch maximum, ties to
// the lower row.
func (m *Model) Neighbors(ctx context.Context, q Query) ([][]int, error) {
	n, err := m.queryLen(q)
	if err != nil {
		return nil, err
	}
	out := make([][]int, n)
	err = m.search(ctx, q, func(i int, nb []neighbour) error {
		r := make([]int, len(nb))
		for t, x := range nb {
			r[t] = m.Labeled[x.j]
		}
		out[i] = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
