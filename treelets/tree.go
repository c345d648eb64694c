package treelets

import (
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// Heights returns the dendrogram height of each level (see the package
// doc, "Heights"): with S = max(1, max_k M_k) and d_k = S − M_k,
// Height_k = max_{j ≤ k} d_j. Heights are ≥ 0 and non-decreasing, so a
// height cut and a cut into K clusters agree; an inversion (a merge more
// similar than an earlier one) gets the earlier height.
func (m *Model) Heights() []float64 {
	S := 1.0
	for _, l := range m.Levels {
		S = max(S, l.Similarity)
	}
	h := make([]float64, len(m.Levels))
	run := 0.0
	for k, l := range m.Levels {
		run = max(run, S-l.Similarity)
		h[k] = run
	}
	return h
}

// Tree returns the hierarchy as a dendrogram in SciPy's numbering: merge k
// joins the clusters of level k's Diff and Sum (the smaller cluster id
// first) into cluster N+k, at Heights()[k]. Its Matrix() is the linkage
// matrix, CutK(K) the partition after level N−K, Newick(names) the Newick
// string, and figure.Dendrogram draws it.
func (m *Model) Tree() *hclust.Tree {
	n := m.N
	t := &hclust.Tree{N: n, Merges: make([]hclust.Merge, n-1)}
	h := m.Heights()
	id := make([]int, n)   // current cluster id of each active index
	size := make([]int, n) // its size
	for i := range id {
		id[i], size[i] = i, 1
	}
	for k, l := range m.Levels {
		a, b := id[l.Diff], id[l.Sum]
		if a > b {
			a, b = b, a
		}
		sz := size[l.Diff] + size[l.Sum]
		t.Merges[k] = hclust.Merge{A: a, B: b, Height: h[k], Size: sz}
		id[l.Sum], size[l.Sum] = n+k, sz
	}
	return t
}

// CutK returns the partition into k clusters (1 ≤ k ≤ N) after level N−k,
// labels 0..k−1 in order of each cluster's smallest index.
func (m *Model) CutK(k int) ([]int, error) {
	if k < 1 || k > m.N {
		return nil, fmt.Errorf("%w: cut into K = %d clusters of %d points, want 1..%d", ErrK, k, m.N, m.N)
	}
	return m.Tree().CutK(k)
}

// Basis returns the treelet basis B_level = J_1 ⋯ J_level (B_0 = I) as an
// N×N matrix whose column i is the basis vector of variable i:
// B_levelᵀ·A·B_level is the matrix after level rotations. It replays the
// rotations in O(N·level). dst, if N×N, is overwritten and returned; nil
// allocates. Errors: ErrK for a level outside 0..N−1.
func (m *Model) Basis(dst *mat.Dense, level int) (*mat.Dense, error) {
	n := m.N
	if level < 0 || level > len(m.Levels) {
		return nil, fmt.Errorf("%w: level %d, want 0..%d", ErrK, level, len(m.Levels))
	}
	if dst == nil {
		dst = mat.NewDense(n, n, nil)
	} else if r, c := dst.Dims(); r != n || c != n {
		return nil, fmt.Errorf("%w: basis destination is %d×%d, want %d×%d", ErrK, r, c, n, n)
	} else {
		dst.Zero()
	}
	for i := 0; i < n; i++ {
		dst.Set(i, i, 1)
	}
	raw := dst.RawMatrix()
	// work on rows of Bᵀ (one contiguous row per basis vector), then
	// transpose in place
	for _, l := range m.Levels[:level] {
		rs := raw.Data[l.Sum*raw.Stride : l.Sum*raw.Stride+n]
		rd := raw.Data[l.Diff*raw.Stride : l.Diff*raw.Stride+n]
		c, s := l.Cos, l.Sin
		for j := range rs {
			x, y := rs[j], rd[j]
			rs[j] = c*x + s*y
			rd[j] = -s*x + c*y
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			raw.Data[i*raw.Stride+j], raw.Data[j*raw.Stride+i] = raw.Data[j*raw.Stride+i], raw.Data[i*raw.Stride+j]
		}
	}
	return dst, nil
}

// GapK suggests a number of clusters: the K in 2..min(maxK, N) whose cut
// sits in the largest gap between consecutive dendrogram heights,
// Heights[N−K] − Heights[N−K−1] (ties: the smaller K). With N = 2 it is 2.
func (m *Model) GapK(maxK int) int {
	h := m.Heights()
	n := m.N
	best, bg := 2, math.Inf(-1)
	for k := 2; k <= min(maxK, n); k++ {
		prev := 0.0
		if n-k-1 >= 0 {
			prev = h[n-k-1]
		}
		if g := h[n-k] - prev; g > bg {
			best, bg = k, g
		}
	}
	return best
}
