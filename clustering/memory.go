package clustering

import (
	"errors"
	"fmt"

	"github.com/arbor-ml/arbor/hclust"
)

// ErrMemory is wrapped by the error of a run that does not fit the budget.
var ErrMemory = errors.New("clustering: not enough memory")

// MemoryError is a run that would need Bytes, more than Budget, for What.
type MemoryError struct {
	Bytes  float64 // the bytes the run needs
	Budget int64   // Settings.Budget
	What   string  // what needs them, such as "clustering 5000 rows"
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("clustering: %s needs about %.0f bytes, more than the budget of %d", e.What, e.Bytes, e.Budget)
}

func (e *MemoryError) Unwrap() error { return ErrMemory }

// Cost is the memory a Fit of n rows with d features needs, predicted
// before any of it is allocated.
type Cost struct {
	// Bytes is the peak of the path Fit takes.
	Bytes float64
	// Matrix is the peak of the path with the N×N (or, with landmarks,
	// M×M) matrix, float32 with Settings.Float32: Bytes unless LowMemory.
	Matrix float64
	// Float32 is the peak of the float32 path on every row, an
	// alternative when the float64 matrix does not fit.
	Float32 float64
	// LowMemory reports that the matrix path exceeds the budget and Fit
	// clusters without the N×N matrix.
	LowMemory bool
	// Float32Dropped reports that Settings.Float32 asked for a matrix that
	// exceeds the budget on a linkage (complete, average, weighted) whose
	// path without the matrix is known to fit only once the clusters of
	// the exact tree are found: Fit keeps the float32 matrix path.
	Float32Dropped bool
}

// exactCellsNeighbors is the neighbour count of hclust.ExactCells on the
// path without the matrix for complete, average and weighted linkage.
const exactCellsNeighbors = 40

// cellsLinkage reports whether m takes the exact-cells path.
func cellsLinkage(m hclust.Method) bool {
	return m == hclust.Complete || m == hclust.Average || m == hclust.Weighted
}

// Cost returns the memory Fit needs for n rows of d features.
//
// Euclidean distances: the linkage's N×N working matrix; the cophenetic
// correlation adds O(N·d) (it comes with average linkage's merges, and
// from the points in leaf order otherwise). Single linkage, Prim's
// algorithm on the points, is counted at 4N²: a budget below that takes
// hclust.FromPointsLowMemory. Graph: the geodesic N×N
// matrix, its condensed copy and the working matrix. With landmarks, the
// same on M rows.
func (s Settings) Cost(n, d int) (Cost, error) {
	if err := s.validate(); err != nil {
		return Cost{}, err
	}
	graphDist := s.Distance == Graph
	nf := float64(n)
	need := 8 * nf * nf
	if s.Linkage == hclust.Single {
		need = 4 * nf * nf
	}
	if graphDist {
		need = 20 * nf * nf
	}
	if s.Landmarks > 0 {
		need = need * float64(s.Landmarks) * float64(s.Landmarks) / (nf * nf)
	}
	c := Cost{Float32: bytes32(n, d, s.Linkage, graphDist)}
	if s.Float32 {
		need = c.Float32
	}
	c.Matrix, c.Bytes = need, need
	low := s.Budget > 0 && need > float64(s.Budget) && s.Landmarks == 0 && !graphDist
	if low && s.Float32 && cellsLinkage(s.Linkage) {
		low, c.Float32Dropped = false, true
	}
	if low {
		c.LowMemory, c.Bytes = true, bytesLow(n, d, s.Linkage)
	}
	return c, nil
}

// bytes32 estimates the float32 path: the float32 working matrix (4N²;
// none for single linkage on Euclidean distances, which runs on the
// points), plus the float64 geodesic matrix for graph distances.
func bytes32(n, dim int, m hclust.Method, graphDist bool) float64 {
	nf := float64(n)
	if graphDist {
		return 12 * nf * nf
	}
	if m == hclust.Single {
		return 8 * nf * float64(dim+8)
	}
	return 4 * nf * nf
}

// bytesLow estimates the path without the matrix: a working copy of the
// points (the centroids) and O(N) bookkeeping, the tree and its layout;
// for the exact cells, the kNN lists (int32 + float64) and their
// symmetric union (int32); the K² of the cells is checked once K is known.
func bytesLow(n, dim int, m hclust.Method) float64 {
	b := 8 * float64(n) * float64(dim+24)
	if cellsLinkage(m) {
		b += 20 * float64(n) * float64(min(exactCellsNeighbors, n-1))
	}
	return b
}

// LowMemoryNote says how the path without the N×N matrix works for m.
func LowMemoryNote(m hclust.Method) string {
	if cellsLinkage(m) {
		return "clustering in O(N·k + K²) memory instead (hclust.ExactCells: clusters of the exact tree certified on the 40-NN graph, then the linkage of those K clusters from their exact distances: SciPy's tree with heights within a few ulps, except where distances tie and the tie is broken otherwise)"
	}
	return "clustering the points in O(N·d) memory instead (hclust.FromPointsLowMemory: SciPy's tree with heights within a few ulps, except where distances tie and rounding breaks the tie otherwise)"
}
