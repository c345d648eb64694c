package landmark

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/internal/finite"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// Landmark selection methods (Choose).
const (
	Random = "random" // M rows uniformly without replacement
	KMeans = "kmeans" // the rows nearest to the centres of k-means (k-means++ start, Lloyd)
)

// kmeansIter is the number of Lloyd iterations of KMeans, and
// kmeansSample·M the number of rows it clusters.
const (
	kmeansIter   = 10
	kmeansSample = 100
)

// Choose returns m distinct row indices of X (ascending), chosen by
// method (Random or KMeans) from seed. For k-means the
// landmarks are data rows (the nearest row to each centre, duplicates
// removed, topped up at random), so that every kernel, data-dependent ones
// included, can be evaluated on them; k-means runs on a random sample of
// 100·m rows (all when fewer). Cost: O(N) for random, about
// O(kmeansIter · 100·m · log m · d) for k-means. Errors: ErrEmpty, ErrNonFinite, ErrBadParam (m not in
// 1..N, unknown method), ctx.Err().
func Choose(ctx context.Context, X mat.Matrix, m int, method string, seed uint64) ([]int, error) {
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	return chooseRows(ctx, x.n, m, method, seed, x.fetch)
}

// fetch returns the rows of x at the indices idx, in that order.
func (x rows) fetch(idx []int) (*mat.Dense, error) {
	out := mat.NewDense(len(idx), x.d, nil)
	for a, i := range idx {
		copy(out.RawRowView(a), x.row(i))
	}
	return out, nil
}

