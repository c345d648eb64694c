// Package distance computes pairwise dissimilarities between points.
//
// The rows of an n×d matrix X are points. Euclidean returns
//
//	d(i, j) = sqrt( Σ_k (X_ik − X_jk)² )
//
// for every pair i < j in SciPy's condensed layout (Condensed: the strict
// upper triangle in row-major order, as scipy.spatial.distance.pdist and
// squareform), SqEuclidean the same without the square root, and Cross the
// rectangular matrix between the rows of two matrices (scipy cdist).
//
// Accuracy: distances are computed from exact coordinate differences,
// summed in index order exactly as SciPy does (not with the Gram trick
// ||x||² + ||y||² − 2x·y, which loses relative accuracy for close points),
// so results equal SciPy's bit for bit on amd64.
//
// Parallelism: rows are handed out in small blocks to
// runtime.GOMAXPROCS(0) goroutines (ParallelRows); each entry is written by
// exactly one goroutine with a fixed summation order, so results are
// identical for any GOMAXPROCS.
//
// Complexity: O(n²d) time, n(n−1)/2 values of memory for the condensed
// forms, n·m for Cross.
//
// Errors: ErrEmpty (no rows), ErrNonFinite (a NaN or ±Inf entry; the message
// names row and column), ErrShape (CrossErr with mismatched columns or
// destination), and ctx.Err() when the context is cancelled.
package distance
