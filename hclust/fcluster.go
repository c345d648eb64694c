package hclust

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Criterion names a rule that cuts a Tree into flat clusters, as the
// criterion argument of scipy.cluster.hierarchy.fcluster names it.
type Criterion int

const (
	// NClusters gives exactly K clusters by undoing the last K−1 merges
	// (CutK). Where heights tie across the cut, the tie is split in linkage
	// order, so the count is K even when no height threshold gives K.
	NClusters Criterion = iota
	// MaxClust is fcluster(Z, K, "maxclust"): the lowest height threshold,
	// among the subtrees' largest heights, that leaves at most K clusters
	// (CutMaxClust). With tied heights or inversions it gives fewer than K.
	MaxClust
	// Distance is fcluster(Z, h, "distance"): the clusters whose subtrees
	// have no merge above h (CutHeight).
	Distance
	// Inconsistent is fcluster(Z, t, "inconsistent", depth): the clusters
	// whose subtrees have no inconsistency coefficient above t
	// (CutInconsistent).
	Inconsistent
	// MaxClustMonocrit is fcluster(Z, K, "maxclust_monocrit", monocrit=MR)
	// with MR = maxRstat(Z, inconsistent(Z, depth), 3), the largest
	// inconsistency coefficient in each subtree: the lowest MR threshold
	// that leaves at most K clusters.
	MaxClustMonocrit
	// Monocrit is fcluster(Z, t, "monocrit", monocrit=MR) with the same MR
	// as MaxClustMonocrit: the clusters whose MR is at most t. It equals
	// Inconsistent; the name is kept so that SciPy's calls translate one to
	// one.
	Monocrit
)

var criterionNames = [...]string{"nclusters", "maxclust", "distance", "inconsistent", "maxclust_monocrit", "monocrit"}

// String returns the criterion's name as ParseCriterion accepts it.
func (c Criterion) String() string {
	if c < 0 || int(c) >= len(criterionNames) {
		return fmt.Sprintf("Criterion(%d)", int(c))
	}
	return criterionNames[c]
}

// ErrCriterion is returned for an unknown criterion name.
var ErrCriterion = errors.New("unknown cut criterion")

// ParseCriterion returns the criterion named s (the names of String, which
// are SciPy's for every criterion but nclusters).
func ParseCriterion(s string) (Criterion, error) {
	for i, n := range criterionNames {
		if s == n {
			return Criterion(i), nil
		}
	}
	return 0, fmt.Errorf("hclust: %q (want one of %s): %w", s, strings.Join(criterionNames[:], ", "), ErrCriterion)
}

// Counted reports whether the criterion's argument is a number of clusters
// (NClusters, MaxClust, MaxClustMonocrit) rather than a threshold.
func (c Criterion) Counted() bool {
	return c == NClusters || c == MaxClust || c == MaxClustMonocrit
}

// Cut is one flat cut: a Criterion with its argument.
type Cut struct {
	Criterion Criterion
	// K is the number of clusters of NClusters, MaxClust and
	// MaxClustMonocrit.
	K int
	// T is the threshold of Distance (a height), Inconsistent and Monocrit
	// (an inconsistency coefficient).
	T float64
	// Depth is the number of levels below each merge whose heights the
	// inconsistency statistics include (SciPy's depth; 0 means 2, SciPy's
	// default). Used by Inconsistent, MaxClustMonocrit and Monocrit.
	Depth int
}

