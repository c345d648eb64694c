package hclust

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// CellsMaxSize is the largest cell FromPointsCells and FromRowsCells
// accept (but for a cell of identical rows): each cell's own linkage holds
// a size×size matrix (8·size² bytes; 200 MB at 5,000).
const CellsMaxSize = 5000

// FromPointsCells is agglomerative clustering of the rows of X under the
// Euclidean distance, constrained by a partition of the rows into k cells
// (cells[i] ∈ [0, k), every cell non-empty): the rows of a cell join one
// another before any of them joins a row of another cell. It is the tree
// of all rows that a landmark method can afford when the partition is
// "nearest landmark": no N×N matrix is stored, only k×k.
//
//   - Inside a cell: FromPoints on the cell's rows (the exact linkage).
//   - Between cells: the linkage m on the k cells, started from the exact
//     linkage distances between the cells as sets of rows and run with the
//     cells' sizes, so that every later distance is the exact distance
//     between the unions of cells:
//   - Single: min, Complete: max, Average: mean of the pairwise
//     Euclidean distances between the two cells (UPGMA with the cells'
//     sizes is then exact for every union);
//   - Ward: √(2·|A|·|B|/(|A|+|B|))·‖c_A − c_B‖ from the cells' centroids
//     and sizes, which the Ward update keeps exact for unions;
//   - Weighted (WPGMA): Σ 2^−(depth of x in A + depth of y in B)·d(x, y),
//     the value WPGMA's halving gives A and B from their own trees (each
//     split of the recursion halves), then halves as usual.
//
// A between-cell merge height below the height of a cell's own top merge
// (an elongated cell near a compact one) is raised to it, so the result is
// a valid dendrogram (non-decreasing heights, an ultrametric): heights are
// max(h, heights of both sides). With every row its own cell the result
// is Linkage's tree for m (up to the order of equal heights).
//
// Cost: O(N²·d) time for the pairwise pass (none for Ward), parallel over
// cells; memory O(N·d + k² + s²) for the largest cell s ≤ CellsMaxSize.
// Errors: ErrMethod (Centroid, Median), ErrShape (len(cells) ≠ N, a cell
// out of range or empty, a cell over CellsMaxSize), ErrTooFewRows,
// ErrNonFinite, ctx.Err().
func FromPointsCells(ctx context.Context, X mat.Matrix, cells []int, k int, m Method) (*Tree, error) {
	switch m {
	case Single, Complete, Average, Weighted, Ward:
	default:
		return nil, fmt.Errorf("hclust: linkage on cells: method %v has no cell-level update: %w", m, ErrMethod)
	}
	pts, n, dim, err := points(ctx, X, m)
	if err != nil {
		return nil, err
	}
	start, member, err := groupCells(n, cells, k)
	if err != nil {
		return nil, err
	}
	Q := make([]float64, n*dim) // the rows in member order
	for p, i := range member {
		copy(Q[p*dim:p*dim+dim], pts[int(i)*dim:int(i)*dim+dim])
	}

	// inside each cell
	inner := make([][]rawMerge, k)
	errs := make([]error, k)
	wq := make([]float64, n) // weighted: 2^−depth of each row (member order)
	for i := range wq {
		wq[i] = 1
	}
	err = parallel.For(ctx, k, func(c int) {
		lo, hi := start[c], start[c+1]
		s := hi - lo
		if s < 2 {
			return
		}
		if identical(Q[lo*dim:hi*dim], dim) {
			// all at distance 0: any order of merges at height 0 is the
			// exact tree (and gives every row the same WPGMA distances)
			raw := make([]rawMerge, s-1)
			for q := range raw {
				raw[q] = rawMerge{a: member[lo], b: member[lo+q+1]}
			}
			inner[c] = raw
			for p := lo; p < hi; p++ {
				wq[p] = 1 / float64(s)
			}
			return
		}
		if s > CellsMaxSize {
			errs[c] = fmt.Errorf("hclust: cell %d has %d rows, more than %d: %w", c, s, CellsMaxSize, ErrShape)
			return
		}
		t, e := FromPoints(ctx, mat.NewDense(s, dim, Q[lo*dim:hi*dim]), m)
		if e != nil {
			errs[c] = fmt.Errorf("hclust: cell %d: %w", c, e)
			return
		}
		inner[c] = cellMerges(t, member[lo:hi], m, wq[lo:hi])
	})
	if err != nil {
		return nil, err
	}
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	var sq *square[float64]
	if k > 1 {
		if sq, err = cellDistances(ctx, Q, wq, start, dim, m); err != nil {
			return nil, err
		}
	}
	return joinCells(ctx, n, member, start, m, inner, sq)
}

