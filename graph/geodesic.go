package graph

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// Join scales for the ratio d_min/d_max of paper 000 Eq. 4.
const (
	// JoinEuclidean: d_min is the Euclidean distance of the joined pair and
	// d_max the largest Euclidean distance between any two points (the
	// paper's experiments and peers.py; the default).
	JoinEuclidean = "euclidean"
	// JoinGraph: d_min is the shortest edge of the neighbourhood graph (the
	// smallest positive graph distance) and d_max the current g_max.
	JoinGraph = "graph"
)

// GeodesicResult holds geodesic distances and how they were made.
type GeodesicResult struct {
	G          *mat.SymDense // N×N geodesic distances, finite, zero diagonal
	Joins      int           // edges added by the Eq. 4 rule (Components − 1)
	Components int           // connected components of the neighbourhood graph
	Graph      *Graph        // the neighbourhood graph, without join edges
	JoinEdges  []Edge        // the added edges, in order, with their lengths L_ij
}

// Geodesics are the settings of Compute.
type Geodesics struct {
	Spec      Spec   // neighbourhood graph, e.g. {Kind: "knn", K: 7}
	JoinScale string // JoinEuclidean ("" means this) or JoinGraph
	// Exact computes every row by a search (ShortestPathsExact): G then
	// equals peers.knn_geodesic bit for bit on data where sklearn computes
	// exact neighbour distances (d <= 15), at about 1.3× the time.
	Exact bool
	// Progress, if not nil, is called with stages "graph" (0/1, 1/1),
	// "paths" (rows done / N) and "join" (joins done / joins needed). Calls
	// may come from worker goroutines but never overlap.
	Progress func(stage string, done, total int)
}

func (s Geodesics) validate() error {
	if err := s.Spec.validate(); err != nil {
		return err
	}
	switch s.JoinScale {
	case "", JoinEuclidean, JoinGraph:
		return nil
	}
	return fmt.Errorf("%w: join scale %q (want %q or %q)", ErrSpec, s.JoinScale, JoinEuclidean, JoinGraph)
}

// Geodesic returns graph geodesic distances over the rows of X with the
// default settings: Geodesics{Spec: s}.Compute(ctx, X).
func Geodesic(ctx context.Context, X mat.Matrix, s Spec) (GeodesicResult, error) {
	return Geodesics{Spec: s}.Compute(ctx, X)
}

// Compute builds the neighbourhood graph of the rows of X (Build), its
// all-pairs shortest paths G (ShortestPaths), and joins its components by
// the rule of paper 000 §3.4 Eq. 4, exactly as peers.knn_geodesic does:
//
//	while the graph is disconnected:
//	    g_max = largest finite G_ab
//	    (i, j) = closest Euclidean pair in different components, d_min = ||x_i − x_j||
//	             (ties: first in row-major order, i < j, like numpy argmin)
//	    add edge i–j of length L_ij = g_max + d_min/d_max  (Eq. 4)
//	    for a in comp(i), b in comp(j): G_ab = G_ba = (G_ai + L_ij) + G_jb
//
// d_max is the largest Euclidean distance between any two points (see
// JoinScale for the alternative). Only cross pairs change, because before
// the join no path linked the two components, so the update is exact
// without re-running Dijkstra.
//
// The sequence of joined pairs is Kruskal's order on the complete
// Euclidean graph over the components, so it is found by one Prim pass over
// the components (O(N²d)) and then sorted; the updates cost O(N²) in all.
// Total time O(N²d + N·(E + N) log N), memory N² values.
//
// Errors: those of Build (ErrK, ErrEps, ErrSpec, ErrTooFewRows,
// distance.ErrEmpty, distance.ErrNonFinite) and ctx.Err().
func (s Geodesics) Compute(ctx context.Context, X mat.Matrix) (GeodesicResult, error) {
	if err := s.validate(); err != nil {
		return GeodesicResult{}, err
	}
	progress := s.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	progress("graph", 0, 1)
	g, err := Build(ctx, X, s.Spec)
	if err != nil {
		return GeodesicResult{}, err
	}
	progress("graph", 1, 1)
	G, err := shortestPaths(ctx, g, progress, s.Exact)
	if err != nil {
		return GeodesicResult{}, err
	}
	ncomp, comp := g.Components()
	res := GeodesicResult{G: G, Components: ncomp, Graph: g}
	if ncomp == 1 {
		return res, nil
	}
	data, n, d, _ := distance.Points(X) // validated by Build
	pairs, err := joinPairs(ctx, data, n, d, comp, ncomp)
	if err != nil {
		return GeodesicResult{}, err
	}
	raw := G.RawSymmetric().Data
	gmax := maxFinite(raw)
	var dmin, dmax float64
	if s.JoinScale == JoinGraph {
		dmin = math.Inf(1)
		for _, w := range g.w {
			dmin = min(dmin, w)
		}
	} else {
		dmax = maxDist(ctx, data, n, d)
		if err := ctx.Err(); err != nil {
			return GeodesicResult{}, err
		}
	}
	members := make([][]int, ncomp)
	for i, c := range comp {
		members[c] = append(members[c], i)
	}
	for t, p := range pairs {
		if err := ctx.Err(); err != nil {
			return GeodesicResult{}, err
		}
		progress("join", t, len(pairs))
		var L float64
		if s.JoinScale == JoinGraph {
			ratio := 1.0
			if gmax > 0 && !math.IsInf(dmin, 0) {
				ratio = dmin / gmax
			}
			L = gmax + ratio
		} else {
			L = gmax + p.W/dmax
		}
		i, j := p.I, p.J
		A, B := members[comp[i]], members[comp[j]]
		for _, a := range A {
			ga := raw[a*n+i] + L
			rowA := raw[a*n : a*n+n]
			for _, b := range B {
				v := ga + raw[j*n+b]
				rowA[b] = v
				raw[b*n+a] = v
				gmax = max(gmax, v)
			}
		}
		ci, cj := comp[i], comp[j]
		for _, b := range B {
			comp[b] = ci
		}
		members[ci] = append(members[ci], B...)
		members[cj] = nil
		res.JoinEdges = append(res.JoinEdges, Edge{I: i, J: j, W: L})
	}
	progress("join", len(pairs), len(pairs))
	res.Joins = len(pairs)
	return res, nil
}