// chooseRows is Choose on n rows reached through fetch (the rows at the
// given ascending indices, one matrix row each): k-means reads its sample,
// random no rows at all.
func chooseRows(ctx context.Context, n, m int, method string, seed uint64, fetch func(idx []int) (*mat.Dense, error)) ([]int, error) {
	if m < 1 || m > n {
		return nil, fmt.Errorf("%w: %d landmarks, want 1..%d (the number of rows)", kernel.ErrBadParam, m, n)
	}
	total := n
	rng := rand.New(rand.NewPCG(seed, 0x6c616e64))
	switch method {
	case Random, "":
		return sortedInts(rng.Perm(n)[:m]), nil
	case KMeans:
	default:
		return nil, fmt.Errorf("%w: landmark method %q (want random or kmeans)", kernel.ErrBadParam, method)
	}
	// k-means runs on a random sample of kmeansSample·m rows (all rows when
	// fewer): the centres of a large sample are as good as those of all
	// rows, at a fraction of the cost.
	rows := rng.Perm(n)
	if ns := kmeansSample * m; ns < n {
		rows = rows[:ns]
		sort.Ints(rows)
	} else {
		rows = sortedInts(rows)
	}
	ns := len(rows)
	sample, err := fetch(rows)
	if err != nil {
		return nil, err
	}
	if r, _ := sample.Dims(); r != ns {
		return nil, fmt.Errorf("%w: %d sample rows fetched, want %d", kernel.ErrBadParam, r, ns)
	}
	_, d := sample.Dims()
	data := mat.DenseCopyOf(sample).RawMatrix().Data
	if i, j, v, bad := finite.Find(data, ns, d, d); bad {
		return nil, fmt.Errorf("%w: X[%d,%d] = %v", kernel.ErrNonFinite, rows[i], j, v)
	}
	n = ns
	// k-means++ seeding.
	cent := make([]float64, m*d)
	d2 := make([]float64, n)
	first := rng.IntN(n)
	copy(cent, data[first*d:first*d+d])
	for i := range d2 {
		d2[i] = distance.SqDist(data[i*d:i*d+d], cent[:d])
	}
	for c := 1; c < m; c++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		total := 0.0
		for _, v := range d2 {
			total += v
		}
		pick := rng.IntN(n)
		if total > 0 {
			r := rng.Float64() * total
			for i, v := range d2 {
				r -= v
				if r < 0 {
					pick = i
					break
				}
			}
		}
		copy(cent[c*d:], data[pick*d:pick*d+d])
		cc := cent[c*d : c*d+d]
		for i := range d2 {
			d2[i] = min(d2[i], distance.SqDist(data[i*d:i*d+d], cc))
		}
	}
	assign := make([]int32, n)
	for it := 0; it < kmeansIter; it++ {
		ix := neighbors.New(cent, m, d)
		if err := ix.Search(ctx, data, 1, assign, nil); err != nil {
			return nil, err
		}
		sum := make([]float64, m*d)
		cnt := make([]int, m)
		for i, c := range assign {
			cnt[c]++
			for t, v := range data[i*d : i*d+d] {
				sum[int(c)*d+t] += v
			}
		}
		for c := 0; c < m; c++ {
			if cnt[c] == 0 {
				continue // an empty cluster keeps its centre
			}
			for t := 0; t < d; t++ {
				cent[c*d+t] = sum[c*d+t] / float64(cnt[c])
			}
		}
	}
	// The nearest row to each centre.
	near := make([]int32, m)
	if err := neighbors.New(data, n, d).Search(ctx, cent, 1, near, nil); err != nil {
		return nil, err
	}
	seen := make(map[int]bool, m)
	var out []int
	for _, a := range near {
		if i := rows[a]; !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for _, i := range rng.Perm(total) {
		if len(out) == m {
			break
		}
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return sortedInts(out), nil
}

func sortedInts(a []int) []int {
	sort.Ints(a)
	return a
}

// Nystrom is a fitted Nyström feature map (Williams & Seeger 2001) of a
// kernel on M landmark points L: for a point x with kernel row
// k_L(x) = [k(x, l_1) … k(x, l_M)],
//
//	z(x) = k_L(x) · U_r · Λ_r^{-1/2}
//
// where K_LL = U Λ Uᵀ and r counts the eigenvalues above RCond·λ_max (the
// others, including negative ones, are clipped: K_LL^{-1/2} of its PSD
// part). Then z(x)·z(y) = k_L(x) K_LL⁺ k_L(y)ᵀ, the Nyström approximation of
// k(x, y), exact when x or y is a landmark (up to the clipped
// eigenvalues) and for every pair when rank K ≤ r. A learner that needs
// only inner products runs on the N×r features Z in O(N·M) memory.
//
// Point kernels get their rows by direct evaluation (newNystrom); the
// hierarchical cluster kernels from the exact tree of all rows restricted
// to the landmarks (newNystromSingle, newNystromCells, newNystromGraph
// up to their row limits) or the tree on the landmarks alone
// (newNystromHCK), new points by the tree-aware rule. Immutable and safe
// for concurrent use.
type Nystrom struct {
	// Landmarks are the landmark rows of the training X (ascending).
	Landmarks []int
	// Rank is r, the number of features.
	Rank int
	// Clipped is M − r, the eigenvalues of K_LL set to zero.
	Clipped int
	// AllRows: the tree is a tree of all training rows restricted to the
	// landmarks (newNystromSingle, newNystromCells, and newNystromGraph
	// up to its row limits), not one built on the landmarks alone.
	AllRows bool

	lm   *mat.Dense    // M×d landmark points
	k    kernel.Kernel // point kernel, or nil
	tree *kernel.TreeExtension
	h    kernel.HCK   // the cluster kernel of tree (Save)
	t    *hclust.Tree // its tree on the landmarks (Save)
	w    *mat.Dense   // M×r = U_r Λ_r^{-1/2}
	// graft: the O(r)-per-point features of a grafting tree rule
	// (kernel.TreeFeatures), or nil.
	graft *kernel.TreeFeatures
	// geo: the geodesic distances to the landmarks of the graph variants
	// (newNystromGraph), or nil; joins the Eq. 4 joins it made.
	geo   *geoSource
	joins int
	// rowBufs holds BlockRows×M buffers for the kernel rows of a point
	// kernel (featuresTo), reused across blocks and calls so that a pass
	// over N rows leaves no N/BlockRows blocks of garbage behind.
	rowBufs sync.Pool
}

// newNystrom fits the Nyström map of the point kernel k on the landmark
// rows of X. rcond 0 means M·ε. Cost: O(M²d) for K_LL, O(M³) for its
// eigendecomposition. Errors: ErrEmpty, ErrNonFinite, ErrBadParam, the
// kernel's, ctx.Err().
func newNystrom(ctx context.Context, X mat.Matrix, k kernel.Kernel, landmarks []int, rcond float64) (*Nystrom, error) {
	lm, err := landmarkRows(X, landmarks)
	if err != nil {
		return nil, err
	}
	K, err := kernel.Gram(ctx, nil, k, lm)
	if err != nil {
		return nil, err
	}
	ny := &Nystrom{Landmarks: append([]int(nil), landmarks...), lm: lm, k: k}
	return ny, ny.factor(ctx, K, rcond)
}

// newNystromHCK fits the landmark cluster kernel: the tree of h on the M
// landmark rows of X (Euclidean or graph distances among the landmarks) and
// its kernel K_LL = −½·J·M_L·J; every other point's row against the
// landmarks comes from the tree-aware rule (TreeExtension: it enters the
// landmark tree through its nearest landmark, exactly for single linkage).
// Cost: HCK on M points (O(M²) memory) plus O(M³).
func newNystromHCK(ctx context.Context, X mat.Matrix, h kernel.HCK, landmarks []int, rcond float64) (*Nystrom, error) {
	lm, err := landmarkRows(X, landmarks)
	if err != nil {
		return nil, err
	}
	K, info, err := h.Gram(ctx, lm)
	if err != nil {
		return nil, err
	}
	ext, err := kernel.NewTreeExtension(lm, h, info.Tree, nil)
	if err != nil {
		return nil, err
	}
	ny := &Nystrom{Landmarks: append([]int(nil), landmarks...), lm: lm, tree: ext, h: h, t: info.Tree}
	return ny, ny.factor(ctx, K, rcond)
}

func landmarkRows(X mat.Matrix, landmarks []int) (*mat.Dense, error) {
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	if len(landmarks) == 0 {
		return nil, fmt.Errorf("%w: no landmarks", kernel.ErrBadParam)
	}
	lm := mat.NewDense(len(landmarks), x.d, nil)
	for r, i := range landmarks {
		if i < 0 || i >= x.n {
			return nil, fmt.Errorf("%w: landmark %d is row %d, want 0..%d", kernel.ErrBadParam, r, i, x.n-1)
		}
		copy(lm.RawRowView(r), x.row(i))
	}
	return lm, nil
}

func (ny *Nystrom) factor(ctx context.Context, K *mat.SymDense, rcond float64) error {
	m := K.SymmetricDim()
	if rcond == 0 {
		rcond = float64(m) * 0x1p-52
	}
	vals, V, err := eigen.Sym(ctx, K, true)
	if err != nil {
		return fmt.Errorf("landmark: Nyström: %w: %w", kernel.ErrEigen, err)
	}
	top := vals[m-1]
	var keep []int
	for j := m - 1; j >= 0; j-- {
		if top > 0 && vals[j] > rcond*top {
			keep = append(keep, j)
		}
	}
	if len(keep) == 0 {
		return fmt.Errorf("%w: Nyström: the landmark kernel matrix has no positive eigenvalue", kernel.ErrBadParam)
	}
	ny.Rank, ny.Clipped = len(keep), m-len(keep)
	ny.w = mat.NewDense(m, len(keep), nil)
	for c, j := range keep {
		s := 1 / math.Sqrt(vals[j])
		for i := 0; i < m; i++ {
			ny.w.Set(i, c, V.At(i, j)*s)
		}
	}
	if ny.tree != nil {
		ny.graft = kernel.NewTreeFeatures(ny.tree, ny.w)
	}
	return nil
}

// Dim returns the number of input features the map expects.
func (ny *Nystrom) Dim() int { _, d := ny.lm.Dims(); return d }

// LandmarkPoints returns the M×d landmark points (a copy).
func (ny *Nystrom) LandmarkPoints() *mat.Dense { return mat.DenseCopyOf(ny.lm) }

// Rows returns the t×M kernel rows of the rows of Xt against the landmarks.
func (ny *Nystrom) Rows(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	if ny.geo != nil {
		xt, err := newRows(Xt, "Xt")
		if err != nil {
			return nil, err
		}
		if xt.d != ny.Dim() {
			return nil, fmt.Errorf("%w: Nyström: %d columns, landmarks have %d", kernel.ErrShape, xt.d, ny.Dim())
		}
		out := mat.NewDense(max(xt.n, 1), len(ny.Landmarks), nil)
		if xt.n == 0 {
			return out.Slice(0, 0, 0, len(ny.Landmarks)).(*mat.Dense), nil
		}
		return out, ny.geoRows(ctx, out, xt.n, ny.geoNew(xt))
	}
	if ny.tree != nil {
		return ny.tree.Rows(ctx, Xt)
	}
	return kernel.Cross(ctx, nil, ny.k, Xt, ny.lm)
}

// Base returns the t×M rows the features are a linear map of: the kernel
// rows against the landmarks (Rows), so that Features = Base·Projection.
func (ny *Nystrom) Base(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	_, d := Xt.Dims()
	if d != ny.Dim() {
		return nil, fmt.Errorf("%w: Nyström: %d columns, landmarks have %d", kernel.ErrShape, d, ny.Dim())
	}
	return ny.Rows(ctx, Xt)
}

// Projection returns the M×r matrix W = U_r Λ_r^{-1/2} (a copy): a model
// linear in the features, f(z) = z·w, is linear in the base rows with
// weights W·w (linsvm.Model.Compose), M·C work per point instead of M·r.
func (ny *Nystrom) Projection() *mat.Dense { return mat.DenseCopyOf(ny.w) }

// Features returns the t×r Nyström features of the rows of Xt, computed in
// blocks of rows so that only one block's kernel rows are held at a time.
// Errors: those of Rows, ctx.Err().
func (ny *Nystrom) Features(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	t, d := Xt.Dims()
	if d != ny.Dim() {
		return nil, fmt.Errorf("%w: Nyström: %d columns, landmarks have %d", kernel.ErrShape, d, ny.Dim())
	}
	Z := mat.NewDense(max(t, 1), ny.Rank, nil)
	if t == 0 {
		return Z.Slice(0, 0, 0, ny.Rank).(*mat.Dense), nil
	}
	return Z, ny.featuresTo(ctx, Z, Xt)
}

// featuresTo sets Z (t×r) to the features of the t ≥ 1 rows of Xt: the
// kernel rows of blocks of BlockRows rows times W, so that a block of rows
// starting at a multiple of BlockRows gets the values of the whole.
func (ny *Nystrom) featuresTo(ctx context.Context, Z *mat.Dense, Xt mat.Matrix) error {
	t, d := Xt.Dims()
	if d != ny.Dim() {
		return fmt.Errorf("%w: Nyström: %d columns, landmarks have %d", kernel.ErrShape, d, ny.Dim())
	}
	if ny.geo != nil {
		x, err := newRows(Xt, "Xt")
		if err != nil {
			return err
		}
		return ny.geoFeatures(ctx, Z, t, ny.geoNew(x))
	}
	if ny.graft != nil {
		return ny.graft.Features(ctx, Z, Xt)
	}
	const block = BlockRows
	m := len(ny.Landmarks)
	var buf *mat.Dense // the point kernel's rows against the landmarks
	if ny.k != nil && ny.tree == nil {
		buf, _ = ny.rowBufs.Get().(*mat.Dense)
		if buf == nil {
			buf = mat.NewDense(block, m, nil)
		}
		defer ny.rowBufs.Put(buf)
	}
	for lo := 0; lo < t; lo += block {
		hi := min(lo+block, t)
		var sub mat.Matrix
		if xd, ok := Xt.(*mat.Dense); ok {
			sub = xd.Slice(lo, hi, 0, d)
		} else {
			sub = mat.DenseCopyOf(Xt).Slice(lo, hi, 0, d)
		}
		var R *mat.Dense
		var err error
		if buf != nil {
			R, err = kernel.Cross(ctx, buf.Slice(0, hi-lo, 0, m).(*mat.Dense), ny.k, sub, ny.lm)
		} else {
			R, err = ny.Rows(ctx, sub)
		}
		if err != nil {
			return err
		}
		zb := Z.Slice(lo, hi, 0, ny.Rank).(*mat.Dense)
		// Rows in parallel; each row of zb = R_row · W.
		err = parallel.Chunks(ctx, hi-lo, 64, func(a, b int) {
			zb.Slice(a, b, 0, ny.Rank).(*mat.Dense).Mul(R.Slice(a, b, 0, R.RawMatrix().Cols), ny.w)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
