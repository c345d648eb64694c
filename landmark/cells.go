package landmark

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// CellsAllRowsMaxN is the largest N for which newNystromCells is used for
// the landmark complete, average, weighted and Ward cluster kernels: its
// pairwise pass over all rows is O(N²·d) time (about 1 s at N = 20,000,
// d = 16 on two cores) in O(N·d + M²) memory. Above it the tree is built
// on the landmarks alone (newNystromHCK).
const CellsAllRowsMaxN = 100000

// ExactCellsNeighbors is the neighbour count of hclust.ExactCells in
// newNystromCells: on UCI letter (20,000 rows) k = 40 certifies clusters
// of 4–6 rows (3,205 cells for average linkage, 4,903 for complete).
const ExactCellsNeighbors = 40

// exactCellsK is ExactCellsNeighbors; tests lower it to reach the
// landmarks' cells on small data.
var exactCellsK = ExactCellsNeighbors

// newNystromCells fits the landmark cluster kernel of h (Euclidean;
// complete, average, weighted or Ward linkage) on a tree of ALL rows of X
// instead of the landmarks alone, and returns it with the N×r features of
// the rows of X.
//
// For Ward the tree is the exact Ward tree of all rows
// (hclust.FromPointsLowMemory: the chain on centroids and sizes, O(N·d)
// memory), so the kernel is the exact one restricted to the landmarks, as
// for single linkage. For complete, average and weighted linkage
// hclust.ExactCells finds clusters of the exact tree without the N×N
// matrix (reciprocal nearest neighbours certified on the 40-NN graph);
// when there are K of them with K² ≤ N·M (the memory of the features),
// hclust.FromPointsCells on them is the exact tree of all rows (up to the
// order of equal heights: with tied distances another tie order is
// another exact tree), and the kernel is again the exact one restricted
// to the landmarks. Otherwise every row joins the cell of its nearest
// landmark (ties to the lower landmark; a landmark its own cell), and
// FromPointsCells gives the exact linkage of all rows under the one
// constraint that a landmark's cell joins itself first (an
// approximation; newNystromHCK's tree sees only the landmarks: a cell of
// 50 rows weighs as much as a cell of one, and a complete-linkage height
// ignores every row but the landmarks).
//
// The kernel is then built as newNystromSingle builds it from the tree of
// all rows (the landmark kernel is the tree's, restricted to the
// landmarks; every training row gets its exact row against them), and a
// new point enters the landmark tree through its nearest landmark.
//
// Cost: O(N·M·d) for the cells, O(N²·d) for the tree's pairwise pass (Ward:
// O(N²·d) for its chain), then as newNystromSingle; memory O(N·d + M²) besides the N×r features
// (trainCells: O(N) grafts instead).
// Errors: ErrEmpty, ErrNonFinite, ErrBadParam (a graph h, single linkage
// — use newNystromSingle —, fewer than 2 landmarks), hclust's, ctx.Err().
func newNystromCells(ctx context.Context, X mat.Matrix, h kernel.HCK, landmarks []int, rcond float64) (*Nystrom, *mat.Dense, error) {
	ny, t, err := trainCells(ctx, X, h, landmarks, rcond)
	return withAll(ctx, ny, t, err)
}

