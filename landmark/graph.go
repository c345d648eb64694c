package landmark

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// geoSource gives points their geodesic distances to the landmarks: a
// training row p has column p of the M×N lengths geo (shortest paths from
// the landmarks in the neighbourhood graph of all N training rows, its
// components joined by Eq. 4); a new point x reaches the landmarks through
// its graph neighbours among the training rows, G(x, l) = min over the
// neighbours p of ‖x − p‖ + G(l, p) (the K nearest for knn:K; those within
// ε, or the nearest, for eps:ε). Shared by ISOMAP and the graph
// variants of the landmark cluster kernel (newNystromGraph).
type geoSource struct {
	x    rows
	data []float64 // N×d training rows, contiguous
	spec graph.Spec
	geo  *mat.Dense // M×N
	ix   *neighbors.Index
}

func newGeoSource(data []float64, n, d int, spec graph.Spec, geo *mat.Dense) *geoSource {
	s := &geoSource{x: rows{data: data, n: n, d: d, str: d}, data: data, spec: spec, geo: geo}
	if spec.Kind == graph.KindKNN {
		s.ix = neighbors.New(data, n, d)
	}
	return s
}

// column sets dst[a] = G(l_a, p) for the training row p.
func (s *geoSource) column(p int, dst []float64) {
	raw := s.geo.RawMatrix()
	for a := range dst {
		dst[a] = raw.Data[a*raw.Stride+p]
	}
}

// dists sets dst[a] = G(x, l_a) for a new point x (see geoSource).
func (s *geoSource) dists(x, dst []float64, nb []neighbors.Neighbor) []neighbors.Neighbor {
	n, d := s.x.n, s.x.d
	nb = nb[:0]
	if s.ix != nil {
		nb = s.ix.Query(x, min(s.spec.K, n), -1, nb)
	} else {
		best := neighbors.Neighbor{D2: math.Inf(1)}
		for p := 0; p < n; p++ {
			v := distance.SqDist(x, s.data[p*d:p*d+d])
			if v <= s.spec.Eps*s.spec.Eps {
				nb = append(nb, neighbors.Neighbor{D2: v, Index: int32(p)})
			}
			if v < best.D2 {
				best = neighbors.Neighbor{D2: v, Index: int32(p)}
			}
		}
		if len(nb) == 0 {
			nb = append(nb, best)
		}
	}
	raw := s.geo.RawMatrix()
	for a := range dst {
		g := math.Inf(1)
		row := raw.Data[a*raw.Stride : a*raw.Stride+n]
		for _, c := range nb {
			g = min(g, math.Sqrt(c.D2)+row[c.Index])
		}
		dst[a] = g
	}
	return nb
}

// newNystromGraph fits the landmark cluster kernel of a graph variant
// (h.Graph not nil: hckg) on the landmark rows of X, with the geometry of
// ALL N rows, as HCK.Gram has it:
//
//  1. the neighbourhood graph of the N rows, its components joined by paper
//     000 Eq. 4 exactly as graph.Geodesics.Compute joins them, and the
//     shortest paths from the M landmarks only
//     (graph.JoinedDistancesFrom: M×N, no N×N matrix);
//  2. the tree of h.Method on the M×M geodesics among the landmarks and
//     K_LL = −½·J·M_L·J from its ultrametric;
//  3. every row x enters the landmark tree through its geodesic distances
//     to the landmarks g_l (a training row: its own shortest paths; a new
//     point: through its graph neighbours, see geoSource): the graft onto
//     the geodesically nearest landmark l* (ties to the lower row),
//     u_j = max(g_l*, M(l*, j)), for every linkage but single; for single
//     linkage u_j = min over landmarks l of max(g_l, M(l, j)). The row is
//     centred as TreeExtension centres it and z(x) = K(x, L)·W.
//
// With every row a landmark this is HCK.Gram's kernel (the geodesics are
// Compute's up to the order of additions, the tree is the same), and a new
// point's row equals the exact tree-aware rule: its nearest training point
// by geodesic is its nearest by Euclidean distance, and for single linkage
// the minimax over all landmarks equals the minimax over its graph
// neighbours (M(q, j) ≤ max(G(q, l), M(l, j)) for a single-linkage
// ultrametric of G). It returns the map and the N×r features of the rows
// of X. Cost: the graph, M + (2 per join) + (bound) shortest-path searches
// over N nodes, O(N²·d) when the graph is disconnected, the linkage of M
// points, O(M³); memory O(N·M). Errors: ErrBadParam (landmarks, method,
// h.Graph nil), the graph's errors, hclust's, ErrEigen, ctx.Err().
func newNystromGraph(ctx context.Context, X mat.Matrix, h kernel.HCK, landmarks []int, rcond float64) (*Nystrom, *mat.Dense, error) {
	ny, t, err := trainGraph(ctx, X, h, landmarks, rcond)
	return withAll(ctx, ny, t, err)
}