// groupCells checks the partition of FromPointsCells and returns the
// rows cell after cell: cell c is member[start[c]:start[c+1]], in row
// order.
func groupCells(n int, cells []int, k int) (start []int, member []int32, err error) {
	if len(cells) != n {
		return nil, nil, fmt.Errorf("hclust: %d cell labels for %d rows: %w", len(cells), n, ErrShape)
	}
	if k < 1 {
		return nil, nil, fmt.Errorf("hclust: %d cells: %w", k, ErrShape)
	}
	start = make([]int, k+1)
	for i, c := range cells {
		if c < 0 || c >= k {
			return nil, nil, fmt.Errorf("hclust: row %d: cell %d outside [0, %d): %w", i, c, k, ErrShape)
		}
		start[c+1]++
	}
	for c := 0; c < k; c++ {
		if start[c+1] == 0 {
			return nil, nil, fmt.Errorf("hclust: cell %d is empty: %w", c, ErrShape)
		}
		start[c+1] += start[c]
	}
	member = make([]int32, n)
	next := append([]int(nil), start[:k]...)
	for i, c := range cells {
		member[next[c]] = int32(i)
		next[c]++
	}
	return start, member, nil
}

// joinCells completes a tree on cells: inner[c] holds cell c's own merges
// (by row representatives), sq the cells' linkage distances with their
// sizes (nil for one cell).
func joinCells(ctx context.Context, n int, member []int32, start []int, m Method, inner [][]rawMerge, sq *square[float64]) (*Tree, error) {
	all := make([]rawMerge, 0, n-1)
	for _, raw := range inner {
		all = append(all, raw...)
	}
	if sq != nil {
		between, err := nnChain(ctx, sq, m)
		if err != nil {
			return nil, err
		}
		for _, r := range between {
			all = append(all, rawMerge{a: member[start[r.a]], b: member[start[r.b]], h: r.h})
		}
	}
	if len(all) != n-1 {
		return nil, fmt.Errorf("hclust: linkage on cells made %d merges for %d rows: %w", len(all), n, ErrTree)
	}
	raiseHeights(n, all)
	return relabel(n, all), nil
}

// identical reports whether the rows of Q (row-major, dim columns) are
// all equal.
func identical(Q []float64, dim int) bool {
	for p := dim; p < len(Q); p += dim {
		if !slices.Equal(Q[p:p+dim], Q[:dim]) {
			return false
		}
	}
	return true
}

// cellMerges returns the merges of a cell's own tree t (over its rows
// rows, in order) by row representatives, and for Weighted writes each
// row's 2^−depth in t into wq (the weights of the cell's WPGMA distances).
func cellMerges(t *Tree, rows []int32, m Method, wq []float64) []rawMerge {
	s := len(rows)
	rep := make([]int32, 2*s-1)
	copy(rep, rows)
	raw := make([]rawMerge, s-1)
	for q, mg := range t.Merges {
		raw[q] = rawMerge{a: rep[mg.A], b: rep[mg.B], h: mg.Height}
		rep[s+q] = rep[mg.A]
	}
	if m == Weighted {
		wt := make([]float64, 2*s-1)
		wt[2*s-2] = 1
		for q := s - 2; q >= 0; q-- {
			mg := t.Merges[q]
			wt[mg.A], wt[mg.B] = wt[s+q]/2, wt[s+q]/2
		}
		copy(wq, wt[:s])
	}
	return raw
}