// trainCells is newNystromCells with the features as a Training.
func trainCells(ctx context.Context, X mat.Matrix, h kernel.HCK, landmarks []int, rcond float64) (*Nystrom, *Training, error) {
	switch {
	case h.Graph != nil:
		return nil, nil, fmt.Errorf("%w: newNystromCells is for Euclidean trees, not hckg", kernel.ErrBadParam)
	case h.Method == hclust.Single:
		return nil, nil, fmt.Errorf("%w: newNystromCells: single linkage has the exact tree (newNystromSingle)", kernel.ErrBadParam)
	}
	lm, n, m, err := fullTreeLandmarks(X, landmarks)
	if err != nil {
		return nil, nil, err
	}
	var full *hclust.Tree
	if h.Method == hclust.Ward {
		// Ward needs no distance matrix: the exact tree of all rows.
		if full, err = hclust.FromPointsLowMemory(ctx, X, hclust.Ward, nil); err != nil {
			return nil, nil, fmt.Errorf("landmark: hck:ward: %w", err)
		}
	} else {
		// Clusters of the exact tree, certified on the kNN graph; if they
		// are few enough (K² ≤ N·M: the memory of the features), the tree
		// on them is the exact tree of all rows.
		cells, K, err := hclust.ExactCells(ctx, X, h.Method, exactCellsK)
		if err != nil {
			return nil, nil, fmt.Errorf("landmark: hck:%v: %w", h.Method, err)
		}
		if float64(K)*float64(K) > float64(n)*float64(m) {
			// too many: the landmarks' cells (an approximation)
			if cells, err = nearestLandmark(ctx, X, lm, landmarks); err != nil {
				return nil, nil, err
			}
			K = m
			if cellsTooLarge(X, cells, K) {
				// a cell's own linkage would not fit: the tree on the
				// landmarks alone
				ny, err := newNystromHCK(ctx, X, h, landmarks, rcond)
				if err != nil {
					return nil, nil, err
				}
				return ny, featureTraining(ny, X), nil
			}
		}
		if full, err = hclust.FromPointsCells(ctx, X, cells, K, h.Method); err != nil {
			return nil, nil, fmt.Errorf("landmark: hck:%v on cells: %w", h.Method, err)
		}
	}
	return nystromFromFullTree(ctx, lm, n, full, h, landmarks, rcond, nil)
}

// cellsTooLarge reports whether a cell of k holds more than
// hclust.CellsMaxSize rows that are not all identical (its own linkage
// would need more than the cells' memory).
func cellsTooLarge(X mat.Matrix, cells []int, k int) bool {
	size := make([]int, k)
	for _, c := range cells {
		size[c]++
	}
	first := make([][]float64, k)
	for i, c := range cells {
		if size[c] <= hclust.CellsMaxSize {
			continue
		}
		row := mat.Row(nil, i, X)
		if first[c] == nil {
			first[c] = row
		} else if !slices.Equal(row, first[c]) {
			return true
		}
	}
	return false
}

// nearestLandmark returns, for every row of X, the position in landmarks
// of its nearest landmark (Euclidean; ties to the lower position); the
// landmark rows themselves get their own position.
func nearestLandmark(ctx context.Context, X mat.Matrix, lm *mat.Dense, landmarks []int) ([]int, error) {
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	m, d := lm.Dims()
	L := lm.RawMatrix()
	cells := make([]int, x.n)
	err = parallel.Chunks(ctx, x.n, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := x.row(i)
			best, bi := math.Inf(1), 0
			for c := 0; c < m; c++ {
				var s float64
				for j, v := range L.Data[c*L.Stride : c*L.Stride+d] {
					t := xi[j] - v
					s += t * t
				}
				if s < best {
					best, bi = s, c
				}
			}
			cells[i] = bi
		}
	})
	if err != nil {
		return nil, err
	}
	for c, i := range landmarks {
		cells[i] = c
	}
	return cells, nil
}

// GraphCellsAllRowsMaxN is the largest N for which the landmark hckg
// kernels of complete, average and weighted linkage use the tree of all
// rows on the landmarks' cells (graphCellsTree): one shortest-path search
// from every row, O(N·(E + N)·log N) time (about a minute at N = 20,000 on
// a 7-NN graph, two cores) in O(N + M²) memory. Above it the tree is
// built on the geodesics among the landmarks alone.
const GraphCellsAllRowsMaxN = 50000

// graphCellsLimit is GraphCellsAllRowsMaxN; tests lower it to reach the
// landmarks-only tree on small data.
var graphCellsLimit = GraphCellsAllRowsMaxN

// graphCellsMethod reports whether graphCellsTree serves linkage m
// (single linkage has its exact tree of all rows instead).
func graphCellsMethod(m hclust.Method) bool {
	switch m {
	case hclust.Complete, hclust.Average, hclust.Weighted:
		return true
	}
	return false
}

