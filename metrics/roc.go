package metrics

import (
	"errors"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/hclust"
)

// ErrTree reports an invalid hierarchy or graph given to a hierarchy ROC.
var ErrTree = errors.New("metrics: invalid hierarchy")

// ROC is a pairwise ROC curve through the levels of a hierarchy (paper 004
// §4.2–4.3): point k is the partition after k merges, from the singletons
// (FPR = TPR = 0) to the single cluster (1, 1). A pair of items is
// positive when the reference says they belong together (same class, or
// joined by an edge of a graph); TPR is the fraction of positive pairs in
// one cluster, FPR the fraction of negative pairs in one cluster.
type ROC struct {
	FPR, TPR []float64
	// Positive and Negative are the numbers of positive and negative pairs.
	Positive, Negative int64
}

// AUC is the area under the curve by the trapezoid rule through the points
// in order (numpy.trapz(TPR, FPR), as the paper's authors compute it).
func (r ROC) AUC() float64 { return Trapezoid(r.FPR, r.TPR) }

// Trapezoid returns Σ_k (x_k − x_{k−1})·(y_k + y_{k−1})/2 over the points
// in the given order (numpy.trapz(y, x)); the sign follows the direction of
// x.
func Trapezoid(x, y []float64) float64 {
	var s float64
	for k := 1; k < min(len(x), len(y)); k++ {
		s += (x[k] - x[k-1]) * (y[k] + y[k-1]) / 2
	}
	return s
}

// checkTree validates t against n items.
func checkTree(t *hclust.Tree, n int) error {
	if t == nil {
		return fmt.Errorf("%w: nil tree", ErrTree)
	}
	if t.N != n {
		return fmt.Errorf("%w: tree over %d leaves, %d items", ErrTree, t.N, n)
	}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrTree, err)
	}
	return nil
}

// curve turns cumulative pair counts into a ROC.
func curve(tp, fp []int64, pos, neg int64) ROC {
	r := ROC{FPR: make([]float64, len(tp)), TPR: make([]float64, len(tp)), Positive: pos, Negative: neg}
	for k := range tp {
		if pos > 0 {
			r.TPR[k] = float64(tp[k]) / float64(pos)
		}
		if neg > 0 {
			r.FPR[k] = float64(fp[k]) / float64(neg)
		}
	}
	return r
}

// HierarchyROCLabels is the ROC of the hierarchy t against class labels y
// (positive pair: same class). It keeps a class-count table per cluster and,
// at each merge of clusters A and B, adds Σ_c A_c·B_c same-class pairs and
// |A||B| − that many different-class pairs, merging the smaller table into
// the larger: O(n log n) table updates in all, not O(n²) per level.
// Errors: ErrLength, ErrEmpty, ErrTree.
func HierarchyROCLabels(t *hclust.Tree, y []int) (ROC, error) {
	n := len(y)
	if n == 0 {
		return ROC{}, fmt.Errorf("%w: no items", ErrEmpty)
	}
	if err := checkTree(t, n); err != nil {
		return ROC{}, err
	}
	counts := make([]map[int]int64, 2*n-1)
	size := make([]int64, 2*n-1)
	classN := map[int]int64{}
	for i, c := range y {
		counts[i] = map[int]int64{c: 1}
		size[i] = 1
		classN[c]++
	}
	var pos int64
	for _, v := range classN {
		pos += v * (v - 1) / 2
	}
	all := int64(n) * int64(n-1) / 2
	tp := make([]int64, n)
	fp := make([]int64, n)
	for k, m := range t.Merges {
		a, b := counts[m.A], counts[m.B]
		if len(a) < len(b) {
			a, b = b, a
		}
		var same int64
		for c, v := range b {
			same += v * a[c]
		}
		for c, v := range b {
			a[c] += v
		}
		counts[n+k], counts[m.A], counts[m.B] = a, nil, nil
		size[n+k] = size[m.A] + size[m.B]
		tp[k+1] = tp[k] + same
		fp[k+1] = fp[k] + size[m.A]*size[m.B] - same
	}
	return curve(tp, fp, pos, all-pos), nil
}

