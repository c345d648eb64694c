package hclust

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// ExactCells partitions the rows of X into clusters of the exact
// Euclidean linkage tree of m (Complete, Average or Weighted), without the
// N×N matrix: FromPointsCells on these cells then returns the exact tree
// (up to the order of equal heights), in O(N·k + K²) memory for K cells.
//
// Method. These linkages are reducible, so merging reciprocal nearest
// neighbours (RNN) in any order builds the same dendrogram (the argument
// behind the nearest-neighbour chain; Müllner 2011 §3). The k nearest
// neighbours of every row (internal/neighbors, exact) give each row x a
// radius r_x, its k-th neighbour's distance, inside which every row is
// known. Clusters start as single rows; a cluster A knows the clusters
// holding a k-neighbour of one of its rows (or holding a row with a
// k-neighbour in A) and their exact linkage distance to A from the points
// (complete: max, average: mean, weighted: the WPGMA value, a mean of the
// pairwise distances with weights 2^−(depth of x in A + depth of y in B)).
// Every other cluster C has no such pair, so each distance from A to C is
// at least min over x ∈ A of r_x =: LB(A), and so is the linkage distance
// (each of the three is a weighted mean or the max of those distances).
// When A's nearest known cluster is B at h, B's is A, and h ≤ LB(A),
// LB(B), A and B are reciprocal nearest neighbours among ALL clusters, and
// the exact tree merges them at h. Rounds merge every such pair and
// refresh the clusters next to a merge, until no certified pair is left
// (clusters have outgrown the radii) or a merge would exceed
// CellsMaxSize rows.
//
// It returns every row's cell (0..K−1, numbered by their lowest row) and
// K. Cost: the kNN search, then per round O(Σ |A|·|C|·d) over the
// refreshed pairs; memory O(N·k). Errors: ErrMethod, ErrTooFewRows,
// ErrNonFinite, ErrShape (k < 1), ctx.Err(). A k of N−1 or more makes
// every row a neighbour of every other: the whole tree is certified (one
// cell, unless a merge would exceed CellsMaxSize rows).
func ExactCells(ctx context.Context, X mat.Matrix, m Method, k int) ([]int, int, error) {
	switch m {
	case Complete, Average, Weighted:
	default:
		return nil, 0, fmt.Errorf("hclust: exact cells: method %v: %w", m, ErrMethod)
	}
	pts, n, dim, err := points(ctx, X, m)
	if err != nil {
		return nil, 0, err
	}
	if k < 1 {
		return nil, 0, fmt.Errorf("hclust: exact cells: %d neighbours: %w", k, ErrShape)
	}
	// Identical rows are at distance 0, below any other pair: every
	// linkage joins them first, so each set of duplicates starts as one
	// cluster, and the neighbours are searched among the distinct rows
	// (duplicates would fill the lists at distance 0 and leave no radius).
	group, reps := duplicates(pts, n, dim)
	u := len(reps)
	if u == 1 {
		return make([]int, n), 1, nil
	}
	// k ≥ u−1: every other distinct row is a neighbour, nothing lies
	// outside the lists, and the radii are infinite (the whole tree is
	// certified: one cell).
	all := k >= u-1
	k = min(k, u-1)
	up := make([]float64, u*dim)
	for g, r := range reps {
		copy(up[g*dim:g*dim+dim], pts[int(r)*dim:int(r)*dim+dim])
	}
	idx := make([]int32, u*k)
	d2 := make([]float64, u*k)
	if err := neighbors.New(up, u, dim).All(ctx, k, neighbors.ExcludeSelf, idx, d2); err != nil {
		return nil, 0, err
	}
	s := newRNN(pts, n, dim, m, group, reps, idx, d2, k, all)
	if err := s.run(ctx); err != nil {
		return nil, 0, err
	}
	return s.cells()
}

