package graph

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// MaxJoinRows bounds JoinedDistancesFrom on a disconnected graph: finding
// the joining pairs and the largest Euclidean distance (paper 000 Eq. 4)
// costs O(N²·d) time.
const MaxJoinRows = 200000

// Joined is the result of JoinedDistancesFrom.
type Joined struct {
	// Graph is the neighbourhood graph with the Eq. 4 join edges added (the
	// graph itself when it is connected).
	Graph *Graph
	// From holds the shortest-path lengths in Graph from each source to
	// every node (M×N, finite).
	From *mat.Dense
	// Components of the graph before the joins; JoinEdges the added edges,
	// in order, with their lengths L.
	Components int
	JoinEdges  []Edge
	// Searches counts the extra single-source searches made to find the
	// largest geodesic inside the components (g_max of the first join).
	Searches int
}

// JoinedDistancesFrom returns the shortest-path lengths from the sources
// over the neighbourhood graph g of the rows data (n×d, row-major) with its
// components joined as Geodesics.Compute joins them (paper 000 §3.4 Eq. 4,
// Euclidean d_min/d_max): the same pairs, in the same order, with the same
// lengths L_t = g_max + d_t/d_max. The joins are added as edges: they form
// a tree over the components, so a shortest path between two components
// crosses each join on the way exactly once, and the path lengths equal
// Compute's joined G, G_ab = G_ai + L + G_jb, without the N×N matrix (up to
// the order of the additions, a few ulps).
//
// g_max before the first join is the largest finite geodesic, the largest
// eccentricity of a node within its component. It is found exactly without
// all pairs by eccentricity bounds (the "bounding diameters" method of
// Takes & Kosters 2011): a search from s gives ecc(s) and, for every v of
// its component, ecc(v) ≤ G(s, v) + ecc(s); the sources' searches bound
// every node, and a search is run from the node of largest bound until no
// bound exceeds the largest eccentricity found (each search settles at
// least its own node, so this ends; with every node a source no extra search
// is needed). After the join of components A ∋ i and B ∋ j, g_max becomes
// max(g_max, ecc_A(i) + L + ecc_B(j)), the eccentricities taken by searches
// from i and j in the graph joined so far — exactly Compute's running
// maximum.
//
// Cost: the searches from the sources twice (before and after the joins),
// the bound searches, two searches per join, and O(N²·d) for the pairs and
// d_max (up to MaxJoinRows rows). Errors: ErrK (a source out of range or
// none), ErrSpec (a disconnected graph over more than MaxJoinRows rows; the
// message says to use more neighbours), ctx.Err().
func JoinedDistancesFrom(ctx context.Context, g *Graph, data []float64, d int, sources []int) (Joined, error) {
	from, err := DistancesFrom(ctx, g, sources)
	if err != nil {
		return Joined{}, err
	}
	ncomp, comp := g.Components()
	res := Joined{Graph: g, From: from, Components: ncomp}
	if ncomp == 1 {
		return res, nil
	}
	n := g.N()
	if n > MaxJoinRows {
		return Joined{}, fmt.Errorf("%w: the graph has %d components; joining them (paper 000 Eq. 4) costs O(N²·d) and %d rows are more than %d: use more neighbours", ErrSpec, ncomp, n, MaxJoinRows)
	}
	gmax, searches, err := largestGeodesic(ctx, g, comp, sources, from)
	if err != nil {
		return Joined{}, err
	}
	res.Searches = searches
	comp = append([]int(nil), comp...)
	pairs, err := joinPairs(ctx, data, n, d, comp, ncomp)
	if err != nil {
		return Joined{}, err
	}
	dmax := maxDist(ctx, data, n, d)
	if err := ctx.Err(); err != nil {
		return Joined{}, err
	}
	edges := g.EdgeList()
	cur := g
	ecc := make([]float64, 2*n)
	var h radixHeap
	for _, p := range pairs {
		if err := ctx.Err(); err != nil {
			return Joined{}, err
		}
		h.dijkstra(cur, p.I, ecc[:n])
		h.dijkstra(cur, p.J, ecc[n:])
		L := gmax + p.W/dmax
		gmax = math.Max(gmax, maxFinite(ecc[:n])+L+maxFinite(ecc[n:]))
		e := Edge{I: p.I, J: p.J, W: L}
		res.JoinEdges = append(res.JoinEdges, e)
		edges = append(edges, e)
		if cur, err = New(n, edges); err != nil {
			return Joined{}, err
		}
	}
	res.Graph = cur
	if res.From, err = DistancesFrom(ctx, cur, sources); err != nil {
		return Joined{}, err
	}
	return res, nil
}

// largestGeodesic returns the largest finite shortest-path length of g
// (the largest eccentricity within a component) and the number of searches
// it ran besides the sources' rows from (see JoinedDistancesFrom).
func largestGeodesic(ctx context.Context, g *Graph, comp []int, sources []int, from *mat.Dense) (float64, int, error) {
	n := g.N()
	ub := make([]float64, n)
	for v := range ub {
		ub[v] = math.Inf(1)
	}
	done := make([]bool, n)
	best := 0.0
	// bound applies the search from s (row dist) to the bounds.
	bound := func(s int, dist []float64) {
		e := maxFinite(dist)
		best = max(best, e)
		done[s] = true
		ub[s] = e
		c := comp[s]
		for v, x := range dist {
			if comp[v] == c && x+e < ub[v] {
				ub[v] = x + e
			}
		}
	}
	for r, s := range sources {
		bound(s, from.RawRowView(r))
	}
	workers := runtime.GOMAXPROCS(0)
	batch := 4 * workers
	heaps := make([]radixHeap, workers)
	rows := make([]float64, batch*n)
	searches := 0
	for {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		// The nodes of largest bound above best (ties to the lower index),
		// a batch searched in parallel; the bounds are applied in order.
		var pick []int
		for len(pick) < batch {
			top := -1
			for v := 0; v < n; v++ {
				if !done[v] && ub[v] > best && (top < 0 || ub[v] > ub[top]) {
					top = v
				}
			}
			if top < 0 {
				break
			}
			done[top] = true // taken
			pick = append(pick, top)
		}
		if len(pick) == 0 {
			return best, searches, nil
		}
		err := parallel.ForWorkers(ctx, len(pick), workers, func(w, k int) {
			heaps[w].dijkstra(g, pick[k], rows[k*n:(k+1)*n])
		})
		if err != nil {
			return 0, 0, err
		}
		for k, s := range pick {
			bound(s, rows[k*n:(k+1)*n])
		}
		searches += len(pick)
	}
}
