// Package clustering is agglomerative clustering from one plain Settings
// value, as `arbor cluster` runs it: it chooses among the ways of building
// the tree of the rows of X (package hclust) and says beforehand what each
// costs in memory.
//
// # Paths
//
// With Euclidean distances (the default) the tree comes straight from the
// points (hclust.FromPoints: SciPy's tree, bit for bit, from an N×N working
// matrix; none for single linkage). With Distance "graph" it is built from
// the geodesic distances on a neighbourhood graph (graph.Geodesic, with the
// components joined by paper 000 Eq. 4), an N×N matrix of its own.
//
// Float32 holds the linkage's N×N working matrix in float32
// (hclust.FromPoints32, hclust.LinkageSym32): half the memory; distances and
// updates are computed in float64 and rounded once, so heights agree within
// a few 2⁻²⁴ relative and the tree is the same unless two candidate
// distances are that close.
//
// When the matrix path exceeds Budget, Euclidean distances on every row
// take a path without the N×N matrix: single, Ward, centroid and median
// linkage run on the points in O(N·d) memory (hclust.FromPointsLowMemory);
// complete, average and weighted linkage find the clusters of the exact tree
// certified on the 40-NN graph (hclust.ExactCells) and link those K clusters
// from their exact distances (hclust.FromPointsCells), in O(N·k + K²) memory
// (K² is checked against Budget once K is known). Both give SciPy's tree with
// heights within a few ulps, except where distances tie and rounding breaks
// the tie otherwise.
//
// With Landmarks M the tree is built on M rows chosen by landmark.Choose
// (Euclidean distances among them, or geodesics on the graph of all rows
// from the landmarks only, symmetrised 0.5·(G_ab + G_ba)), and every row
// takes the cluster of its nearest landmark (Euclidean, ties to the lower
// landmark): O(M²) memory for the tree, O(N·M·d) time for the labels.
//
// Cophenetic adds the cophenetic correlation of the tree against the
// distances it was built from: from a condensed matrix on the matrix path
// (O(N²) memory), from rows of distances made on the fly on the float32 and
// low-memory paths (O(N) memory).
//
// # Cost
//
// Settings.Cost(n, d) predicts the peak bytes of the path Fit will take
// before anything is allocated; Fit returns a *MemoryError (wrapping
// ErrMemory) instead of exceeding Budget.
//
// # Reports and files
//
// What arbor cluster prints and writes is a library call too:
// Result.WriteSummary and WriteClusters print the summary, Settings.Advice
// and LowMemoryNotice say what fits the memory budget (in the command's
// flags), and Outputs.Write writes the labels, linkage matrix, Newick tree,
// dendrogram and plot of the clusters, all of them or none.
//
// # Errors
//
// ErrSettings for invalid settings, ErrMemory (as *MemoryError), and the
// errors of the packages doing the work: distance.ErrNonFinite, graph.ErrSpec,
// hclust.ErrK, landmark.ErrBadParam, ctx.Err(). Outputs.Write returns
// ErrNoCut for a plot without a cut, an ErrOutput for plot features the
// data do not have and a *PlotError for rows it cannot project.
package clustering
