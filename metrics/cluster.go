package metrics

import (
	"fmt"
	"math"
	"sort"
)

// contingency maps the ids of a and b to 0..na-1, 0..nb-1 (in increasing id
// order) and returns the na×nb table of co-occurrence counts, row-major.
func contingency(a, b []int) (tab []int, na, nb int, ia, ib []int) {
	ia, na = relabel(a)
	ib, nb = relabel(b)
	tab = make([]int, na*nb)
	for i := range a {
		tab[ia[i]*nb+ib[i]]++
	}
	return tab, na, nb, ia, ib
}

// relabel maps ids to 0..m-1 in increasing id order.
func relabel(y []int) ([]int, int) {
	u := append([]int(nil), y...)
	sort.Ints(u)
	m := 0
	for i, v := range u {
		if i == 0 || v != u[m-1] {
			u[m] = v
			m++
		}
	}
	u = u[:m]
	out := make([]int, len(y))
	for i, v := range y {
		out[i] = sort.SearchInts(u, v)
	}
	return out, m
}

// Pairs holds unordered pair counts of a clustering against a reference
// labelling: TP = pairs together in both, FP = together in the clustering
// only, FN = together in the reference only, TN = apart in both.
type Pairs struct {
	TP, FP, FN, TN int64
}

// TPR returns TP/(TP+FN), the fraction of same-class pairs put together
// (0 when there is no such pair).
func (p Pairs) TPR() float64 {
	if p.TP+p.FN == 0 {
		return 0
	}
	return float64(p.TP) / float64(p.TP+p.FN)
}

// FPR returns FP/(FP+TN), the fraction of different-class pairs put together
// (0 when there is no such pair).
func (p Pairs) FPR() float64 {
	if p.FP+p.TN == 0 {
		return 0
	}
	return float64(p.FP) / float64(p.FP+p.TN)
}

// PairCounts counts the n(n-1)/2 unordered pairs of rows by whether yTrue and
// yPred put them together. Cost O(n + a·b) for a and b distinct ids.
func PairCounts(yTrue, yPred []int) (Pairs, error) {
	if err := checkPair(yTrue, yPred); err != nil {
		return Pairs{}, err
	}
	tab, na, nb, _, _ := contingency(yTrue, yPred)
	n := int64(len(yTrue))
	var sumSq, rowSq, colSq int64
	for _, v := range tab {
		sumSq += int64(v) * int64(v)
	}
	for i := 0; i < na; i++ {
		s := int64(0)
		for j := 0; j < nb; j++ {
			s += int64(tab[i*nb+j])
		}
		rowSq += s * s
	}
	for j := 0; j < nb; j++ {
		s := int64(0)
		for i := 0; i < na; i++ {
			s += int64(tab[i*nb+j])
		}
		colSq += s * s
	}
	var p Pairs
	p.TP = (sumSq - n) / 2
	p.FP = (colSq - sumSq) / 2
	p.FN = (rowSq - sumSq) / 2
	p.TN = n*(n-1)/2 - p.TP - p.FP - p.FN
	return p, nil
}

// ARI returns the adjusted Rand index of two labellings,
// 2(TP·TN − FN·FP) / ((TP+FN)(FN+TN) + (TP+FP)(FP+TN)), and 1 when FN = FP = 0
// (scikit-learn's adjusted_rand_score).
func ARI(yTrue, yPred []int) (float64, error) {
	p, err := PairCounts(yTrue, yPred)
	if err != nil {
		return 0, err
	}
	if p.FN == 0 && p.FP == 0 {
		return 1, nil
	}
	tp, fp, fn, tn := float64(p.TP), float64(p.FP), float64(p.FN), float64(p.TN)
	return 2 * (tp*tn - fn*fp) / ((tp+fn)*(fn+tn) + (tp+fp)*(fp+tn)), nil
}