// raiseHeights sets every merge's height to at least the heights of the
// merges below it; all lists every merge after the merges of its sides.
func raiseHeights(n int, all []rawMerge) {
	parent := make([]int32, n)
	top := make([]float64, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	for q := range all {
		a, b := findRoot(parent, all[q].a), findRoot(parent, all[q].b)
		h := max(all[q].h, top[a], top[b])
		all[q].h = h
		parent[b] = a
		top[a] = h
	}
}

// cellDistances is the k×k working matrix of FromPointsCells: the
// linkage distance between every two cells as sets of rows, with the
// cells' sizes. Q holds the rows cell after cell (cell c is rows
// start[c]..start[c+1]−1), wq their 2^−depth in their cell's tree
// (Weighted).
func cellDistances(ctx context.Context, Q, wq []float64, start []int, dim int, m Method) (*square[float64], error) {
	k := len(start) - 1
	sq := newSquare[float64](k)
	sq.sizes = make([]int32, k)
	for c := 0; c < k; c++ {
		sq.sizes[c] = int32(start[c+1] - start[c])
		sq.d[c*k+c] = math.Inf(1)
	}
	if m == Ward {
		cen := make([]float64, k*dim)
		for c := 0; c < k; c++ {
			cc := cen[c*dim : c*dim+dim]
			for p := start[c]; p < start[c+1]; p++ {
				for j, v := range Q[p*dim : p*dim+dim] {
					cc[j] += v
				}
			}
			for j := range cc {
				cc[j] /= float64(sq.sizes[c])
			}
		}
		err := parallel.For(ctx, k, func(a int) {
			ca := cen[a*dim : a*dim+dim]
			na := float64(sq.sizes[a])
			for b := a + 1; b < k; b++ {
				var s float64
				for j, v := range cen[b*dim : b*dim+dim] {
					t := ca[j] - v
					s += t * t
				}
				nb := float64(sq.sizes[b])
				v := math.Sqrt(2 * na * nb / (na + nb) * s)
				sq.d[a*k+b], sq.d[b*k+a] = v, v
			}
		})
		return sq, finiteCells(sq, err)
	}
	err := parallel.For(ctx, k, func(a int) {
		row := sq.d[a*k : a*k+k]
		for b := a + 1; b < k; b++ {
			row[b] = 0
			if m == Single {
				row[b] = math.Inf(1)
			}
		}
		for p := start[a]; p < start[a+1]; p++ {
			x := Q[p*dim : p*dim+dim]
			for b := a + 1; b < k; b++ {
				acc := row[b]
				for q := start[b]; q < start[b+1]; q++ {
					var s float64
					for j, v := range Q[q*dim : q*dim+dim] {
						t := x[j] - v
						s += t * t
					}
					d := math.Sqrt(s)
					switch m {
					case Single:
						acc = min(acc, d)
					case Complete:
						acc = max(acc, d)
					case Weighted:
						acc += wq[p] * wq[q] * d
					default:
						acc += d
					}
				}
				row[b] = acc
			}
		}
		na := float64(start[a+1] - start[a])
		for b := a + 1; b < k; b++ {
			if m == Average {
				row[b] /= na * float64(start[b+1]-start[b])
			}
			sq.d[b*k+a] = row[b]
		}
	})
	return sq, finiteCells(sq, err)
}

// finiteCells reports err, or ErrNonFinite if a cell distance overflowed.
func finiteCells(sq *square[float64], err error) error {
	if err != nil {
		return err
	}
	for i, v := range sq.d {
		if math.IsNaN(v) || (math.IsInf(v, 0) && i%(sq.n+1) != 0) {
			return fmt.Errorf("hclust: a distance between cells overflows float64: %w", ErrNonFinite)
		}
	}
	return nil
}

// FromRowsCells is FromPointsCells for any symmetric dissimilarity of n
// rows given one row at a time: dist(w, i, out) writes the distances from
// row i to every row into out (len n). It is called once per row, from
// up to workers goroutines at once; w ∈ [0, workers) names the calling
// goroutine, so dist may keep scratch per w (a shortest-path search's
// buffers). Methods: Single, Complete, Average, Weighted (Ward needs
// points; weighted calls dist twice per row: its sums between cells need
// every cell's own tree first). The distance between cells a < b is aggregated from the rows
// of a (min, max or mean of out over the rows of b), so an asymmetric
// round-off (a path summed in another order) cannot make the cells'
// matrix asymmetric. Distances must be finite and non-negative (ErrNonFinite,
// ErrNegative otherwise).
//
// Cost: n calls of dist, O(n·k) aggregation; memory O(k² + workers·n + s²)
// for the largest cell s ≤ CellsMaxSize.
func FromRowsCells(ctx context.Context, n int, cells []int, k int, m Method, workers int, dist func(w, i int, out []float64)) (*Tree, error) {
	switch m {
	case Single, Complete, Average, Weighted:
	default:
		return nil, fmt.Errorf("hclust: linkage on cells of a dissimilarity: method %v: %w", m, ErrMethod)
	}
	if n < 2 {
		return nil, fmt.Errorf("hclust: %d observations: %w", n, ErrTooFewRows)
	}
	start, member, err := groupCells(n, cells, k)
	if err != nil {
		return nil, err
	}
	for c := 0; c < k; c++ {
		if s := start[c+1] - start[c]; s > CellsMaxSize {
			return nil, fmt.Errorf("hclust: cell %d has %d rows, more than %d: %w", c, s, CellsMaxSize, ErrShape)
		}
	}
	workers = max(workers, 1)
	var sq *square[float64]
	if k > 1 {
		sq = newSquare[float64](k)
		sq.sizes = make([]int32, k)
		for c := 0; c < k; c++ {
			sq.sizes[c] = int32(start[c+1] - start[c])
		}
	}
	inner := make([][]rawMerge, k)
	errs := make([]error, k)
	bufs := make([][]float64, workers)
	wq := make([]float64, n) // weighted: 2^−depth of each row in its cell's tree
	for i := range wq {
		wq[i] = 1
	}
	// One sweep of searches: the cells' own trees (inside) and the sums
	// between cells (between); weighted needs every cell's tree before its
	// sums, so it sweeps twice.
	sweep := func(inside, between bool) error {
		return parallel.ForWorkers(ctx, k, workers, func(w, a int) {
			if bufs[w] == nil {
				bufs[w] = make([]float64, n)
			}
			out := bufs[w]
			lo, hi := start[a], start[a+1]
			s := hi - lo
			var cond []float64
			if inside {
				cond = make([]float64, s*(s-1)/2)
			}
			var row []float64
			if between {
				row = sq.d[a*k : a*k+k]
				for b := range row {
					row[b] = 0
					if m == Single {
						row[b] = math.Inf(1)
					}
				}
			}
			for p := lo; p < hi; p++ {
				dist(w, int(member[p]), out)
				for _, v := range out {
					if !validDistance(v) {
						errs[a] = fmt.Errorf("hclust: a distance from row %d is %v: %w", member[p], v, ErrNonFinite)
						if v < 0 {
							errs[a] = fmt.Errorf("hclust: a distance from row %d is %v: %w", member[p], v, ErrNegative)
						}
						return
					}
				}
				// inside the cell (upper triangle, as pdist)
				i := p - lo
				for q := p + 1; inside && q < hi; q++ {
					cond[condRow(s, i)+q-p-1] = out[member[q]]
				}
				for b := a + 1; between && b < k; b++ {
					acc := row[b]
					for q := start[b]; q < start[b+1]; q++ {
						v := out[member[q]]
						switch m {
						case Single:
							acc = min(acc, v)
						case Complete:
							acc = max(acc, v)
						case Weighted:
							acc += wq[p] * wq[q] * v
						default:
							acc += v
						}
					}
					row[b] = acc
				}
			}
			if inside && s >= 2 {
				t, e := Linkage(ctx, distance.Condensed{N: s, Data: cond}, m)
				if e != nil {
					errs[a] = fmt.Errorf("hclust: cell %d: %w", a, e)
					return
				}
				inner[a] = cellMerges(t, member[lo:hi], m, wq[lo:hi])
			}
		})
	}
	check := func(err error) error {
		if err != nil {
			return err
		}
		for _, e := range errs {
			if e != nil {
				return e
			}
		}
		return nil
	}
	if m == Weighted && sq != nil {
		if err := check(sweep(true, false)); err != nil {
			return nil, err
		}
		if err := check(sweep(false, true)); err != nil {
			return nil, err
		}
	} else if err := check(sweep(true, sq != nil)); err != nil {
		return nil, err
	}
	if sq != nil {
		for a := 0; a < k; a++ {
			sq.d[a*k+a] = math.Inf(1)
			na := float64(sq.sizes[a])
			for b := a + 1; b < k; b++ {
				v := sq.d[a*k+b]
				if m == Average {
					v /= na * float64(sq.sizes[b])
					sq.d[a*k+b] = v
				}
				sq.d[b*k+a] = v
			}
		}
	}
	return joinCells(ctx, n, member, start, m, inner, sq)
}
