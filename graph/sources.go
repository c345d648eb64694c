package graph

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// DistancesFrom returns the shortest-path lengths from each of the sources
// to every node of g: row r holds the distances from node sources[r] (+Inf
// for a node in another component). Dijkstra with a radix heap from each
// source, sources in parallel; the lengths equal ShortestPaths's up to the
// order of the additions along a path (ShortestPaths symmetrises, so its
// entry (s, j) may be the sum taken from j). Time O(M·(E + N)·log) for M sources,
// memory M×N (the result) plus one heap per worker: the landmark ISOMAP of
// de Silva & Tenenbaum (2002) needs only these M rows, not the N×N matrix.
// Errors: ErrK if a source is out of range, ctx.Err().
func DistancesFrom(ctx context.Context, g *Graph, sources []int) (*mat.Dense, error) {
	n := g.N()
	for r, s := range sources {
		if s < 0 || s >= n {
			return nil, fmt.Errorf("%w: source %d is node %d, want 0..%d", ErrK, r, s, n-1)
		}
	}
	if len(sources) == 0 {
		return nil, fmt.Errorf("%w: no sources", ErrK)
	}
	out := mat.NewDense(len(sources), n, nil)
	workers := runtime.GOMAXPROCS(0)
	heaps := make([]radixHeap, workers)
	err := parallel.ForWorkers(ctx, len(sources), workers, func(w, r int) {
		heaps[w].dijkstra(g, sources[r], out.RawRowView(r))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Searcher runs single-source shortest-path searches (Dijkstra with a
// radix heap, as DistancesFrom), reusing its buffers between searches. A
// Searcher is not safe for concurrent use: give each goroutine its own.
// The zero value is ready to use.
type Searcher struct {
	h       radixHeap
	dist    []float64 // Nearest: +Inf but for the nodes being searched
	touched []int32
}

// From writes the shortest-path lengths in g from node src to every node
// into dist (len g.N(); +Inf for a node in another component). src must be
// in 0..g.N()−1.
func (s *Searcher) From(g *Graph, src int, dist []float64) { s.h.dijkstra(g, src, dist) }

// Nearest returns the k nodes nearest to src in g by shortest-path length
// (src itself left out; fewer if its component is smaller), in the order
// Dijkstra settles them (non-decreasing length), appended to nodes[:0] and
// lengths[:0]. Every node not returned is at least as far from src as the
// last one returned. The search stops after k + 1 settled nodes, so its
// cost depends on k, not on N (besides a one-time O(N) buffer).
func (s *Searcher) Nearest(g *Graph, src, k int, nodes []int32, lengths []float64) ([]int32, []float64) {
	nodes, lengths = nodes[:0], lengths[:0]
	n := g.n
	if len(s.dist) < n {
		s.dist = make([]float64, n)
		for i := range s.dist {
			s.dist[i] = math.Inf(1)
		}
	}
	dist := s.dist
	h := &s.h
	h.reset()
	s.touched = append(s.touched[:0], int32(src))
	dist[src] = 0
	h.push(0, int32(src))
	off, adj, w := g.off, g.adj, g.w
	for h.size > 0 && len(nodes) < k {
		du, u := h.pop()
		if du > dist[u] {
			continue
		}
		if int(u) != src {
			nodes = append(nodes, u)
			lengths = append(lengths, du)
		}
		lo, hi := off[u], off[u+1]
		nbr, ww := adj[lo:hi], w[lo:hi:hi]
		for p, v := range nbr {
			nd := du + ww[p]
			if nd < dist[v] {
				if math.IsInf(dist[v], 1) {
					s.touched = append(s.touched, v)
				}
				dist[v] = nd
				h.push(nd, v)
			}
		}
	}
	for _, v := range s.touched {
		dist[v] = math.Inf(1)
	}
	return nodes, lengths
}
