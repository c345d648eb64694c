package graph

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// ShortestPaths returns the all-pairs shortest-path (geodesic) distances
// of g: G_ij is the length of the shortest path between i and j, +Inf when
// they lie in different components, 0 on the diagonal.
//
// Dijkstra's algorithm runs from every source, in parallel over sources on
// runtime.GOMAXPROCS(0) goroutines, each with its own typed indexed binary
// heap (decrease-key, no interface boxing) writing its row straight into the
// result. The result is then symmetrised as 0.5·(G + Gᵀ), exactly as
// peers.py does after scipy's shortest_path: the two directions of a path
// add the same lengths in opposite order and can differ in the last bit.
// Every row is computed by one goroutine, so the result is independent of
// GOMAXPROCS; it also equals scipy.sparse.csgraph.shortest_path(method="D")
// to the last bit (the Dijkstra fixed point d_v = min_u fl(d_u + w_uv) does not
// depend on the heap or the order of ties).
//
// Time O(N·(E + N) log N), memory N² values (both triangles of the
// SymDense backing array are filled). Errors: ctx.Err().
func ShortestPaths(ctx context.Context, g *Graph) (*mat.SymDense, error) {
	return shortestPaths(ctx, g, nil)
}

func shortestPaths(ctx context.Context, g *Graph, progress func(string, int, int)) (*mat.SymDense, error) {
	n := g.n
	if n == 0 {
		return &mat.SymDense{}, nil
	}
	data := make([]float64, n*n)
	workers := min(runtime.GOMAXPROCS(0), n)
	const block = 8
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	run := func() {
		defer wg.Done()
		h := newPathHeap(n)
		for ctx.Err() == nil {
			lo := int(next.Add(block)) - block
			if lo >= n {
				return
			}
			hi := min(lo+block, n)
			for s := lo; s < hi; s++ {
				h.dijkstra(g, s, data[s*n:(s+1)*n])
			}
			if progress != nil {
				d := int(done.Add(int64(hi - lo)))
				mu.Lock()
				progress("paths", d, n)
				mu.Unlock()
			}
		}
	}
	wg.Add(workers)
	for w := 1; w < workers; w++ {
		go run()
	}
	run()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	symmetrize(data, n)
	return mat.NewSymDense(n, data), nil
}

// symmetrize replaces the square row-major matrix D by 0.5·(D + Dᵀ), tile
// by tile, in parallel over tile rows.
func symmetrize(data []float64, n int) {
	const tile = 64
	nt := (n + tile - 1) / tile
	workers := min(runtime.GOMAXPROCS(0), nt)
	var next atomic.Int64
	var wg sync.WaitGroup
	run := func() {
		defer wg.Done()
		for {
			bi := int(next.Add(1)) - 1
			if bi >= nt {
				return
			}
			i0, i1 := bi*tile, min(bi*tile+tile, n)
			for bj := bi; bj < nt; bj++ {
				j0, j1 := bj*tile, min(bj*tile+tile, n)
				for i := i0; i < i1; i++ {
					row := data[i*n : i*n+n]
					for j := max(j0, i+1); j < j1; j++ {
						v := 0.5 * (row[j] + data[j*n+i])
						row[j] = v
						data[j*n+i] = v
					}
				}
			}
		}
	}
	wg.Add(workers)
	for w := 1; w < workers; w++ {
		go run()
	}
	run()
	wg.Wait()
}

// pathHeap is an indexed binary min-heap of nodes keyed by tentative
// distance, with decrease-key; one per worker, reused across sources.
type pathHeap struct {
	key  []float64 // key[p] is the tentative distance of node[p]
	node []int32
	pos  []int32 // pos[v] = heap position of v, or -1
}

func newPathHeap(n int) *pathHeap {
	h := &pathHeap{
		key:  make([]float64, 0, n),
		node: make([]int32, 0, n),
		pos:  make([]int32, n),
	}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

// dijkstra writes the distances from s into dist (len N).
func (h *pathHeap) dijkstra(g *Graph, s int, dist []float64) {
	inf := math.Inf(1)
	for i := range dist {
		dist[i] = inf
	}
	off, adj, w := g.off, g.adj, g.w
	dist[s] = 0
	h.push(int32(s), 0)
	for len(h.node) > 0 {
		u, du := h.pop()
		for p := off[u]; p < off[u+1]; p++ {
			v := adj[p]
			nd := du + w[p]
			if nd < dist[v] {
				dist[v] = nd
				if q := h.pos[v]; q >= 0 {
					h.key[q] = nd
					h.up(int(q))
				} else {
					h.push(v, nd)
				}
			}
		}
	}
}

func (h *pathHeap) push(v int32, k float64) {
	h.key = append(h.key, k)
	h.node = append(h.node, v)
	p := len(h.node) - 1
	h.pos[v] = int32(p)
	h.up(p)
}

func (h *pathHeap) pop() (int32, float64) {
	v, k := h.node[0], h.key[0]
	h.pos[v] = -1
	last := len(h.node) - 1
	if last > 0 {
		h.node[0], h.key[0] = h.node[last], h.key[last]
		h.pos[h.node[0]] = 0
	}
	h.node = h.node[:last]
	h.key = h.key[:last]
	if last > 1 {
		h.down(0)
	}
	return v, k
}

func (h *pathHeap) up(p int) {
	k, v := h.key[p], h.node[p]
	for p > 0 {
		q := (p - 1) / 2
		if h.key[q] <= k {
			break
		}
		h.key[p], h.node[p] = h.key[q], h.node[q]
		h.pos[h.node[p]] = int32(p)
		p = q
	}
	h.key[p], h.node[p] = k, v
	h.pos[v] = int32(p)
}

func (h *pathHeap) down(p int) {
	n := len(h.node)
	k, v := h.key[p], h.node[p]
	for {
		c := 2*p + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h.key[r] < h.key[c] {
			c = r
		}
		if h.key[c] >= k {
			break
		}
		h.key[p], h.node[p] = h.key[c], h.node[c]
		h.pos[h.node[p]] = int32(p)
		p = c
	}
	h.key[p], h.node[p] = k, v
	h.pos[v] = int32(p)
}
