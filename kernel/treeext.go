package kernel

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// TreeExtension is the tree-aware out-of-sample rule of a hierarchical
// cluster kernel (HCK, Connectivity). A new point x enters the training
// dendrogram through a set S(x) of training points with distances d(x, i),
// and its ultrametric row is
//
//	u(x, j) = min over i ∈ S(x) of max(d(x, i), M(i, j)),
//
// M the training ultrametric. S(x) is
//
//   - Euclidean, single linkage: all N training points. Then u is exactly
//     the single-linkage ultrametric of x in the tree of the N+1 points
//     restricted to the training tree (the minimax path from x leaves x by
//     one edge and then stays among the training points);
//   - Euclidean, other linkages: the nearest training point i* (ties to the
//     lower index), so u(x, ·) = max(d(x, i*), M(i*, ·)): x is grafted onto
//     i*'s leaf at height d(x, i*). This is an approximation: a complete,
//     average, weighted or Ward tree refitted with x could place it
//     elsewhere;
//   - graph variants, single linkage: x's neighbours in the graph of the
//     kernel (its K nearest training points for knn:K, those within ε for
//     eps:ε, the nearest one if none is), with Euclidean edge lengths. This
//     is exact for the single-linkage (minimax) ultrametric of the training
//     graph with x attached by those edges: every minimax path from x
//     starts with one of them;
//   - graph variants, other linkages: the graft onto the nearest training
//     point, as in the Euclidean case (the nearest point is also the
//     nearest in geodesic distance), the same approximation.
//
// The kernel row is then centred as the training kernel K = −½·J·M·J was:
// K(x, j) = −½·(u_j − ū − m̄_j + m̿), K(x, x) = ū − ½·m̿, with ū the mean of
// u, m̄_j the column means of M and m̿ their mean. A training point given as
// a new point gets its own row of K back (its nearest point is itself).
//
// Unlike Extension (paper 000 §3.5), which is linear in the raw features and
// so draws straight boundaries through non-convex clusters, this rule
// follows the tree. Cost per new point: O(N·d) for the distances (single
// linkage) or one kNN query (internal/neighbors), plus O(N) on the tree; no
// N×N matrix is kept (M's rows come from the tree). Immutable and safe for
// concurrent use.
type TreeExtension struct {
	x       rows
	data    []float64 // contiguous copy of the training rows
	ix      *neighbors.Index
	all     bool // S(x) = every training point
	exact   bool // single linkage
	k       int  // S(x) = the k nearest (k >= 1) when !all and eps == 0
	eps     float64
	parent  []int32   // node → parent (2N−1 nodes: leaves, then merges)
	height  []float64 // node heights (leaves 0)
	colMean []float64 // m̄_j
	grand   float64   // m̿
	cols    []int
}

