// Package neighbors is Arbor's one exact k-nearest-neighbour search over the
// rows of a row-major N×d matrix of finite points, under the squared
// Euclidean distance computed exactly as distance.SqDist (one accumulator,
// index order, no fused multiply-add).
//
// # Order and ties
//
// Points are ranked by the pair (d², index) ascending: on equal squared
// distance the lower row index wins. The k nearest are the first k pairs in
// that order, so the answer is a function of the data alone, the same as a
// brute-force scan that keeps the k smallest pairs, whichever search path
// (tree or brute force), block size or GOMAXPROCS computes it. This is the
// rule graph.KNN, propagate's kNN affinity and svcluster's kNN labelling have
// always used; they now call this package.
//
// # Search paths
//
// For d <= MaxTreeDim the index is a k-d tree (median split on the widest
// side of each node's bounding box, leaves of at most leafSize points, the
// points copied in tree order so that a leaf is one contiguous block). A
// query visits the nearer child first and the farther one unless the
// incremental lower bound rd of Arya & Mount (squared gaps to the split
// planes crossed, updated in O(1) per node) exceeds the current k-th
// squared distance by more than a relative margin far above its rounding
// error (see margin). Pruning is therefore exact, not approximate. A leaf's
// points are scanned four at a time, each distance summed as SqDist. (A
// tight bounding-box test at each far child prunes about 15 % more points
// but, reading one more block of memory per node, made 10⁶ points in
// d = 10 about 1.4× slower; it was dropped.) All (every indexed point as a
// query) runs the queries in tree order, so consecutive queries share most
// of the leaves they read. Build O(N log N · d), query about O(log N) for
// small d and clustered data (growing towards d = 20 on data of high
// intrinsic dimension), memory O(N·d) for the reordered copy.
//
// Above MaxTreeDim a blocked brute force scans blocks of points against
// blocks of queries (cache reuse), abandoning a candidate once its partial
// sum exceeds the current k-th distance: O(N²d) time, O(N·k) memory.
//
// Queries run in parallel (internal/parallel); each writes only its own
// output rows, so results are bit-identical for any GOMAXPROCS.
package neighbors
