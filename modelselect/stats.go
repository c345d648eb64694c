package modelselect

import (
	"cmp"
	"math"
	"slices"
)

// pairwiseSum is NumPy's sum of a contiguous float64 array (its
// pairwise_sum: plain accumulation below 8 values, eight accumulators up
// to 128, halves beyond), so that means and spreads, hence ties between
// candidates, come out bit for bit as scikit-learn's cv_results_.
func pairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		r := 0.0
		for _, v := range a {
			r += v
		}
		return r
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSum(a[:n2]) + pairwiseSum(a[n2:])
}

// meanStd returns NumPy's mean and population standard deviation of a
// (np.average and np.sqrt(np.average((a − mean)²)), as GridSearchCV's
// mean_test_score and std_test_score).
func meanStd(a []float64) (mean, std float64) {
	n := float64(len(a))
	mean = (0 + pairwiseSum(a)) / n
	d := make([]float64, len(a))
	for i, v := range a {
		d[i] = (v - mean) * (v - mean)
	}
	return mean, math.Sqrt((0 + pairwiseSum(d)) / n)
}

// rankMin ranks scores from the highest (rank 1), tied scores sharing the
// lowest rank of their group (scipy.stats.rankdata(−score,
// method="min")); NaN scores rank last, tied with the worst, as
// GridSearchCV ranks failed fits.
func rankMin(score []float64) []int {
	s := make([]float64, len(score))
	worst := math.Inf(1)
	for _, v := range score {
		if !math.IsNaN(v) {
			worst = min(worst, v)
		}
	}
	for i, v := range score {
		if math.IsNaN(v) {
			v = worst - 1
		}
		s[i] = v
	}
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s[b], s[a]) })
	rank := make([]int, len(s))
	for p, i := range idx {
		rank[i] = p + 1
		if p > 0 && s[i] == s[idx[p-1]] {
			rank[i] = rank[idx[p-1]]
		}
	}
	return rank
}
