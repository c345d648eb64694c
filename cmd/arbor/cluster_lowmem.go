package main

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// cluster without the N×N matrix: single, ward, centroid and median on
// Euclidean distances run on the points in O(N·d) memory
// (hclust.FromPointsLowMemory) when the matrix path (SciPy bit-exact) does
// not fit the memory budget, and the cophenetic correlation is computed
// from distances made on the fly (Tree.CopheneticCorrelationRows).

const clusterLinkageUsage = "single, complete, average, weighted, ward, centroid or median; single, ward, centroid and median switch to an O(N·d)-memory algorithm on the points (no N×N matrix; heights within a few ulps of the matrix path's, the same tree unless two candidate distances tie within rounding) when the N×N matrix does not fit --max-memory"

// lowMemoryLinkage reports whether m has an O(N·d)-memory path on points.
func lowMemoryLinkage(m hclust.Method) bool {
	return m == hclust.Single || m == hclust.Ward || m == hclust.Centroid || m == hclust.Median
}

// clusterBytesLow estimates the low-memory path: a working copy of the
// points (the centroids) and O(N) bookkeeping, the tree and its layout.
func clusterBytesLow(n, dim int) float64 {
	return 8 * float64(n) * float64(dim+24)
}

// clusterLowMemory reports whether cluster should take the O(N·d) path:
// Euclidean distances on all rows, a method that has it, and a matrix
// path (need bytes) over the budget.
func (m memFlags) clusterLowMemory(need float64, meth hclust.Method, dist string, landmarks int) bool {
	if landmarks > 0 || dist != "euclidean" || !lowMemoryLinkage(meth) {
		return false
	}
	b, _, err := m.budget()
	return err == nil && b > 0 && need > float64(b)
}

// clusterTreeLowMemory builds the tree of the rows of X in O(N·d) memory
// and, if cophenetic, the cophenetic correlation against Euclidean
// distances computed row by row.
func clusterTreeLowMemory(ctx context.Context, X *mat.Dense, m hclust.Method, cophenetic bool, progress func(string, int, int)) (*hclust.Tree, float64, error) {
	tree, err := hclust.FromPointsLowMemory(ctx, X, m, progress)
	if err != nil || !cophenetic {
		return tree, 0, err
	}
	if progress != nil {
		progress("cophenetic correlation", 0, 0)
	}
	n := X.RawMatrix().Rows
	ccc, err := tree.CopheneticCorrelationRows(ctx, func(i int, row []float64) {
		xi := X.RawRowView(i)
		for j := i + 1; j < n; j++ {
			row[j] = distance.Dist(xi, X.RawRowView(j))
		}
	})
	return tree, ccc, err
}

// lowMemoryHint names the linkages that need no N×N matrix, for the
// memory error of one that does (Euclidean distances on all rows).
func lowMemoryHint(m hclust.Method, dist string, landmarks int) string {
	if landmarks > 0 || dist != "euclidean" || lowMemoryLinkage(m) {
		return ""
	}
	return "--linkage ward, centroid, median or single need no N×N matrix"
}

// lowMemoryNotice is the stderr line of a run that took the O(N·d) path.
func lowMemoryNotice(m hclust.Method, need float64, mf memFlags) string {
	b, src, _ := mf.budget()
	return fmt.Sprintf("%s linkage: the N×N matrix needs about %s, more than the budget of %s (%s); clustering the points in O(N·d) memory instead (hclust.FromPointsLowMemory: SciPy's tree with heights within a few ulps, except where distances tie and rounding breaks the tie otherwise)",
		m, humanBytes(need), humanBytes(float64(b)), src)
}
