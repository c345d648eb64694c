// Package graph builds neighbourhood graphs over points and their
// shortest-path (geodesic) distances, as used by the graph variant of the
// hierarchical cluster kernel and the ISOMAP kernel (Z. Bodó, Hierarchical
// cluster kernels for supervised and semi-supervised learning, §3.3–3.4).
//
// # Graphs
//
// A Spec names the graph: "knn:K" (KNN: i–j is an edge when either is among
// the K nearest neighbours of the other, the symmetrised union) or "eps:E"
// (Epsilon: i–j is an edge when ||x_i − x_j|| <= E). Edge lengths are
// Euclidean distances, floored at MinLength = 1e-12 so duplicate points stay
// connected. A Graph is stored as compressed sparse rows (int32 neighbour
// ids, float64 lengths), symmetric, immutable.
//
// # Geodesics
//
// ShortestPaths computes all-pairs shortest paths in parallel over sources:
// a bucket-queue search (falling back to Dijkstra with a typed radix heap)
// from every node outside a maximal independent set, and the rows of the
// set's nodes as minima over their neighbours' rows; unreachable pairs are
// +Inf. Results equal scipy's Dijkstra up to the last bits.
// Geodesic (and Geodesics.Compute) add the component-joining rule of
// Eq. 4: while the graph is disconnected, the closest Euclidean pair (i, j)
// in different components is joined by an edge of length
//
//	L_ij = g_max + d_min/d_max                                      (Eq. 4)
//
// where g_max is the largest finite geodesic, d_min = ||x_i − x_j|| and
// d_max the largest Euclidean distance between any two points; only the
// cross-component distances change: G_ab = G_ai + L_ij + G_jb. With
// Geodesics{JoinScale: JoinGraph} the ratio uses graph distances instead
// (d_min = shortest edge, d_max = g_max), which the paper also allows. The
// conventions (neighbour ties, symmetrisation 0.5·(G + Gᵀ), tie-breaking of
// the closest pair) are those of peers.knn_geodesic in
// bench/peers/peers.py: the neighbourhood graph, the components and the
// joins are the same, and G agrees to a few units in the last place (most
// entries bit-identical; the tests require 1e-9 relative), or bit for bit
// with Geodesics{Exact: true} (ShortestPathsExact). Where sklearn
// picks the brute-force search (d > 15) its edge lengths come from the Gram
// trick and differ from exact ones by ~1e-16 relative.
//
// # Complexity
//
// kNN and ε graphs: O(N²d) time by exhaustive search with a bounded heap
// (k+1 candidates, partial distances abandoned early), O(Nk) memory.
// All-pairs shortest paths: O(N·(E + N)) time per source in practice
// (bounded by the radix heap's O(E + 64N)), N² float64 (8000 points:
// 512 MB). 7-NN graph + all-pairs paths at N = 2000 and 8000, d = 10, take
// well under 0.25× the time of peers.knn_geodesic (sklearn + scipy); see
// graph/testdata/peer_time.py. Joining c components: O(N²d + N²).
// Results are identical for every GOMAXPROCS.
//
// # Errors
//
// ErrSpec (unparsable or invalid spec), ErrK (k < 1, or k >= N when the
// graph is built), ErrEps (eps not finite and positive), ErrTooFewRows (fewer
// than two points), ErrEdge (New with a bad edge), distance.ErrEmpty and
// distance.ErrNonFinite (NaN/Inf in X, with its position), and ctx.Err().
package graph