// NMI returns the normalised mutual information MI(a,b) / ((H(a)+H(b))/2) with
// natural logarithms, as scikit-learn's normalized_mutual_info_score with
// average_method="arithmetic": 1 when both labellings have one cluster, 0 when
// MI = 0.
func NMI(yTrue, yPred []int) (float64, error) {
	if err := checkPair(yTrue, yPred); err != nil {
		return 0, err
	}
	tab, na, nb, _, _ := contingency(yTrue, yPred)
	if na == 1 && nb == 1 {
		return 1, nil
	}
	if na == 1 || nb == 1 {
		return 0, nil
	}
	n := float64(len(yTrue))
	pa := make([]float64, na)
	pb := make([]float64, nb)
	for i := 0; i < na; i++ {
		for j := 0; j < nb; j++ {
			v := float64(tab[i*nb+j])
			pa[i] += v
			pb[j] += v
		}
	}
	mi := 0.0
	for i := 0; i < na; i++ {
		for j := 0; j < nb; j++ {
			v := float64(tab[i*nb+j])
			if v == 0 {
				continue
			}
			t := v / n * (math.Log(v) - math.Log(n) - math.Log(pa[i]*pb[j]) + 2*math.Log(n))
			if math.Abs(t) < 0x1p-52 {
				t = 0
			}
			mi += t
		}
	}
	if mi <= 0 {
		return 0, nil
	}
	h := func(p []float64) float64 {
		s := 0.0
		for _, v := range p {
			s -= v / n * (math.Log(v) - math.Log(n))
		}
		return s
	}
	return mi / ((h(pa) + h(pb)) / 2), nil
}

// Misclassified returns the number of rows not covered by the best one-to-one
// matching of cluster ids to classes (the matching maximising the number of
// rows whose cluster is matched to their class, found by the Hungarian
// algorithm), and the matching itself: match[cluster id] = class, for the
// matched non-negative cluster ids. Negative cluster ids (noise) are never
// matched; extra clusters or classes stay unmatched.
func Misclassified(yTrue, clusters []int) (int, map[int]int, error) {
	if err := checkPair(yTrue, clusters); err != nil {
		return 0, nil, err
	}
	for i, t := range yTrue {
		if t < 0 {
			return 0, nil, fmt.Errorf("%w: yTrue[%d] = %d", ErrLabel, i, t)
		}
	}
	tab, _, nc, it, ic := contingency(yTrue, clusters)
	cid := make([]int, nc) // cluster id of column j
	for i, c := range clusters {
		cid[ic[i]] = c
	}
	ntc := 0
	for _, t := range it {
		if t+1 > ntc {
			ntc = t + 1
		}
	}
	classOf := make([]int, ntc) // class of row t
	for i, t := range yTrue {
		classOf[it[i]] = t
	}
	var rows []int
	for j := 0; j < nc; j++ {
		if cid[j] >= 0 {
			rows = append(rows, j)
		}
	}
	match := map[int]int{}
	if len(rows) == 0 {
		return len(yTrue), match, nil
	}
	// gain[r][t] = rows of class t in cluster rows[r]; maximise → minimise -gain.
	m, M := len(rows), ntc
	transpose := m > M
	var cost [][]float64
	if !transpose {
		cost = make([][]float64, m)
		for r, j := range rows {
			cost[r] = make([]float64, M)
			for t := 0; t < M; t++ {
				cost[r][t] = -float64(tab[t*nc+j])
			}
		}
	} else {
		cost = make([][]float64, M)
		for t := 0; t < M; t++ {
			cost[t] = make([]float64, m)
			for r, j := range rows {
				cost[t][r] = -float64(tab[t*nc+j])
			}
		}
	}
	as, err := Assign(cost)
	if err != nil {
		return 0, nil, err
	}
	hit := 0
	for a, b := range as {
		r, t := a, b
		if transpose {
			r, t = b, a
		}
		g := tab[t*nc+rows[r]]
		if g > 0 {
			match[cid[rows[r]]] = classOf[t]
		}
		hit += g
	}
	return len(yTrue) - hit, match, nil
}