// trainGraph is newNystromGraph with the features as a Training.
func trainGraph(ctx context.Context, X mat.Matrix, h kernel.HCK, landmarks []int, rcond float64) (*Nystrom, *Training, error) {
	if err := h.Validate(); err != nil {
		return nil, nil, err
	}
	if h.Graph == nil {
		return nil, nil, fmt.Errorf("%w: newNystromGraph needs a graph variant", kernel.ErrBadParam)
	}
	lm, err := landmarkRows(X, landmarks)
	if err != nil {
		return nil, nil, err
	}
	x, err := newRows(X, "X")
	if err != nil {
		return nil, nil, err
	}
	spec := graphOrDefault(*h.Graph)
	n, d := x.n, x.d
	data := make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(data[i*d:], x.row(i))
	}
	g, err := graph.Build(ctx, mat.NewDense(n, d, data), spec)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: landmark hckg:%v: %w", h.Method, err)
	}
	joined, err := graph.JoinedDistancesFrom(ctx, g, data, d, landmarks)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: landmark hckg:%v: %w", h.Method, err)
	}
	geo := joined.From
	m := len(landmarks)
	if h.Method == hclust.Single && n <= SingleAllRowsMaxN && m >= 2 {
		// Single linkage on geodesics is single linkage on the graph's
		// edges (every geodesic is a path of edges no longer than it), so
		// the exact tree of ALL rows is the joined graph's minimum spanning
		// tree: the landmark kernel is then the exact one restricted to the
		// landmarks, and every training row's values against them exact.
		full, err := graphSingleTree(joined.Graph)
		if err != nil {
			return nil, nil, fmt.Errorf("landmark: landmark hckg:single: %w", err)
		}
		h.Graph = &spec
		ny, t, err := nystromFromFullTree(ctx, lm, n, full, h, landmarks, rcond, newGeoSource(data, n, d, spec, geo))
		if err != nil {
			return nil, nil, err
		}
		ny.joins = len(joined.JoinEdges)
		return ny, t, nil
	}
	if graphCellsMethod(h.Method) && n <= graphCellsLimit && m >= 2 {
		// The tree of all rows with each landmark's cell (the rows nearest
		// to it by geodesic) joined first, from a search from every row.
		full, err := graphCellsTree(ctx, joined.Graph, geo, landmarks, h.Method)
		if err != nil {
			return nil, nil, fmt.Errorf("landmark: landmark hckg:%v: %w", h.Method, err)
		}
		if full != nil {
			spec := spec
			h.Graph = &spec
			ny, t, err := nystromFromFullTree(ctx, lm, n, full, h, landmarks, rcond, newGeoSource(data, n, d, spec, geo))
			if err != nil {
				return nil, nil, err
			}
			ny.joins = len(joined.JoinEdges)
			return ny, t, nil
		}
	}
	// Geodesics among the landmarks, symmetrised as ShortestPaths does.
	S := mat.NewSymDense(m, nil)
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			S.SetSym(a, b, 0.5*(geo.At(a, landmarks[b])+geo.At(b, landmarks[a])))
		}
	}
	var tree *hclust.Tree
	if m == 1 {
		tree = &hclust.Tree{N: 1}
	} else if tree, err = hclust.Linkage(ctx, distance.FromSymmetric(S), h.Method); err != nil {
		return nil, nil, fmt.Errorf("landmark: landmark hckg:%v: %w", h.Method, err)
	}
	K, err := treeKernel(ctx, tree)
	if err != nil {
		return nil, nil, err
	}
	ext, err := kernel.NewTreeExtension(lm, h, tree, nil)
	if err != nil {
		return nil, nil, err
	}
	h.Graph = &spec // Save writes the graph in full
	ny := &Nystrom{Landmarks: append([]int(nil), landmarks...), lm: lm, tree: ext, h: h, t: tree,
		geo: newGeoSource(data, n, d, spec, geo), joins: len(joined.JoinEdges)}
	if err := ny.factor(ctx, K, rcond); err != nil {
		return nil, nil, err
	}
	Z := mat.NewDense(n, ny.Rank, nil)
	err = ny.geoFeatures(ctx, Z, n, func(p int, dst []float64, nb []neighbors.Neighbor) []neighbors.Neighbor {
		ny.geo.column(p, dst)
		return nb
	})
	if err != nil {
		return nil, nil, err
	}
	return ny, denseTraining(Z), nil
}

