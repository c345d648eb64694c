// Package hclust is agglomerative (hierarchical) clustering: single,
// complete, average, weighted, Ward, centroid and median linkage, giving a
// Tree (dendrogram) equal to scipy.cluster.hierarchy.linkage, with its
// cophenetic (ultrametric) matrix, flat cuts, leaf order and Newick export.
//
// # Clustering
//
// Starting from singletons, the two closest clusters merge until one is
// left (paper 000, Bodó 2008, §3.1). The cluster distance D(C1, C2) is the
// Method: single (eq. 1), complete (eq. 2), average (eq. 3), weighted, Ward,
// centroid or median, applied through Lance–Williams updates (see Method).
//
// Linkage takes a condensed distance matrix (distance.Condensed, SciPy's
// pdist layout); FromPoints takes points and the Euclidean distance. Both
// return the same rows as SciPy: leaves are ids 0..N−1, merge i creates id
// N+i, each row lists the smaller id first, rows are ordered by height
// (stable, in discovery order) and heights agree to the last bit on amd64.
// Ties are broken as SciPy 1.10 breaks them, because the same algorithms
// scan the data in the same order (the fixtures include iris, which has
// duplicate points, an integer grid and all-equal distances, and match row
// for row). "Up to ties" therefore only matters when the input distances
// differ in their last bits (e.g. computed another way), which can swap
// nearly equal merges; and where SciPy's Ward, centroid or median update
// takes the square root of a rounding-error negative (NaN in SciPy), it is
// taken as 0 here.
//
// # Flat clusters
//
// Tree.Cut cuts by any of SciPy's fcluster criteria (maxclust, distance,
// inconsistent, maxclust_monocrit, monocrit; the fixtures check every one,
// with tied heights and inversions, partition for partition) or by
// NClusters, which always gives exactly k clusters (CutK), also where tied
// heights make maxclust give fewer. Inconsistency, MaxDists and
// MaxInconsistency are SciPy's inconsistent, maxdists and maxinconsts, bit
// for bit. Labels are numbered by each cluster's smallest leaf.
//
// # Algorithms and cost (n observations)
//
//	Single                       SLINK (Prim if heights tie)  O(n²) time   O(n) extra (Prim: n²/2; FromPoints: O(n))
//	Complete, Average,
//	Weighted, Ward               nearest-neighbour chain      O(n²) time   n² floats (3.2 GB at n = 20 000)
//	Centroid, Median             Müllner's generic            O(n²)…O(n³)  n² floats
//	FromPointsLowMemory:
//	Ward                         chain on centroids           O(n²d) time  O(n·d)
//	Centroid, Median             generic on centroids         O(n²d)…      O(n·d)
//
// Single linkage from a condensed matrix runs SLINK (Sibson 1973) in one
// sequential pass; its dendrogram is unique, hence equal to SciPy's,
// whenever no two merge heights tie, and tied inputs are re-run with Prim's
// algorithm from observation 0, which is SciPy's, so that equal merges come
// out in SciPy's order. FromPoints uses Prim with distances computed on the
// fly.
//
// The chain works on a full square matrix so that every scan reads one
// contiguous row; merges rewrite only the merged row, and a stale column
// entry is refreshed from its row when (and only if) the row holding it is
// scanned again, which removes most strided memory traffic; the matrix is
// compacted whenever half of its rows are dead. Filling the matrix (a
// cache-blocked transpose of the condensed input, or the distances of
// FromPoints), Ultrametric and Cophenetic run on GOMAXPROCS goroutines,
// split by rows with every entry written by exactly one goroutine, so
// results are identical for any GOMAXPROCS. The chain itself is serial: its
// steps take microseconds, and handing them to a second core lost more to
// synchronisation on a busy machine than it gained.
//
// # Without the matrix
//
// FromPointsLowMemory clusters points for Ward, centroid and median
// linkage in O(n·d) memory, as fastcluster's linkage_vector does
// (Müllner 2013, J. Stat. Softw. 53(9), §2): these linkages depend on
// clusters only through their centroids c and sizes, and
//
//	Ward      D(A,B) = sqrt(2|A||B|/(|A|+|B|)) · ‖c_A − c_B‖
//	Centroid  D(A,B) = ‖c_A − c_B‖           (c of a union: size-weighted mean)
//	Median    D(A,B) = ‖c_A − c_B‖           (c of a union: midpoint)
//
// equal the Lance–Williams recurrences of Method on Euclidean leaf
// distances (SciPy's heights). The nearest-neighbour chain (Ward) and the
// generic algorithm (centroid, median) run as on the matrix, with every
// distance computed from two centroids when needed (‖c_A − c_B‖² summed
// from coordinate differences, never through norms); a chain step scans
// all live centroids, O(live·d), in fixed blocks on GOMAXPROCS goroutines
// reduced in block order. The tree is FromPoints's with heights within a
// few ulps, except where two candidate distances are within rounding of
// each other. At n = 20 000, d = 16 it needs 2.6 MB for the centroids
// instead of FromPoints's 3.2 GB matrix, and it ran in half FromPoints's
// CPU time there (no 3.2 GB to fill and scan; bench/wardvec); in high
// dimension it computes about three times as many distances as
// FromPoints (every chain step recomputes a row). It is the call for a
// Ward tree on more points than an n×n matrix allows (arbor cluster falls
// back to it; a landmark tree on many landmarks can use it too).
//
// Complete, average and weighted linkage cannot be computed from
// centroids; for them ExactCells finds clusters of the exact tree without
// the matrix. The linkages are reducible, so two clusters that are each
// other's nearest neighbours among all clusters are merged by the exact
// tree (the argument behind the nearest-neighbour chain). On the k-NN
// graph of the points a row's k-th neighbour distance bounds every pair
// its list lacks, so a pair of clusters A, B at h whose nearest listed
// clusters are each other, with h ≤ min over their rows of that radius,
// is certified; rounds merge every certified pair (distances between
// clusters computed exactly from the points: max, mean, and WPGMA's mean
// weighted by 2^−depth) until none is left. FromPointsCells then links the
// K clusters from their exact set-to-set distances (one O(n²·d) pass, K×K
// memory), which gives the exact tree (up to the order of equal heights).
// ExactCellsKnown does the same for a dissimilarity known on some pairs
// only (geodesics from truncated searches: an unknown pair counts at its
// lower bound), and FromRowsCells links cells of any dissimilarity given
// row by row (a shortest-path search per row). With any other partition,
// FromPointsCells is the exact linkage constrained to merge each cell
// first. On UCI letter (n = 20 000, d = 16) average linkage certifies
// 3,205 clusters: an 82 MB matrix instead of 3.2 GB (bench/exactcells).
//
// # Float32 storage
//
// FromPoints32 and LinkageSym32 hold the working matrix in float32: 4n²
// bytes (1.6 GB at n = 20 000). Distances are computed in float64 and
// rounded once; each Lance–Williams update is computed in float64 from the
// stored values and rounded once, so a height carries a relative error of
// a few 2⁻²⁴ (at most 2.6·2⁻²⁴ on the SciPy fixtures). Where no two
// candidate distances are that close the tree is SciPy's (merges, sizes,
// leaf order; TestFloat32Fixtures). Data with decimal coordinates (iris)
// have float64 distances that differ by 10⁻¹⁶ where the exact ones tie;
// float32 makes them tie exactly, ties go to the lower index, and the tree
// can differ from SciPy's, whose choice there is rounding noise.
//
// # The tree
//
// Ultrametric fills the cophenetic matrix M (M_ij = height of the lowest
// common ancestor of i and j; paper 000 §3.2, Definition 1) row by row in
// O(N) per row, walking from each leaf to the root and assigning each
// ancestor's height to the sibling subtree, whose leaves are one contiguous
// run of the leaf order. M is ultrametric for the monotone methods; paper
// 000 §3.4 turns it into the kernel −½JMJ (package kernel). Cophenetic gives
// the same values in condensed form (scipy cophenet).
//
// The cophenetic correlation (the first value of scipy cophenet(Z, Y)) has
// three routes. CopheneticCorrelation reads a condensed matrix;
// CopheneticCorrelationRows takes distances a row at a time;
// CopheneticCorrelationPoints computes Euclidean distances on the fly with
// the points in leaf order, where merge k fixes the cophenetic distance of
// the rectangle of its children's runs. FromPointsCophenetic builds the
// tree and its correlation together: for average linkage every merge
// height is the mean distance of the pairs it joins, so cov(C, D) =
// var(C) and the correlation is σ_C/σ_D, from the merges and the sums of
// the distances taken while the working matrix is filled (no second pass
// over the pairs). CutK and CutHeight
// give flat clusters (scipy fcluster "maxclust" and "distance"), labelled
// 0..k−1 by smallest member leaf; Leaves is scipy leaves_list; Newick writes
// the tree with branch lengths parent height − child height.
//
// # Errors
//
// ErrMethod (unknown method), ErrTooFewRows (n < 2), ErrShape (condensed length
// not n(n−1)/2, empty points), ErrNonFinite (NaN/±Inf distance or
// coordinate, overflowing update), ErrNegative (negative distance), ErrK
// (k outside 1..n), ErrTree (invalid linkage matrix); all wrap with the
// offending position. Long calls return ctx.Err() when cancelled.
package hclust