// graphCellsTree is hclust.FromRowsCells on the geodesics of g, one
// search from every row. The cells are clusters of the exact tree when
// hclust.ExactCellsKnown finds few enough (K² ≤ N·M) from the
// ExactCellsNeighbors nearest nodes of every row by geodesic
// (graph.Searcher.Nearest; a pair found from both sides gets the mean of
// its two lengths, as ShortestPaths symmetrises): the tree is then the
// exact one. Otherwise every row joins the cell of its nearest landmark by
// geodesic (geo: the M×N distances from the landmarks; ties to the lower
// landmark, a landmark its own cell); if one of those holds more than
// hclust.CellsMaxSize rows it returns a nil tree (the caller builds the
// tree on the landmarks alone).
func graphCellsTree(ctx context.Context, g *graph.Graph, geo *mat.Dense, landmarks []int, m hclust.Method) (*hclust.Tree, error) {
	M, n := geo.Dims()
	workers := runtime.GOMAXPROCS(0)
	search := make([]graph.Searcher, workers)
	cells, K, err := exactGraphCells(ctx, g, m, search)
	if err != nil {
		return nil, err
	}
	if cells == nil || float64(K)*float64(K) > float64(n)*float64(M) {
		cells, K = make([]int, n), M
		best := make([]float64, n)
		for i := range best {
			best[i] = math.Inf(1)
		}
		for c := 0; c < M; c++ {
			for i, v := range geo.RawRowView(c) {
				if v < best[i] {
					best[i], cells[i] = v, c
				}
			}
		}
		for c, i := range landmarks {
			cells[i] = c
		}
		size := make([]int, K)
		for _, c := range cells {
			if size[c]++; size[c] > hclust.CellsMaxSize {
				return nil, nil // a cell's own linkage would not fit
			}
		}
	}
	return hclust.FromRowsCells(ctx, n, cells, K, m, workers, func(w, i int, out []float64) {
		search[w].From(g, i, out)
	})
}

// exactGraphCells is hclust.ExactCellsKnown on the geodesics of g known
// from the ExactCellsNeighbors nearest nodes of every row; nil cells when g
// has too few nodes for that many neighbours.
func exactGraphCells(ctx context.Context, g *graph.Graph, m hclust.Method, search []graph.Searcher) ([]int, int, error) {
	n, k := g.N(), exactCellsK
	if k >= n {
		return nil, 0, nil
	}
	nodes := make([]int32, n*k)
	lengths := make([]float64, n*k)
	count := make([]int, n)
	err := parallel.ForWorkers(ctx, n, len(search), func(w, i int) {
		nb, _ := search[w].Nearest(g, i, k, nodes[i*k:i*k:i*k+k], lengths[i*k:i*k:i*k+k])
		count[i] = len(nb)
	})
	if err != nil {
		return nil, 0, err
	}
	radius := make([]float64, n)
	type pair struct {
		j int32
		v float64
	}
	known := make([][]pair, n)
	for i := 0; i < n; i++ {
		c := count[i]
		if c < k {
			// the whole component is known: no other node is a candidate
			radius[i] = math.Inf(1)
		} else {
			radius[i] = lengths[i*k+k-1]
		}
		for r := 0; r < c; r++ {
			j, v := nodes[i*k+r], lengths[i*k+r]
			known[i] = append(known[i], pair{j, v})
			known[j] = append(known[j], pair{int32(i), v})
		}
	}
	ptr := make([]int, n+1)
	adj := make([]int32, 0, 2*n*k)
	w := make([]float64, 0, 2*n*k)
	for i, ps := range known {
		slices.SortStableFunc(ps, func(a, b pair) int { return cmp.Compare(a.j, b.j) })
		for q := 0; q < len(ps); q++ {
			if q+1 < len(ps) && ps[q+1].j == ps[q].j {
				// found from both sides: the mean, as ShortestPaths
				adj = append(adj, ps[q].j)
				w = append(w, 0.5*(ps[q].v+ps[q+1].v))
				q++
				continue
			}
			adj = append(adj, ps[q].j)
			w = append(w, ps[q].v)
		}
		ptr[i+1] = len(adj)
		known[i] = nil
	}
	return hclust.ExactCellsKnown(ctx, n, m, ptr, adj, w, radius)
}