// Cut partitions the leaves by c. Labels are 0..k−1, numbered in order of
// each cluster's smallest leaf; SciPy numbers fcluster's clusters from 1 in
// the order of its traversal, so the partitions are equal and the numbers
// differ. Errors: ErrK for a count outside 1..N, ErrCriterion, an error for
// a NaN threshold or a negative depth.
func (t *Tree) Cut(c Cut) ([]int, error) {
	depth := c.Depth
	if depth == 0 {
		depth = 2
	}
	if depth < 0 {
		return nil, fmt.Errorf("hclust: inconsistency depth %d: must be positive", c.Depth)
	}
	if c.Criterion.Counted() {
		if c.K < 1 || c.K > t.N {
			return nil, fmt.Errorf("hclust: cut into k = %d clusters of %d leaves: %w", c.K, t.N, ErrK)
		}
	} else if math.IsNaN(c.T) {
		return nil, fmt.Errorf("hclust: %s cut: the threshold is NaN", c.Criterion)
	}
	switch c.Criterion {
	case NClusters:
		return t.CutK(c.K)
	case MaxClust:
		return t.CutMaxClust(c.K)
	case Distance:
		return t.CutHeight(c.T), nil
	case Inconsistent, Monocrit:
		return t.CutInconsistent(c.T, depth), nil
	case MaxClustMonocrit:
		return t.CutMaxClustMonocrit(t.MaxInconsistency(t.Inconsistency(depth)), c.K)
	}
	return nil, fmt.Errorf("hclust: %v: %w", c.Criterion, ErrCriterion)
}

// MaxDists returns, for each merge, the largest merge height in its subtree
// (scipy.cluster.hierarchy.maxdists): the merge's own height for a monotone
// tree; for Centroid and Median inversions, possibly a lower merge's. O(N).
func (t *Tree) MaxDists() []float64 {
	md := make([]float64, len(t.Merges))
	for k, m := range t.Merges {
		md[k] = t.subtreeMax(md, m, m.Height)
	}
	return md
}

// subtreeMax is the largest of v and the values mc of m's merged children.
func (t *Tree) subtreeMax(mc []float64, m Merge, v float64) float64 {
	n := t.N
	if m.A >= n && mc[m.A-n] > v {
		v = mc[m.A-n]
	}
	if m.B >= n && mc[m.B-n] > v {
		v = mc[m.B-n]
	}
	return v
}

// Inconsistency holds the statistics of scipy.cluster.hierarchy.inconsistent
// for one merge: the Mean and the standard deviation Std (with N−1 in the
// denominator) of the heights of the merges at most depth levels down from
// it, itself included, their Count, and the inconsistency coefficient
// Coeff = (height − Mean)/Std (0 when Std is 0).
type Inconsistency struct {
	Mean, Std float64
	Count     int
	Coeff     float64
}

// Inconsistency returns the inconsistency statistics of every merge, over
// the merges at most depth levels below it (depth 1: the merge alone;
// SciPy's inconsistent(Z, d) with d = depth). The heights are summed in
// SciPy's order (left subtree, right subtree, then the merge itself) so
// that the results agree with SciPy's to the last bits.
// O(N·min(2^depth, N)) time. depth < 1 is taken as 1.
func (t *Tree) Inconsistency(depth int) []Inconsistency {
	if depth < 1 {
		depth = 1
	}
	n := t.N
	R := make([]Inconsistency, len(t.Merges))
	for i := range t.Merges {
		var sum, sq float64
		count := 0
		// post-order, left subtree first, as SciPy sums: the variance is
		// a difference of nearly equal sums, whose rounding depends on it
		var visit func(k, level int)
		visit = func(k, level int) {
			m := t.Merges[k]
			if level < depth {
				if m.A >= n {
					visit(m.A-n, level+1)
				}
				if m.B >= n {
					visit(m.B-n, level+1)
				}
			}
			sum += m.Height
			sq += m.Height * m.Height
			count++
		}
		visit(i, 1)
		mean := sum / float64(count)
		var v float64
		if count < 2 {
			v = (sq - sum*sum/float64(count)) / float64(count)
		} else {
			v = (sq - sum*sum/float64(count)) / float64(count-1)
		}
		r := Inconsistency{Mean: mean, Count: count}
		if v > 0 {
			r.Std = math.Sqrt(v)
			r.Coeff = (t.Merges[i].Height - mean) / r.Std
		}
		R[i] = r
	}
	return R
}

// MaxInconsistency returns, for each merge, the largest inconsistency
// coefficient R[j].Coeff over the merges j of its subtree
// (scipy.cluster.hierarchy.maxinconsts(Z, R), equally maxRstat(Z, R, 3)).
// R must have one entry per merge.
func (t *Tree) MaxInconsistency(R []Inconsistency) []float64 {
	mi := make([]float64, len(t.Merges))
	for k, m := range t.Merges {
		mi[k] = t.subtreeMax(mi, m, R[k].Coeff)
	}
	return mi
}