// NewTreeExtension fits the tree-aware rule of the cluster kernel h whose
// training tree t was built on the rows of X (Info.Tree of HCK.Gram or
// BuildAll). Columns lists the training points whose kernel values Rows
// returns (nil: all). Errors: ErrEmpty, ErrNonFinite, ErrShape (t not over
// the rows of X), ErrBadParam (a non-monotone tree, a column out of range).
func NewTreeExtension(X mat.Matrix, h HCK, t *hclust.Tree, columns []int) (*TreeExtension, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	if t == nil || t.N != x.n || len(t.Merges) != x.n-1 {
		return nil, fmt.Errorf("%w: tree extension: the tree is not over the %d rows of X", ErrShape, x.n)
	}
	n := x.n
	e := &TreeExtension{x: x, data: make([]float64, n*x.d)}
	for i := 0; i < n; i++ {
		copy(e.data[i*x.d:], x.row(i))
	}
	e.exact = h.Method == hclust.Single
	switch {
	case h.Graph == nil && e.exact:
		e.all = true
	case !e.exact:
		e.k = 1
	default:
		g := graphOrDefault(*h.Graph)
		if g.Kind == graph.KindKNN {
			e.k = min(g.K, n)
		} else {
			e.eps = g.Eps
		}
	}
	if e.k > 0 {
		e.ix = neighbors.New(e.data, n, x.d)
	}
	nodes := 2*n - 1
	e.parent = make([]int32, nodes)
	e.height = make([]float64, nodes)
	size := make([]float64, nodes)
	for i := 0; i < n; i++ {
		size[i] = 1
	}
	e.parent[nodes-1] = -1
	for k, m := range t.Merges {
		v := n + k
		if m.A < 0 || m.A >= v || m.B < 0 || m.B >= v {
			return nil, fmt.Errorf("%w: tree extension: merge %d joins %d and %d", ErrShape, k, m.A, m.B)
		}
		if m.Height < e.height[m.A] || m.Height < e.height[m.B] || math.IsNaN(m.Height) {
			return nil, fmt.Errorf("%w: tree extension: merge %d at height %v is below a child's: the tree is not monotone", ErrBadParam, k, m.Height)
		}
		e.parent[m.A], e.parent[m.B] = int32(v), int32(v)
		e.height[v] = m.Height
		size[v] = size[m.A] + size[m.B]
	}
	// Σ_i M(i, j) = Σ over the proper ancestors p of j of h_p·(|p| − |c|),
	// c the child of p on the way to j: accumulated top-down.
	acc := make([]float64, nodes)
	for v := nodes - 2; v >= 0; v-- {
		p := e.parent[v]
		acc[v] = acc[p] + e.height[p]*(size[p]-size[v])
	}
	e.colMean = make([]float64, n)
	for j := range e.colMean {
		e.colMean[j] = acc[j] / float64(n)
		e.grand += e.colMean[j]
	}
	e.grand /= float64(n)
	if columns == nil {
		e.cols = make([]int, n)
		for i := range e.cols {
			e.cols[i] = i
		}
	} else {
		e.cols = append([]int(nil), columns...)
		for c, j := range e.cols {
			if j < 0 || j >= n {
				return nil, fmt.Errorf("%w: tree extension Columns[%d] = %d, want 0..%d", ErrBadParam, c, j, n-1)
			}
		}
	}
	return e, nil
}

// Exact reports whether the rule is exact (single linkage) rather than the
// graft approximation.
func (e *TreeExtension) Exact() bool { return e.exact }

// ultrametric sets u[j] = u(x, j) for every training point j, with
// scratch dmin and best of length 2N−1.
func (e *TreeExtension) ultrametric(x []float64, u, dmin, best []float64, nb []neighbors.Neighbor) []neighbors.Neighbor {
	n := e.x.n
	if !e.all && e.k == 1 {
		// The graft onto the nearest point i*: u(x, j) = max(d, h(lca(i*, j))).
		// Mark i*'s ancestors, then give every node the height of its
		// deepest marked ancestor, top-down: one pass instead of three
		// (the same values: the min over common ancestors of max(d, h_a) is
		// max(d, h at the lowest one), heights being monotone).
		nb = e.ix.Query(x, 1, -1, nb)
		e.graftRow(int(nb[0].Index), math.Sqrt(nb[0].D2), u, dmin, best)
		return nb
	}
	inf := math.Inf(1)
	for v := range dmin {
		dmin[v] = inf
	}
	switch {
	case e.all:
		for i := 0; i < n; i++ {
			dmin[i] = distance.Dist(x, e.data[i*e.x.d:(i+1)*e.x.d])
		}
	case e.k > 0:
		nb = e.ix.Query(x, e.k, -1, nb)
		for _, c := range nb {
			dmin[c.Index] = math.Sqrt(c.D2)
		}
	default: // eps graph
		near, nd := -1, inf
		for i := 0; i < n; i++ {
			r := distance.Dist(x, e.data[i*e.x.d:(i+1)*e.x.d])
			if r <= e.eps {
				dmin[i] = r
			}
			if r < nd {
				near, nd = i, r
			}
		}
		dmin[near] = nd
	}
	for i := 0; i < n; i++ {
		if dmin[i] < inf {
			dmin[i] = max(dmin[i], 0)
		}
	}
	e.minMaxRow(dmin, best, u)
	return nb
}

// graftRow sets u[j] = max(d, M(i, j)) for every training point j: the
// graft onto point i at height d. on and best are scratch of length 2N−1.
func (e *TreeExtension) graftRow(i int, d float64, u, on, best []float64) {
	// Mark i's ancestors, then give every node the height of its deepest
	// marked ancestor, top-down: one pass instead of three (the same
	// values: the min over common ancestors of max(d, h_a) is max(d, h at
	// the lowest one), heights being monotone).
	clear(on)
	for v := int32(i); v >= 0; v = e.parent[v] {
		on[v] = 1
	}
	root := len(best) - 1
	best[root] = e.height[root]
	for v := root - 1; v >= 0; v-- {
		if on[v] == 1 {
			best[v] = e.height[v]
		} else {
			best[v] = best[e.parent[v]]
		}
	}
	for j := range u {
		u[j] = max(d, best[j])
	}
}