// HierarchyROCGraph is the ROC of the hierarchy t over the n nodes of a
// graph (positive pair: joined by an edge; neighbors(v) lists v's
// neighbours, each edge in both lists, no self loops). It keeps, per
// cluster, the number of edges to each neighbouring cluster; merging A and
// B adds the A–B edge count to the true positives and |A||B| minus it to
// the false positives, and the smaller adjacency table is merged into the
// larger (the merged cluster keeps the larger one's representative, so only
// the smaller one's neighbours are renamed): O(E log n) updates in all.
// Errors: ErrEmpty, ErrTree (also for a neighbour id outside 0..n−1, a
// self loop or an edge listed on one side only).
func HierarchyROCGraph(t *hclust.Tree, n int, neighbors func(v int) []int32) (ROC, error) {
	if n == 0 {
		return ROC{}, fmt.Errorf("%w: no nodes", ErrEmpty)
	}
	if err := checkTree(t, n); err != nil {
		return ROC{}, err
	}
	// adjacency between clusters, keyed by representative node
	adj := make([]map[int32]int64, n)
	var deg2 int64
	for v := 0; v < n; v++ {
		nb := neighbors(v)
		adj[v] = make(map[int32]int64, len(nb))
		for _, u := range nb {
			if u < 0 || int(u) >= n || int(u) == v {
				return ROC{}, fmt.Errorf("%w: node %d has neighbour %d", ErrTree, v, u)
			}
			adj[v][u]++
		}
		deg2 += int64(len(nb))
	}
	for v := 0; v < n; v++ {
		for u, w := range adj[v] {
			if adj[u][int32(v)] != w {
				return ROC{}, fmt.Errorf("%w: edge %d–%d listed on one side only", ErrTree, v, u)
			}
		}
	}
	edges := deg2 / 2
	rep := make([]int32, 2*n-1) // cluster id → representative node
	size := make([]int64, 2*n-1)
	for i := 0; i < n; i++ {
		rep[i], size[i] = int32(i), 1
	}
	tp := make([]int64, n)
	fp := make([]int64, n)
	for k, m := range t.Merges {
		ra, rb := rep[m.A], rep[m.B]
		if len(adj[ra]) < len(adj[rb]) {
			ra, rb = rb, ra
		}
		big, small := adj[ra], adj[rb]
		between := big[rb]
		delete(big, rb)
		delete(small, ra)
		for c, w := range small {
			big[c] += w
			nc := adj[c]
			nc[ra] += w
			delete(nc, rb)
		}
		adj[rb] = nil
		rep[n+k] = ra
		size[n+k] = size[m.A] + size[m.B]
		tp[k+1] = tp[k] + between
		fp[k+1] = fp[k] + size[m.A]*size[m.B] - between
	}
	all := int64(n) * int64(n-1) / 2
	return curve(tp, fp, edges, all-edges), nil
}

// PartitionROC is the hierarchy-free comparison of paper 004 §4.3 (its
// k-means curve): one ROC point per flat partition in the given order
// (PairCounts against y), plus the origin when withOrigin is set; AUC then
// integrates through them in that order, as numpy.trapz does in the
// authors' script (for k-means with K = 1..Kmax, the points run from (1, 1)
// to near the origin, so the authors negate the result; AbsAUC does that).
func PartitionROC(y []int, partitions [][]int, withOrigin bool) (ROC, error) {
	var r ROC
	for i, p := range partitions {
		pc, err := PairCounts(y, p)
		if err != nil {
			return ROC{}, fmt.Errorf("partition %d: %w", i, err)
		}
		r.FPR = append(r.FPR, pc.FPR())
		r.TPR = append(r.TPR, pc.TPR())
		r.Positive, r.Negative = pc.TP+pc.FN, pc.FP+pc.TN
	}
	if withOrigin {
		r.FPR = append(r.FPR, 0)
		r.TPR = append(r.TPR, 0)
	}
	return r, nil
}

// AbsAUC is |AUC|: the area whichever way the points run.
func (r ROC) AbsAUC() float64 { return math.Abs(r.AUC()) }

// HierarchyROCSubgraph is HierarchyROCGraph over the subgraph induced by
// rows: leaf i of t is node rows[i] of the graph whose neighbours
// neighbors lists, and only edges between two of rows count.
func HierarchyROCSubgraph(t *hclust.Tree, rows []int, neighbors func(v int) []int32) (ROC, error) {
	pos := make(map[int32]int32, len(rows))
	for i, r := range rows {
		pos[int32(r)] = int32(i)
	}
	nb := make([][]int32, len(rows))
	for i, r := range rows {
		for _, v := range neighbors(r) {
			if j, ok := pos[v]; ok {
				nb[i] = append(nb[i], j)
			}
		}
	}
	return HierarchyROCGraph(t, len(rows), func(v int) []int32 { return nb[v] })
}