// CutMonocrit partitions the leaves into the largest subtrees whose value
// mc (one per merge, non-decreasing towards the root, e.g. MaxDists or
// MaxInconsistency) is at most cutoff; leaves under no such subtree are
// singletons: fcluster(Z, cutoff, "monocrit", monocrit=mc). Labels are
// numbered by smallest leaf. O(N).
func (t *Tree) CutMonocrit(mc []float64, cutoff float64) []int {
	keep := make([]bool, len(t.Merges))
	for k := range t.Merges {
		keep[k] = mc[k] <= cutoff
	}
	// labels wants a set closed under taking children: a merge below a
	// kept one belongs to the same cluster whatever its own value
	n := t.N
	for k := len(t.Merges) - 1; k >= 0; k-- {
		if keep[k] {
			m := t.Merges[k]
			if m.A >= n {
				keep[m.A-n] = true
			}
			if m.B >= n {
				keep[m.B-n] = true
			}
		}
	}
	return t.labels(keep)
}

// CutInconsistent partitions the leaves into the largest subtrees whose
// inconsistency coefficients, with statistics over depth levels, are all at
// most threshold: fcluster(Z, threshold, "inconsistent", depth). O(N·2^depth).
func (t *Tree) CutInconsistent(threshold float64, depth int) []int {
	return t.CutMonocrit(t.MaxInconsistency(t.Inconsistency(depth)), threshold)
}

// CutMaxClust partitions the leaves into at most k clusters with the
// lowest threshold on the subtrees' largest heights that allows it:
// fcluster(Z, k, "maxclust"). A monotone tree whose merge N−k lies strictly
// below merge N−k+1 gives the partition of CutK; tied heights across that
// boundary (and inversions) give fewer than k clusters. Errors: ErrK if k
// is outside 1..N.
func (t *Tree) CutMaxClust(k int) ([]int, error) {
	return t.CutMaxClustMonocrit(t.MaxDists(), k)
}

// CutMaxClustMonocrit partitions the leaves into at most k clusters with
// the lowest threshold on mc (one value per merge, non-decreasing towards
// the root) that allows it: fcluster(Z, k, "maxclust_monocrit",
// monocrit=mc). The thresholds tried are the values of mc searched by
// bisection over the merge index, as SciPy searches them, so that the
// answer is SciPy's also where mc is not sorted by merge index. The
// threshold mc[0] is never tried (SciPy's bisection starts above it), so
// with inversions even k = N may give fewer clusters, as in SciPy. Errors:
// ErrK if k is outside 1..N.
func (t *Tree) CutMaxClustMonocrit(mc []float64, k int) ([]int, error) {
	n := t.N
	if k < 1 || k > n {
		return nil, fmt.Errorf("hclust: cut into k = %d clusters of %d leaves: %w", k, n, ErrK)
	}
	if n <= 2 {
		// SciPy's bisection needs three leaves (with two it reads past
		// the end of mc); the answer is plain
		keep := make([]bool, len(t.Merges))
		for i := range keep {
			keep[i] = k == 1
		}
		return t.labels(keep), nil
	}
	lo, hi := 0, n-1
	for hi-lo > 1 {
		i := (lo + hi) / 2
		if t.countMonocrit(mc, mc[i], k) > k {
			lo = i
		} else {
			hi = i
		}
	}
	return t.CutMonocrit(mc, mc[hi]), nil
}

// countMonocrit counts the clusters CutMonocrit(mc, cutoff) gives,
// stopping as soon as the count exceeds limit.
func (t *Tree) countMonocrit(mc []float64, cutoff float64, limit int) int {
	n := t.N
	count := 0
	stack := []int{len(t.Merges) - 1}
	for len(stack) > 0 && count <= limit {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if mc[k] <= cutoff {
			count++
			continue
		}
		m := t.Merges[k]
		for _, c := range [2]int{m.A, m.B} {
			if c >= n {
				stack = append(stack, c-n)
			} else {
				count++
			}
		}
	}
	return count
}