// minMaxRow sets u[j] = min over training points i of max(dmin[i], M(i, j))
// from the leaves' entries dmin[:N] (+Inf for points outside S(x));
// dmin's node entries and best (length 2N−1) are overwritten.
func (e *TreeExtension) minMaxRow(dmin, best, u []float64) {
	// Bottom-up: dmin of a node is the smallest over its leaves in S(x).
	for v := 0; v < len(dmin)-1; v++ {
		p := e.parent[v]
		dmin[p] = min(dmin[p], dmin[v])
	}
	// Top-down: best(v) = min over v and its ancestors a of max(dmin(a), h_a).
	root := len(dmin) - 1
	best[root] = max(dmin[root], e.height[root])
	for v := root - 1; v >= 0; v-- {
		best[v] = min(best[e.parent[v]], max(dmin[v], e.height[v]))
	}
	copy(u, best[:len(u)])
}

// Rows returns the t×ℓ kernel values of the rows of Xt against the training
// points Columns. Errors: ErrEmpty, ErrNonFinite, ErrShape (wrong number of
// columns), ctx.Err().
func (e *TreeExtension) Rows(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	out, _, err := e.rowsDiag(ctx, Xt, true)
	return out, err
}

// Diag returns k(x, x) for the rows of Xt. Errors as Rows.
func (e *TreeExtension) Diag(ctx context.Context, Xt mat.Matrix) ([]float64, error) {
	_, diag, err := e.rowsDiag(ctx, Xt, false)
	return diag, err
}

func (e *TreeExtension) rowsDiag(ctx context.Context, Xt mat.Matrix, wantRows bool) (*mat.Dense, []float64, error) {
	xt, err := newRows(Xt, "Xt")
	if err != nil {
		return nil, nil, err
	}
	if xt.d != e.x.d {
		return nil, nil, fmt.Errorf("%w: tree extension: Xt has %d columns, the training points %d", ErrShape, xt.d, e.x.d)
	}
	n, t := e.x.n, xt.n
	var out *mat.Dense
	if wantRows {
		out = mat.NewDense(t, len(e.cols), nil)
	}
	diag := make([]float64, t)
	err = parallel.Chunks(ctx, t, 16, func(lo, hi int) {
		u := make([]float64, n)
		dmin := make([]float64, 2*n-1)
		best := make([]float64, 2*n-1)
		var nb []neighbors.Neighbor
		for r := lo; r < hi; r++ {
			nb = e.ultrametric(xt.row(r), u, dmin, best, nb)
			mean := 0.0
			for _, v := range u {
				mean += v
			}
			mean /= float64(n)
			diag[r] = mean - e.grand/2
			if out != nil {
				row := out.RawRowView(r)
				for c, j := range e.cols {
					row[c] = -0.5 * (u[j] - mean - e.colMean[j] + e.grand)
				}
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return out, diag, nil
}

// Means returns the centring terms of the training kernel K = −½·J·M·J:
// the column means m̄_j of the ultrametric M and their mean m̿ (col is a
// copy).
func (e *TreeExtension) Means() (col []float64, grand float64) {
	return append([]float64(nil), e.colMean...), e.grand
}

// RowFrom sets row (length N) to the centred kernel row of a point whose
// distances to the N training points are dist: with single linkage the
// minimax rule over every point of dist (+Inf for a point not reached),
// otherwise the graft onto the nearest one (ties to the lower index).
// scratch has length at least 2·(2N−1) and is overwritten.
func (e *TreeExtension) RowFrom(row, dist, scratch []float64) {
	n := e.x.n
	nodes := 2*n - 1
	s1, s2 := scratch[:nodes], scratch[nodes:2*nodes]
	u := row
	if e.exact {
		copy(s1, dist)
		for v := n; v < nodes; v++ {
			s1[v] = math.Inf(1)
		}
		e.minMaxRow(s1, s2, u)
	} else {
		l := 0
		for a, v := range dist[:n] {
			if v < dist[l] {
				l = a
			}
		}
		e.graftRow(l, max(dist[l], 0), u, s1, s2)
	}
	mean := 0.0
	for _, v := range u {
		mean += v
	}
	mean /= float64(n)
	for j, v := range u {
		row[j] = -0.5 * (v - mean - e.colMean[j] + e.grand)
	}
}
