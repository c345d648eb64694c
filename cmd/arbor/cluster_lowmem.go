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
// not fit the memory budget; complete, average and weighted on clusters of
// the exact tree certified on the 40-NN graph (hclust.ExactCells, then
// hclust.FromPointsCells: O(N·k + K²) memory for K clusters, the same tree
// unless distances tie); the cophenetic correlation is computed from
// distances made on the fly (Tree.CopheneticCorrelationRows).

const clusterLinkageUsage = "single, complete, average, weighted, ward, centroid or median; when the N×N matrix does not fit --max-memory, single, ward, centroid and median switch to an O(N·d)-memory algorithm on the points, and complete, average and weighted to the exact tree on clusters certified on the 40-NN graph (O(N·k + K²) memory for K clusters) — no N×N matrix; heights within a few ulps of the matrix path's, the same tree unless two candidate distances tie within rounding"

// exactCellsNeighbors is the neighbour count of hclust.ExactCells for
// cluster's complete, average and weighted linkage without the matrix.
const exactCellsNeighbors = 40

// cellsLinkage reports whether m takes the exact-cells path.
func cellsLinkage(m hclust.Method) bool {
	return m == hclust.Complete || m == hclust.Average || m == hclust.Weighted
}

// lowMemoryLinkage reports whether m has a path without the N×N matrix:
// every linkage has one (cellsLinkage: O(N·k + K²)).
func lowMemoryLinkage(m hclust.Method) bool {
	return m == hclust.Single || m == hclust.Ward || m == hclust.Centroid || m == hclust.Median || cellsLinkage(m)
}

// clusterBytesLow estimates the low-memory path: a working copy of the
// points (the centroids) and O(N) bookkeeping, the tree and its layout;
// for the exact cells, the kNN lists and their symmetric union
// (K² is checked once K is known).
func clusterBytesLow(n, dim int, m hclust.Method) float64 {
	b := 8 * float64(n) * float64(dim+24)
	if cellsLinkage(m) {
		// neighbour lists (int32 + float64) and their symmetric union (int32)
		b += 20 * float64(n) * float64(min(exactCellsNeighbors, n-1))
	}
	return b
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
// Complete, average and weighted first find the clusters of the exact
// tree (hclust.ExactCells), then ask check whether the K×K matrix of the
// tree on them fits.
func clusterTreeLowMemory(ctx context.Context, X *mat.Dense, m hclust.Method, cophenetic bool, progress func(string, int, int), check func(need float64, what string) error) (*hclust.Tree, float64, error) {
	var tree *hclust.Tree
	var err error
	if cellsLinkage(m) {
		if progress != nil {
			progress("clusters of the exact tree on the 40-NN graph", 0, 0)
		}
		cells, K, e := hclust.ExactCells(ctx, X, m, exactCellsNeighbors)
		if e != nil {
			return nil, 0, e
		}
		n, d := X.Dims()
		if e := check(8*float64(K)*float64(K)+clusterBytesLow(n, d, m), fmt.Sprintf("the %s tree on %d clusters of the exact tree", m, K)); e != nil {
			return nil, 0, e
		}
		if progress != nil {
			progress(fmt.Sprintf("%s linkage of %d clusters", m, K), 0, 0)
		}
		tree, err = hclust.FromPointsCells(ctx, X, cells, K, m)
	} else {
		tree, err = hclust.FromPointsLowMemory(ctx, X, m, progress)
	}
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

// lowMemoryMethodNote says how the low-memory path of m works.
func lowMemoryMethodNote(m hclust.Method) string {
	if cellsLinkage(m) {
		return "clustering in O(N·k + K²) memory instead (hclust.ExactCells: clusters of the exact tree certified on the 40-NN graph, then the linkage of those K clusters from their exact distances: SciPy's tree with heights within a few ulps, except where distances tie and the tie is broken otherwise)"
	}
	return "clustering the points in O(N·d) memory instead (hclust.FromPointsLowMemory: SciPy's tree with heights within a few ulps, except where distances tie and rounding breaks the tie otherwise)"
}

// lowMemoryNotice is the stderr line of a run that took the O(N·d) path.
func lowMemoryNotice(m hclust.Method, need float64, mf memFlags) string {
	b, src, _ := mf.budget()
	return fmt.Sprintf("%s linkage: the N×N matrix needs about %s, more than the budget of %s (%s); %s",
		m, humanBytes(need), humanBytes(float64(b)), src, lowMemoryMethodNote(m))
}
