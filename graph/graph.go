package graph

import (
	"fmt"
	"math"
	"slices"
)

// Graph is an undirected graph on nodes 0..N()-1 with positive edge
// lengths, stored as compressed sparse rows: the neighbours of i are
// adj[off[i]:off[i+1]] in increasing order, with lengths w at the same
// positions. Every edge is stored in both rows. A Graph is immutable.
type Graph struct {
	n   int
	off []int     // len n+1
	adj []int32   // neighbour ids, sorted within each row
	w   []float64 // edge lengths, parallel to adj
}

// Edge is an undirected edge of length W between nodes I and J.
type Edge struct {
	I, J int
	W    float64
}

// New builds a graph on n nodes from edges. Each edge is stored in both
// directions; an edge given twice (in either orientation) keeps the larger
// length, as scipy's A.maximum(A.T). Errors wrap ErrEdge for an endpoint
// out of range, a self-loop, or a length that is not finite and positive.
func New(n int, edges []Edge) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: n = %d", ErrEdge, n)
	}
	for k, e := range edges {
		switch {
		case e.I < 0 || e.I >= n || e.J < 0 || e.J >= n:
			return nil, fmt.Errorf("%w: edge %d (%d, %d) outside 0..%d", ErrEdge, k, e.I, e.J, n-1)
		case e.I == e.J:
			return nil, fmt.Errorf("%w: edge %d is a self-loop on %d", ErrEdge, k, e.I)
		case !(e.W > 0) || math.IsInf(e.W, 0):
			return nil, fmt.Errorf("%w: edge %d (%d, %d) has length %v, want finite > 0", ErrEdge, k, e.I, e.J, e.W)
		}
	}
	src := make([]int32, 0, 2*len(edges))
	dst := make([]int32, 0, 2*len(edges))
	w := make([]float64, 0, 2*len(edges))
	for _, e := range edges {
		src = append(src, int32(e.I), int32(e.J))
		dst = append(dst, int32(e.J), int32(e.I))
		w = append(w, e.W, e.W)
	}
	return fromArcs(n, src, dst, w), nil
}

// fromArcs builds the CSR graph from directed arcs that already contain
// both directions of every edge. Duplicate arcs keep the larger length.
func fromArcs(n int, src, dst []int32, w []float64) *Graph {
	off := make([]int, n+1)
	for _, s := range src {
		off[s+1]++
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	pos := slices.Clone(off[:n])
	adj := make([]int32, len(src))
	ww := make([]float64, len(src))
	for k, s := range src {
		p := pos[s]
		adj[p], ww[p] = dst[k], w[k]
		pos[s]++
	}
	// Sort each row by neighbour id and merge duplicates (keep max).
	g := &Graph{n: n, off: make([]int, n+1)}
	g.adj = adj[:0]
	g.w = ww[:0]
	var perm []int
	var radj []int32
	var rw []float64
	out := 0
	for i := 0; i < n; i++ {
		lo, hi := off[i], off[i+1]
		perm = perm[:0]
		for p := lo; p < hi; p++ {
			perm = append(perm, p)
		}
		slices.SortFunc(perm, func(a, b int) int { return int(adj[a]) - int(adj[b]) })
		radj = radj[:0]
		rw = rw[:0]
		for _, p := range perm {
			if m := len(radj); m > 0 && radj[m-1] == adj[p] {
				rw[m-1] = max(rw[m-1], ww[p])
				continue
			}
			radj = append(radj, adj[p])
			rw = append(rw, ww[p])
		}
		// out <= lo, so writing in place never overtakes unread entries.
		copy(adj[out:], radj)
		copy(ww[out:], rw)
		out += len(radj)
		g.off[i+1] = out
	}
	g.adj = adj[:out:out]
	g.w = ww[:out:out]
	return g
}

// N returns the number of nodes.
func (g *Graph) N() int { return g.n }

// Edges returns the number of undirected edges.
func (g *Graph) Edges() int { return len(g.adj) / 2 }

// Degree returns the number of neighbours of node i.
func (g *Graph) Degree(i int) int { return g.off[i+1] - g.off[i] }

// Neighbors returns the neighbours of node i in increasing order and the
// lengths of the edges to them. The slices alias the graph: do not modify.
func (g *Graph) Neighbors(i int) (nodes []int32, lengths []float64) {
	lo, hi := g.off[i], g.off[i+1]
	return g.adj[lo:hi:hi], g.w[lo:hi:hi]
}

// Weight returns the length of edge i–j and whether it exists.
func (g *Graph) Weight(i, j int) (float64, bool) {
	nodes, lengths := g.Neighbors(i)
	k, ok := slices.BinarySearch(nodes, int32(j))
	if !ok {
		return 0, false
	}
	return lengths[k], true
}

// EdgeList returns every undirected edge once, with I < J, ordered by I
// then J.
func (g *Graph) EdgeList() []Edge {
	out := make([]Edge, 0, g.Edges())
	for i := 0; i < g.n; i++ {
		nodes, lengths := g.Neighbors(i)
		for k, j := range nodes {
			if int(j) > i {
				out = append(out, Edge{I: i, J: int(j), W: lengths[k]})
			}
		}
	}
	return out
}

// Components labels the connected components: comp[i] is the component of
// node i, numbered 0, 1, ... in order of each component's smallest node
// (the labelling of scipy.sparse.csgraph.connected_components). It returns
// the number of components. Time O(N + E).
func (g *Graph) Components() (n int, comp []int) {
	comp = make([]int, g.n)
	for i := range comp {
		comp[i] = -1
	}
	stack := make([]int32, 0, 64)
	for s := 0; s < g.n; s++ {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = n
		stack = append(stack[:0], int32(s))
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range g.adj[g.off[u]:g.off[u+1]] {
				if comp[v] < 0 {
					comp[v] = n
					stack = append(stack, v)
				}
			}
		}
		n++
	}
	return n, comp
}