// duplicates groups identical rows: group[i] is row i's set (numbered by
// its lowest row), reps[g] that lowest row.
func duplicates(pts []float64, n, dim int) ([]int32, []int32) {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	row := func(i int32) []float64 { return pts[int(i)*dim : int(i)*dim+dim] }
	slices.SortStableFunc(order, func(a, b int32) int {
		if c := slices.Compare(row(a), row(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	first := make([]int32, n) // row → the lowest row equal to it
	for p, i := range order {
		if p > 0 && slices.Equal(row(order[p-1]), row(i)) {
			first[i] = first[order[p-1]]
		} else {
			first[i] = i
		}
	}
	group := make([]int32, n)
	var reps []int32
	num := make(map[int32]int32)
	for i := 0; i < n; i++ {
		g, ok := num[first[i]]
		if !ok {
			g = int32(len(reps))
			num[first[i]] = g
			reps = append(reps, int32(i))
		}
		group[i] = g
	}
	return group, reps
}

// rnn is the state of ExactCells.
type rnn struct {
	pts    []float64
	n, dim int
	m      Method
	// adj: the symmetric union of the kNN lists (CSR)
	ptr []int
	adj []int32
	// clusters: ids 0..n−1 are the rows, merges append
	members [][]int32
	lb      []float64 // min radius over the members
	alive   []bool
	cl      []int32   // row → its cluster
	w       []float64 // row → 2^−depth in its cluster (weighted)
	nn      []int32   // nearest known cluster (−1: none)
	nh      []float64 // its distance (a lower bound when !nx)
	nx      []bool    // nh is the exact distance
	// ExactCellsKnown: the known pairs' distances (aligned with adj, each
	// row's partners sorted) and the rows' radii; nil for points
	kw  []float64
	rad []float64
}

// newRNN starts ExactCells: the duplicate sets (group, reps) as clusters,
// the k-NN lists of the distinct rows (idx over set numbers) as the known
// pairs, held at the sets' first rows; all: the lists hold every other
// set (radii +Inf).
func newRNN(pts []float64, n, dim int, m Method, group, reps []int32, idx []int32, d2 []float64, k int, all bool) *rnn {
	s := &rnn{pts: pts, n: n, dim: dim, m: m}
	u := len(reps)
	deg := make([]int, n+1)
	for g := 0; g < u; g++ {
		for _, h := range idx[g*k : g*k+k] {
			deg[reps[g]+1]++
			deg[reps[h]+1]++
		}
	}
	for i := 0; i < n; i++ {
		deg[i+1] += deg[i]
	}
	s.ptr = append([]int(nil), deg...)
	s.adj = make([]int32, deg[n])
	next := deg[:n]
	for g := 0; g < u; g++ {
		i := reps[g]
		for _, h := range idx[g*k : g*k+k] {
			j := reps[h]
			s.adj[next[i]] = j
			next[i]++
			s.adj[next[j]] = i
			next[j]++
		}
	}
	// the k-th neighbour's d² may be rounded otherwise than Euclid's sum:
	// shrink the radius by a few ulps so that it stays a bound
	s.startGroups(group, u, func(g int) float64 {
		if all {
			return math.Inf(1)
		}
		return math.Sqrt(d2[g*k+k-1]) * (1 - 1e-12)
	})
	return s
}

// startGroups makes every set of rows (group[i] ∈ [0, u)) a cluster, with
// the given radius; a set's rows weigh 1/size each (weighted: identical
// rows give the same WPGMA distances however they were joined).
func (s *rnn) startGroups(group []int32, u int, radius func(g int) float64) {
	n := s.n
	s.members = make([][]int32, u, 2*u)
	s.lb = make([]float64, u, 2*u)
	s.alive = make([]bool, u, 2*u)
	s.nn = make([]int32, u, 2*u)
	s.nh = make([]float64, u, 2*u)
	s.nx = make([]bool, u, 2*u)
	s.cl = make([]int32, n)
	s.w = make([]float64, n)
	for i := 0; i < n; i++ {
		g := group[i]
		s.members[g] = append(s.members[g], int32(i))
		s.cl[i] = g
	}
	for g := 0; g < u; g++ {
		s.lb[g] = radius(g)
		s.alive[g] = true
		for _, i := range s.members[g] {
			s.w[i] = 1 / float64(len(s.members[g]))
		}
	}
}

// start makes every row its own cluster, with the given radius.
func (s *rnn) start(radius func(i int) float64) {
	n := s.n
	s.members = make([][]int32, n, 2*n)
	s.lb = make([]float64, n, 2*n)
	s.alive = make([]bool, n, 2*n)
	s.nn = make([]int32, n, 2*n)
	s.nh = make([]float64, n, 2*n)
	s.nx = make([]bool, n, 2*n)
	s.cl = make([]int32, n)
	s.w = make([]float64, n)
	for i := 0; i < n; i++ {
		s.members[i] = []int32{int32(i)}
		s.lb[i] = radius(i)
		s.alive[i] = true
		s.cl[i] = int32(i)
		s.w[i] = 1
	}
}

// dist is the linkage distance between live clusters a and b, summed in a
// fixed order (the lower id's rows outside), and whether it is exact: with
// known pairs only (ExactCellsKnown) an unknown pair counts its lower
// bound max(r_x, r_y), and the result is a lower bound.
func (s *rnn) dist(a, b int32) (float64, bool) {
	if a > b {
		a, b = b, a
	}
	A, B := s.members[a], s.members[b]
	dim := s.dim
	var acc float64
	exact := true
	for _, x := range A {
		var px []float64
		var part []int32
		if s.kw == nil {
			px = s.pts[int(x)*dim : int(x)*dim+dim]
		} else {
			part = s.adj[s.ptr[x]:s.ptr[x+1]]
		}
		for _, y := range B {
			var d float64
			if s.kw == nil {
				var q float64
				for j, v := range s.pts[int(y)*dim : int(y)*dim+dim] {
					t := px[j] - v
					q += t * t
				}
				d = math.Sqrt(q)
			} else if p, ok := slices.BinarySearch(part, y); ok {
				d = s.kw[s.ptr[x]+p]
			} else {
				d = max(s.rad[x], s.rad[y])
				exact = false
			}
			switch s.m {
			case Complete:
				acc = max(acc, d)
			case Average:
				acc += d
			case Weighted:
				acc += s.w[x] * s.w[y] * d
			}
		}
	}
	if s.m == Average {
		acc /= float64(len(A)) * float64(len(B))
	}
	return acc, exact
}

// refresh sets nn and nh of cluster c: its nearest known cluster (ties to
// the lower id). seen is scratch of len ≥ len(members), zero on entry and
// exit.
func (s *rnn) refresh(c int32, seen []bool, buf []int32) []int32 {
	buf = buf[:0]
	for _, x := range s.members[c] {
		for _, y := range s.adj[s.ptr[x]:s.ptr[x+1]] {
			o := s.cl[y]
			if o != c && !seen[o] {
				seen[o] = true
				buf = append(buf, o)
			}
		}
	}
	best, bi, bx := math.Inf(1), int32(-1), false
	for _, o := range buf {
		seen[o] = false
		d, x := s.dist(c, o)
		// ties: an exact distance first, then the lower id
		if d < best || (d == best && (x && !bx || x == bx && o < bi)) {
			best, bi, bx = d, o, x
		}
	}
	s.nn[c], s.nh[c], s.nx[c] = bi, best, bx
	return buf
}

func (s *rnn) run(ctx context.Context) error {
	dirty := make([]int32, len(s.members))
	for i := range dirty {
		dirty[i] = int32(i)
	}
	live := len(s.members)
	workers := runtime.GOMAXPROCS(0)
	seen := make([][]bool, workers)
	bufs := make([][]int32, workers)
	mark := []bool{}
	for len(dirty) > 0 {
		total := len(s.members)
		for w := range seen {
			if len(seen[w]) < total {
				seen[w] = make([]bool, 2*s.n)
			}
		}
		err := parallel.ForWorkers(ctx, len(dirty), workers, func(w, t int) {
			bufs[w] = s.refresh(dirty[t], seen[w], bufs[w])
		})
		if err != nil {
			return err
		}
		// certified reciprocal pairs, in id order
		type pair struct{ a, b int32 }
		var pairs []pair
		for a := int32(0); a < int32(total); a++ {
			if !s.alive[a] {
				continue
			}
			b := s.nn[a]
			if b <= a || s.nn[b] != a {
				continue
			}
			h := s.nh[a]
			if s.nx[a] && s.nx[b] && h <= s.lb[a] && h <= s.lb[b] && len(s.members[a])+len(s.members[b]) <= CellsMaxSize {
				pairs = append(pairs, pair{a, b})
			}
		}
		// Stop when a round certifies almost nothing (stopping is always
		// safe: every cluster so far is one of the exact tree's); ties at
		// equal distances can otherwise make every cluster's nearest one
		// cluster and the rounds as many as the rows.
		if len(pairs) == 0 || len(pairs)*1000 < live {
			return nil
		}
		live -= len(pairs)
		if len(mark) < total+len(pairs) {
			mark = make([]bool, 2*s.n)
		}
		dirty = dirty[:0]
		for _, p := range pairs {
			id := int32(len(s.members))
			A, B := s.members[p.a], s.members[p.b]
			u := make([]int32, 0, len(A)+len(B))
			u = append(append(u, A...), B...)
			slices.Sort(u)
			s.members = append(s.members, u)
			s.lb = append(s.lb, min(s.lb[p.a], s.lb[p.b]))
			s.alive = append(s.alive, true)
			s.nn = append(s.nn, -1)
			s.nh = append(s.nh, math.Inf(1))
			s.nx = append(s.nx, false)
			s.alive[p.a], s.alive[p.b] = false, false
			s.members[p.a], s.members[p.b] = nil, nil
			for _, x := range u {
				s.cl[x] = id
				s.w[x] *= 0.5
			}
			mark[id] = true
			dirty = append(dirty, id)
		}
		// the neighbours of every new cluster: their distances changed
		for id := int32(total); id < int32(len(s.members)); id++ {
			for _, x := range s.members[id] {
				for _, y := range s.adj[s.ptr[x]:s.ptr[x+1]] {
					if o := s.cl[y]; !mark[o] {
						mark[o] = true
						dirty = append(dirty, o)
					}
				}
			}
		}
		for _, c := range dirty {
			mark[c] = false
		}
		slices.Sort(dirty)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// cells numbers the live clusters by their lowest row.
func (s *rnn) cells() ([]int, int, error) {
	num := make(map[int32]int)
	cells := make([]int, s.n)
	for i := 0; i < s.n; i++ {
		c := s.cl[i]
		v, ok := num[c]
		if !ok {
			v = len(num)
			num[c] = v
		}
		cells[i] = v
	}
	return cells, len(num), nil
}

// ExactCellsKnown is ExactCells for a dissimilarity of n rows known only
// on some pairs, such as geodesics from searches that stop after the k
// nearest nodes (graph.Searcher.Nearest). ptr, adj, w is a symmetric
// sparse matrix (CSR): row x's known partners adj[ptr[x]:ptr[x+1]], sorted
// and without x, with their distances w (the same value stored on both
// sides); every pair (x, y) not stored is at least max(radius[x],
// radius[y]) apart. A cluster distance that involves an unknown pair is
// then only a lower bound (the pair counted at its bound), and a merge is
// certified only when both sides' nearest distance is exact; the rest is
// ExactCells. Errors: ErrMethod, ErrTooFewRows, ErrShape (a malformed
// matrix), ErrNonFinite, ctx.Err().
func ExactCellsKnown(ctx context.Context, n int, m Method, ptr []int, adj []int32, w, radius []float64) ([]int, int, error) {
	switch m {
	case Complete, Average, Weighted:
	default:
		return nil, 0, fmt.Errorf("hclust: exact cells: method %v: %w", m, ErrMethod)
	}
	if n < 2 {
		return nil, 0, fmt.Errorf("hclust: %d observations: %w", n, ErrTooFewRows)
	}
	if len(ptr) != n+1 || ptr[0] != 0 || ptr[n] != len(adj) || len(w) != len(adj) || len(radius) != n {
		return nil, 0, fmt.Errorf("hclust: exact cells: a known-pairs matrix of %d rows with %d pointers, %d partners, %d distances, %d radii: %w",
			n, len(ptr), len(adj), len(w), len(radius), ErrShape)
	}
	for x := 0; x < n; x++ {
		if ptr[x+1] < ptr[x] {
			return nil, 0, fmt.Errorf("hclust: exact cells: row %d: pointers decrease: %w", x, ErrShape)
		}
		part := adj[ptr[x]:ptr[x+1]]
		for p, y := range part {
			if y < 0 || int(y) >= n || int(y) == x || (p > 0 && part[p-1] >= y) {
				return nil, 0, fmt.Errorf("hclust: exact cells: row %d: partner %d out of range, itself or not increasing: %w", x, y, ErrShape)
			}
			if v := w[ptr[x]+p]; !validDistance(v) {
				return nil, 0, fmt.Errorf("hclust: exact cells: distance (%d, %d) is %v: %w", x, y, v, ErrNonFinite)
			}
		}
		if !(radius[x] >= 0) {
			return nil, 0, fmt.Errorf("hclust: exact cells: radius %d is %v: %w", x, radius[x], ErrNonFinite)
		}
	}
	s := &rnn{n: n, m: m, ptr: ptr, adj: adj, kw: w, rad: radius}
	s.start(func(i int) float64 { return radius[i] })
	if err := s.run(ctx); err != nil {
		return nil, 0, err
	}
	return s.cells()
}
