package graph

import (
	"context"
	"fmt"
	"math"
)

// MaxJoinRows bounds JoinFromSources: finding the joining pairs and the
// largest Euclidean distance costs O(N²·d) time.
const MaxJoinRows = 100000

// JoinFromSources returns g with the component-joining edges of paper 000
// §3.4 Eq. 4 added, for callers that hold shortest paths from a few
// sources only (landmark ISOMAP) instead of the N×N matrix that
// Geodesics.Compute updates. The pairs are Compute's (the closest
// Euclidean cross-component pair, Kruskal's order) and the length of the
// t-th join is Eq. 4's L_t = g_max + d_t/d_max. Because the joins form a
// tree over the components, shortest paths in the returned graph equal
// Compute's joined G: the update G_ab = G_ai + L + G_jb is the only path.
//
// g_max before a join is the largest finite geodesic so far. After the
// join of components A ∋ i and B ∋ j it is max(g_max, ecc_A(i) + L +
// ecc_B(j)), the eccentricities found by Dijkstra from i and j in the
// graph joined so far (exact). Only the starting value, the largest
// geodesic inside the components, needs all pairs; it is taken as the
// largest finite entry of from, the distances from the sources, which is
// exact when every node is a source and otherwise at least half of it
// (each component holding a source). It returns the joined graph and the
// join edges. Errors: ErrSpec when the graph is disconnected and the data
// has more than MaxJoinRows rows (the message says to use more
// neighbours), ctx.Err().
func JoinFromSources(ctx context.Context, g *Graph, data []float64, d int, from []float64) (*Graph, []Edge, error) {
	n := g.N()
	ncomp, comp := g.Components()
	if ncomp == 1 {
		return g, nil, nil
	}
	if n > MaxJoinRows {
		return nil, nil, fmt.Errorf("%w: the graph has %d components; joining them (paper 000 Eq. 4) costs O(N²·d) and %d rows are more than %d: use more neighbours", ErrSpec, ncomp, n, MaxJoinRows)
	}
	comp = append([]int(nil), comp...)
	pairs, err := joinPairs(ctx, data, n, d, comp, ncomp)
	if err != nil {
		return nil, nil, err
	}
	dmax := maxDist(ctx, data, n, d)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	gmax := maxFinite(from)
	edges := g.EdgeList()
	joins := make([]Edge, 0, len(pairs))
	cur := g
	for _, p := range pairs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		ecc, err := DistancesFrom(ctx, cur, []int{p.I, p.J})
		if err != nil {
			return nil, nil, err
		}
		L := gmax + p.W/dmax
		gmax = math.Max(gmax, maxFinite(ecc.RawRowView(0))+L+maxFinite(ecc.RawRowView(1)))
		e := Edge{I: p.I, J: p.J, W: L}
		joins = append(joins, e)
		edges = append(edges, e)
		if cur, err = New(n, edges); err != nil {
			return nil, nil, err
		}
	}
	return cur, joins, nil
}