// graphSingleTree returns the single-linkage tree of a connected graph:
// Kruskal's order on its edges (by length, then I, then J), each edge that
// joins two clusters a merge at its length.
func graphSingleTree(g *graph.Graph) (*hclust.Tree, error) {
	n := g.N()
	edges := g.EdgeList()
	slices.SortFunc(edges, func(a, b graph.Edge) int {
		if c := cmp.Compare(a.W, b.W); c != 0 {
			return c
		}
		if c := cmp.Compare(a.I, b.I); c != 0 {
			return c
		}
		return cmp.Compare(a.J, b.J)
	})
	parent := make([]int32, n)
	id := make([]int, n) // root → its cluster id (leaf i, merge k: n+k)
	size := make([]int, n)
	for i := range parent {
		parent[i], id[i], size[i] = int32(i), i, 1
	}
	find := func(i int) int {
		for int(parent[i]) != i {
			parent[i] = parent[parent[i]]
			i = int(parent[i])
		}
		return i
	}
	t := &hclust.Tree{N: n, Merges: make([]hclust.Merge, 0, n-1)}
	for _, e := range edges {
		a, b := find(e.I), find(e.J)
		if a == b {
			continue
		}
		ia, ib := id[a], id[b]
		t.Merges = append(t.Merges, hclust.Merge{A: min(ia, ib), B: max(ia, ib), Height: e.W, Size: size[a] + size[b]})
		parent[b] = int32(a)
		size[a] += size[b]
		id[a] = n + len(t.Merges) - 1
	}
	if len(t.Merges) != n-1 {
		return nil, fmt.Errorf("%w: the graph is not connected", kernel.ErrBadParam)
	}
	return t, t.Validate()
}

// Joins returns the number of Eq. 4 join edges the graph variant added to
// the neighbourhood graph of the training rows (0 for other maps).
func (ny *Nystrom) Joins() int { return ny.joins }

// nearestGeo returns the landmark of smallest distance (ties to the lower
// index) and the distance, at least 0.
func nearestGeo(dist []float64) (int, float64) {
	l := 0
	for a, v := range dist {
		if v < dist[l] {
			l = a
		}
	}
	return l, max(dist[l], 0)
}

// geoRows sets out (t×M) to the centred kernel rows of t points whose
// geodesic distances to the landmarks fill(i, ·) gives.
func (ny *Nystrom) geoRows(ctx context.Context, out *mat.Dense, t int, fill func(int, []float64, []neighbors.Neighbor) []neighbors.Neighbor) error {
	m := len(ny.Landmarks)
	return parallel.Chunks(ctx, t, 16, func(lo, hi int) {
		dist, scratch := make([]float64, m), make([]float64, 2*(2*m-1))
		var nb []neighbors.Neighbor
		for i := lo; i < hi; i++ {
			nb = fill(i, dist, nb)
			ny.tree.RowFrom(out.RawRowView(i), dist, scratch)
		}
	})
}

// geoFeatures sets Z (t×r) to the features of t points whose geodesic
// distances fill gives: the graft map's O(depth + r) per point, or (single
// linkage) the kernel rows times W in blocks.
func (ny *Nystrom) geoFeatures(ctx context.Context, Z *mat.Dense, t int, fill func(int, []float64, []neighbors.Neighbor) []neighbors.Neighbor) error {
	m := len(ny.Landmarks)
	if ny.graft != nil {
		return parallel.Chunks(ctx, t, 256, func(lo, hi int) {
			dist := make([]float64, m)
			var nb []neighbors.Neighbor
			for i := lo; i < hi; i++ {
				nb = fill(i, dist, nb)
				l, g := nearestGeo(dist)
				ny.graft.Graft(Z.RawRowView(i), l, g)
			}
		})
	}
	const block = 4096
	R := mat.NewDense(min(block, max(t, 1)), m, nil)
	for lo := 0; lo < t; lo += block {
		hi := min(lo+block, t)
		Rb := R.Slice(0, hi-lo, 0, m).(*mat.Dense)
		err := ny.geoRows(ctx, Rb, hi-lo, func(i int, dst []float64, nb []neighbors.Neighbor) []neighbors.Neighbor {
			return fill(lo+i, dst, nb)
		})
		if err != nil {
			return err
		}
		zb := Z.Slice(lo, hi, 0, ny.Rank).(*mat.Dense)
		err = parallel.Chunks(ctx, hi-lo, 64, func(a, b int) {
			zb.Slice(a, b, 0, ny.Rank).(*mat.Dense).Mul(Rb.Slice(a, b, 0, m), ny.w)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// geoNew returns the fill function of the new points xt.
func (ny *Nystrom) geoNew(xt rows) func(int, []float64, []neighbors.Neighbor) []neighbors.Neighbor {
	return func(i int, dst []float64, nb []neighbors.Neighbor) []neighbors.Neighbor {
		return ny.geo.dists(xt.row(i), dst, nb)
	}
}
