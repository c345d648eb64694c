package hclust

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Matrix returns the (N−1)×4 linkage matrix in SciPy's format: row k is
// [A, B, Height, Size] of the k-th merge.
func (t *Tree) Matrix() *mat.Dense {
	z := mat.NewDense(len(t.Merges), 4, nil)
	for k, m := range t.Merges {
		z.SetRow(k, []float64{float64(m.A), float64(m.B), m.Height, float64(m.Size)})
	}
	return z
}

// FromMatrix reads a SciPy linkage matrix Z ((n−1)×4, as returned by
// scipy.cluster.hierarchy.linkage) into a Tree. Errors: ErrShape for a
// matrix that is not (n−1)×4 with n ≥ 2, ErrTree (naming the row) when Z is
// not a valid dendrogram (see Validate).
func FromMatrix(z mat.Matrix) (*Tree, error) {
	r, c := z.Dims()
	if c != 4 || r < 1 {
		return nil, fmt.Errorf("hclust: linkage matrix is %d×%d, want (n-1)×4 with n ≥ 2: %w", r, c, ErrShape)
	}
	t := &Tree{N: r + 1, Merges: make([]Merge, r)}
	for k := range t.Merges {
		row := [4]float64{z.At(k, 0), z.At(k, 1), z.At(k, 2), z.At(k, 3)}
		for j, v := range []int{0, 1, 3} {
			if row[v] != math.Trunc(row[v]) || math.Abs(row[v]) > 1<<40 {
				return nil, fmt.Errorf("hclust: linkage row %d column %d is %v, not an integer: %w", k, j, row[v], ErrTree)
			}
		}
		t.Merges[k] = Merge{A: int(row[0]), B: int(row[1]), Height: row[2], Size: int(row[3])}
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// Validate checks that t is a dendrogram in SciPy's numbering: N ≥ 2,
// N−1 merges, merge k joins two distinct existing clusters A < B (leaves
// 0..N−1 or earlier merges N..N+k−1) that were not merged before, Size is
// the sum of the children's sizes and Height is finite and non-negative.
// Errors wrap ErrTree.
func (t *Tree) Validate() error {
	n := t.N
	if n < 2 {
		return fmt.Errorf("hclust: tree has N = %d leaves: %w", n, ErrTree)
	}
	if len(t.Merges) != n-1 {
		return fmt.Errorf("hclust: tree over %d leaves has %d merges, want %d: %w", n, len(t.Merges), n-1, ErrTree)
	}
	used := make([]bool, 2*n-1)
	size := func(c int) int {
		if c < n {
			return 1
		}
		return t.Merges[c-n].Size
	}
	for k, m := range t.Merges {
		if m.A < 0 || m.B >= n+k || m.A >= m.B {
			return fmt.Errorf("hclust: merge %d joins (%d, %d); want 0 ≤ A < B < %d: %w", k, m.A, m.B, n+k, ErrTree)
		}
		if used[m.A] || used[m.B] {
			return fmt.Errorf("hclust: merge %d joins (%d, %d), one of which was already merged: %w", k, m.A, m.B, ErrTree)
		}
		used[m.A], used[m.B] = true, true
		if !(m.Height >= 0) || math.IsInf(m.Height, 1) {
			return fmt.Errorf("hclust: merge %d has height %v: %w", k, m.Height, ErrTree)
		}
		if s := size(m.A) + size(m.B); m.Size != s {
			return fmt.Errorf("hclust: merge %d has size %d, children sum to %d: %w", k, m.Size, s, ErrTree)
		}
	}
	return nil
}

// layout is the leaf order of a tree and, for every node, the range of the
// order its leaves occupy, plus parents.
type layout struct {
	order  []int32 // leaves in SciPy's leaves_list order
	lo     []int32 // node → first position in order
	parent []int32 // node → parent node (−1 for the root)
}

func (t *Tree) layout() *layout {
	n := t.N
	l := &layout{order: make([]int32, n), lo: make([]int32, 2*n-1), parent: make([]int32, 2*n-1)}
	l.parent[2*n-2] = -1
	size := func(c int) int32 {
		if c < n {
			return 1
		}
		return int32(t.Merges[c-n].Size)
	}
	// parents have larger ids than their children: walk down from the root
	for k := n - 2; k >= 0; k-- {
		m, v := t.Merges[k], int32(n+k)
		l.lo[m.A] = l.lo[v]
		l.lo[m.B] = l.lo[v] + size(m.A)
		l.parent[m.A], l.parent[m.B] = v, v
	}
	for i := 0; i < n; i++ {
		l.order[l.lo[i]] = int32(i)
	}
	return l
}

// Leaves returns the leaves in dendrogram order, left (A) subtree before
// right (B): scipy.cluster.hierarchy.leaves_list. O(N).
func (t *Tree) Leaves() []int {
	l := t.layout()
	out := make([]int, t.N)
	for p, i := range l.order {
		out[p] = int(i)
	}
	return out
}

// fillRow writes into row the cophenetic distances from leaf i to every
// leaf (row[i] is left alone): walking up from i, each ancestor's height is
// assigned to the leaves of the sibling subtree, which are one contiguous
// run of the leaf order. O(N + depth).
func (t *Tree) fillRow(l *layout, i int, row []float64) {
	n := t.N
	v := int32(i)
	for l.parent[v] >= 0 {
		p := l.parent[v]
		m := t.Merges[int(p)-n]
		s := m.A
		if int32(s) == v {
			s = m.B
		}
		h := m.Height
		lo := l.lo[s]
		hi := lo + 1
		if s >= n {
			hi = lo + int32(t.Merges[s-n].Size)
		}
		for _, j := range l.order[lo:hi] {
			row[j] = h
		}
		v = p
	}
}

// Ultrametric returns the full N×N cophenetic matrix M of paper 000 §3.2:
// M_ij is the height of the lowest common ancestor of leaves i and j, and
// M_ii = 0. For monotone trees (all methods except Centroid and Median) M
// is ultrametric, M_ij ≤ max(M_ik, M_jk). Rows are filled independently in
// O(N) each (total O(N²)), in parallel over GOMAXPROCS goroutines; the
// result does not depend on the number of threads. Both triangles of dst's
// storage are written. A nil dst allocates; a dst of another size panics.
func (t *Tree) Ultrametric(dst *mat.SymDense) *mat.SymDense {
	n := t.N
	if dst == nil {
		dst = mat.NewSymDense(n, nil)
	} else if dst.SymmetricDim() != n {
		panic(fmt.Sprintf("hclust: Ultrametric destination is %d×%d, want %d×%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n))
	}
	raw := dst.RawSymmetric()
	l := t.layout()
	const rowsPerTask = 16
	_ = parallel.For(context.Background(), (n+rowsPerTask-1)/rowsPerTask, func(task int) {
		for i := task * rowsPerTask; i < min(n, task*rowsPerTask+rowsPerTask); i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			t.fillRow(l, i, row)
			row[i] = 0
		}
	})
	return dst
}

// UltrametricRows calls fn(i, row) for every leaf i with row i of the
// ultrametric matrix (Ultrametric's values, row[i] = 0) in a buffer owned
// by the call: rows are never stored together, so a caller can reduce or
// convert them (a float32 kernel) in O(N) memory per worker. Calls run in
// parallel for different rows (fn must write only what row i owns) and
// return ctx.Err() when cancelled.
func (t *Tree) UltrametricRows(ctx context.Context, fn func(i int, row []float64)) error {
	n := t.N
	l := t.layout()
	const rowsPerTask = 16
	workers := runtime.GOMAXPROCS(0)
	bufs := make([][]float64, workers) // per worker: O(N) garbage, not per task
	return parallel.ForWorkers(ctx, (n+rowsPerTask-1)/rowsPerTask, workers, func(w, task int) {
		if bufs[w] == nil {
			bufs[w] = make([]float64, n)
		}
		buf := bufs[w]
		for i := task * rowsPerTask; i < min(n, task*rowsPerTask+rowsPerTask); i++ {
			t.fillRow(l, i, buf)
			buf[i] = 0
			fn(i, buf)
		}
	})
}

// Cophenetic returns the cophenetic distances in condensed form, equal to
// scipy.cluster.hierarchy.cophenet(Z). O(N²) time, parallel over rows.
func (t *Tree) Cophenetic() distance.Condensed {
	n := t.N
	c := distance.NewCondensed(n)
	l := t.layout()
	const rowsPerTask = 16
	_ = parallel.For(context.Background(), (n+rowsPerTask-1)/rowsPerTask, func(task int) {
		buf := make([]float64, n)
		for i := task * rowsPerTask; i < min(n, task*rowsPerTask+rowsPerTask); i++ {
			if i == n-1 {
				break
			}
			t.fillRow(l, i, buf)
			off := condRow(n, i)
			copy(c.Data[off:off+n-i-1], buf[i+1:])
		}
	})
	return c
}

// CutK partitions the leaves into exactly k clusters by undoing the last
// k−1 merges. Labels are 0..k−1, numbered in order of each cluster's
// smallest leaf (leaf 0 is in cluster 0).
//
// For a monotone tree whose merge N−k has a height strictly below merge
// N−k+1 this is the partition of scipy's fcluster(Z, k, "maxclust") (which
// numbers clusters differently). When heights tie across that boundary no
// height threshold gives exactly k clusters and fcluster returns fewer;
// CutK still returns k, splitting the tie in linkage order. O(N).
// Errors: ErrK if k is outside 1..N.
func (t *Tree) CutK(k int) ([]int, error) {
	if k < 1 || k > t.N {
		return nil, fmt.Errorf("hclust: cut into k = %d clusters of %d leaves: %w", k, t.N, ErrK)
	}
	keep := make([]bool, len(t.Merges))
	for i := 0; i < t.N-k; i++ {
		keep[i] = true
	}
	return t.labels(keep), nil
}

// CutHeight partitions the leaves into the clusters formed by the merges at
// height ≤ h: scipy's fcluster(Z, h, "distance"), which, for trees with
// inversions (Centroid, Median), judges a merge by the largest height in its
// subtree. Labels are numbered in order of each cluster's smallest leaf.
// A NaN h gives singletons. O(N).
func (t *Tree) CutHeight(h float64) []int {
	keep := make([]bool, len(t.Merges))
	n := t.N
	md := make([]float64, len(t.Merges))
	for k, m := range t.Merges {
		v := m.Height
		if m.A >= n && md[m.A-n] > v {
			v = md[m.A-n]
		}
		if m.B >= n && md[m.B-n] > v {
			v = md[m.B-n]
		}
		md[k] = v
		keep[k] = v <= h
	}
	return t.labels(keep)
}

// labels joins the merges marked keep (a set closed under taking children)
// and numbers the resulting clusters by smallest leaf.
func (t *Tree) labels(keep []bool) []int {
	n := t.N
	// comp[c] for every node: the representative node of its cluster
	comp := make([]int32, 2*n-1)
	for i := range comp {
		comp[i] = int32(i)
	}
	// a kept merge's cluster is represented by the top kept ancestor; walk
	// down from the root so parents are resolved before children
	for k := n - 2; k >= 0; k-- {
		if !keep[k] {
			continue
		}
		m := t.Merges[k]
		comp[m.A] = comp[n+k]
		comp[m.B] = comp[n+k]
	}
	lab := make([]int, n)
	seen := make(map[int32]int)
	for i := 0; i < n; i++ {
		r := comp[i]
		c, ok := seen[r]
		if !ok {
			c = len(seen)
			seen[r] = c
		}
		lab[i] = c
	}
	return lab
}

// Newick returns the tree in Newick format, left (A) subtree first:
// "((a:1,b:1):0.5,c:1.5);". Branch lengths are parent height minus child
// height (leaves have height 0), so root-to-leaf path lengths equal the root
// height for monotone trees; Centroid and Median inversions give negative
// lengths. Leaf i is named names[i], or "i" when names is shorter than N or
// names[i] is empty. Names with spaces or any of ()[]':;, are single-quoted
// (quotes doubled). Numbers use the shortest representation that round-trips
// (strconv 'g', -1). O(N) time, no recursion.
func (t *Tree) Newick(names []string) string {
	n := t.N
	var sb strings.Builder
	height := func(c int) float64 {
		if c < n {
			return 0
		}
		return t.Merges[c-n].Height
	}
	type frame struct {
		node  int
		state int // 0: open, 1: left done, 2: right done
	}
	stack := []frame{{node: 2*n - 2}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		c := top.node
		if c < n {
			sb.WriteString(newickName(names, c))
		} else {
			m := t.Merges[c-n]
			switch top.state {
			case 0:
				sb.WriteByte('(')
				top.state = 1
				stack = append(stack, frame{node: m.A})
				continue
			case 1:
				sb.WriteByte(',')
				top.state = 2
				stack = append(stack, frame{node: m.B})
				continue
			default:
				sb.WriteByte(')')
			}
		}
		stack = stack[:len(stack)-1]
		if len(stack) > 0 {
			sb.WriteByte(':')
			sb.WriteString(strconv.FormatFloat(height(stack[len(stack)-1].node)-height(c), 'g', -1, 64))
		}
	}
	sb.WriteByte(';')
	return sb.String()
}

func newickName(names []string, i int) string {
	if i >= len(names) || names[i] == "" {
		return strconv.Itoa(i)
	}
	s := names[i]
	if strings.ContainsAny(s, "()[]':;, \t\n\r") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// UltrametricOf calls fn(c, row) for every c with row the ultrametric row
// of leaf leaves[c] (its distances to every leaf, row[leaves[c]] = 0; by
// symmetry also its column) in a buffer owned by the call. O(N) per leaf,
// in parallel over the leaves (fn must write only what c owns); returns
// ctx.Err() when cancelled.
func (t *Tree) UltrametricOf(ctx context.Context, leaves []int, fn func(c int, row []float64)) error {
	n := t.N
	for _, i := range leaves {
		if i < 0 || i >= n {
			return fmt.Errorf("hclust: leaf %d of a tree with %d leaves: %w", i, n, ErrShape)
		}
	}
	l := t.layout()
	const perTask = 8
	workers := runtime.GOMAXPROCS(0)
	bufs := make([][]float64, workers)
	return parallel.ForWorkers(ctx, (len(leaves)+perTask-1)/perTask, workers, func(w, task int) {
		if bufs[w] == nil {
			bufs[w] = make([]float64, n)
		}
		buf := bufs[w]
		for c := task * perTask; c < min(len(leaves), task*perTask+perTask); c++ {
			t.fillRow(l, leaves[c], buf)
			buf[leaves[c]] = 0
			fn(c, buf)
		}
	})
}