// joinPairs returns the ncomp−1 cross-component pairs that the repeated
// "closest Euclidean pair in different components" rule joins, in the
// order it joins them, with W = their Euclidean distance. Edges are
// ordered by (distance, i, j) with i < j — numpy's row-major argmin over
// the symmetric matrix. The pairs are the minimum spanning tree of the
// components under that strict order (unique), found by Prim's algorithm
// adding one whole component per step, then sorted (Kruskal's order).
func joinPairs(ctx context.Context, data []float64, n, d int, comp []int, ncomp int) ([]Edge, error) {
	members := make([][]int, ncomp)
	for i, c := range comp {
		members[c] = append(members[c], i)
	}
	inTree := make([]bool, n)
	keyW := make([]float64, n)
	keyI := make([]int, n) // best pair for p: (keyW[p], min(keyI,p), max(keyI,p))
	for p := range keyW {
		keyW[p] = math.Inf(1)
		keyI[p] = -1
	}
	less := func(w1 float64, a1, b1 int, w2 float64, a2, b2 int) bool {
		if w1 != w2 {
			return w1 < w2
		}
		if a1 != a2 {
			return a1 < a2
		}
		return b1 < b2
	}
	pair := func(a, b int) (int, int) {
		if a < b {
			return a, b
		}
		return b, a
	}
	// add puts component c into the tree and relaxes the keys of the rest,
	// in parallel over the points outside the tree.
	add := func(c int) error {
		for _, m := range members[c] {
			inTree[m] = true
		}
		mem := members[c]
		return distance.ParallelRows(ctx, n, func(p int) {
			if inTree[p] {
				return
			}
			x := data[p*d : p*d+d]
			bw, bi := keyW[p], keyI[p]
			ba, bb := pair(max(bi, 0), p)
			for _, m := range mem {
				w := math.Sqrt(distance.SqDist(x, data[m*d:m*d+d]))
				a, b := pair(m, p)
				if bi < 0 || less(w, a, b, bw, ba, bb) {
					bw, bi, ba, bb = w, m, a, b
				}
			}
			keyW[p], keyI[p] = bw, bi
		})
	}
	if err := add(0); err != nil {
		return nil, err
	}
	out := make([]Edge, 0, ncomp-1)
	for t := 1; t < ncomp; t++ {
		best := -1
		var ba, bb int
		for p := 0; p < n; p++ {
			if inTree[p] {
				continue
			}
			a, b := pair(keyI[p], p)
			if best < 0 || less(keyW[p], a, b, keyW[best], ba, bb) {
				best, ba, bb = p, a, b
			}
		}
		out = append(out, Edge{I: ba, J: bb, W: keyW[best]})
		if err := add(comp[best]); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(x, y Edge) int {
		switch {
		case less(x.W, x.I, x.J, y.W, y.I, y.J):
			return -1
		case less(y.W, y.I, y.J, x.W, x.I, x.J):
			return 1
		}
		return 0
	})
	return out, nil
}

// maxFinite returns the largest finite entry of v (0 if none).
func maxFinite(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		if x > m && !math.IsInf(x, 1) {
			m = x
		}
	}
	return m
}

// maxDist returns the largest Euclidean distance between two rows,
// in parallel (max is order independent, so deterministic).
func maxDist(ctx context.Context, data []float64, n, d int) float64 {
	rowMax := make([]float64, n)
	_ = distance.ParallelRows(ctx, n, func(i int) {
		x := data[i*d : i*d+d]
		m := 0.0
		for j := i + 1; j < n; j++ {
			m = max(m, distance.SqDist(x, data[j*d:j*d+d]))
		}
		rowMax[i] = m
	})
	m := 0.0
	for _, v := range rowMax {
		m = max(m, v)
	}
	return math.Sqrt(m)
}
