package metrics

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// BEP holds precision–recall breakeven points (see the package documentation
// for the definition).
type BEP struct {
	Micro    float64   // pooled over all (row, class) pairs
	Macro    float64   // mean of PerClass over classes with a relevant row
	PerClass []float64 // NaN for a class with no relevant row
}

// Breakeven returns the micro- and macro-averaged precision–recall breakeven
// points of paper 002 (Table 2) for n×C class-membership scores (for example
// knn.Model.Scores or propagate.Model.Distributions) against relevance sets:
// relevant[i] lists the classes of row i (one for single-label data, several
// for multi-label data). Class indices must lie in 0..C-1.
//
// Cost O(nC log(nC)).
func Breakeven(scores mat.Matrix, relevant [][]int) (BEP, error) {
	n, c := scores.Dims()
	if n != len(relevant) {
		return BEP{}, fmt.Errorf("%w: scores have %d rows, relevant has %d", ErrLength, n, len(relevant))
	}
	if n == 0 || c == 0 {
		return BEP{}, ErrEmpty
	}
	rel := make([]bool, n*c)
	for i, set := range relevant {
		for _, k := range set {
			if k < 0 || k >= c {
				return BEP{}, fmt.Errorf("%w: relevant[%d] holds %d, want 0..%d", ErrLabel, i, k, c-1)
			}
			rel[i*c+k] = true
		}
	}
	s := make([]float64, n*c)
	for i := 0; i < n; i++ {
		for k := 0; k < c; k++ {
			v := scores.At(i, k)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return BEP{}, fmt.Errorf("%w: score (%d, %d) = %v", ErrNonFinite, i, k, v)
			}
			s[i*c+k] = v
		}
	}
	out := BEP{PerClass: make([]float64, c)}
	col := make([]item, n)
	sum, m := 0.0, 0
	for k := 0; k < c; k++ {
		for i := 0; i < n; i++ {
			col[i] = item{s[i*c+k], rel[i*c+k]}
		}
		b, ok := rPrecision(col)
		if !ok {
			out.PerClass[k] = math.NaN()
			continue
		}
		out.PerClass[k] = b
		sum += b
		m++
	}
	if m == 0 {
		return BEP{}, fmt.Errorf("%w: no row is relevant to any class", ErrEmpty)
	}
	out.Macro = sum / float64(m)
	all := make([]item, n*c)
	for j := range all {
		all[j] = item{s[j], rel[j]}
	}
	out.Micro, _ = rPrecision(all)
	return out, nil
}

type item struct {
	score float64
	rel   bool
}

// rPrecision returns the precision of the R highest-scored items, R = number
// of relevant items, counting the block of items tied with the R-th score by
// expectation. ok is false when R = 0.
func rPrecision(it []item) (float64, bool) {
	r := 0
	for _, x := range it {
		if x.rel {
			r++
		}
	}
	if r == 0 {
		return 0, false
	}
	sort.Slice(it, func(a, b int) bool { return it[a].score > it[b].score })
	// Items strictly above the R-th score, then the tied block.
	t := it[r-1].score
	lo := sort.Search(len(it), func(i int) bool { return it[i].score <= t }) // first index with score == t
	hi := sort.Search(len(it), func(i int) bool { return it[i].score < t })  // one past the block
	hits := 0.0
	for i := 0; i < lo; i++ {
		if it[i].rel {
			hits++
		}
	}
	tiedRel := 0
	for i := lo; i < hi; i++ {
		if it[i].rel {
			tiedRel++
		}
	}
	hits += float64(tiedRel) * float64(r-lo) / float64(hi-lo)
	return hits / float64(r), true
}
