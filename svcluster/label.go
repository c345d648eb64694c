package svcluster

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
)

// Labelling selects how clusters are read off the sphere.
type Labelling int

const (
	// Complete is the paper's complete graph (eq. 17 over all pairs of
	// non-outlier points), computed fast: union-find skipping pairs already
	// connected, early exit at the first sample outside, R² on segments from
	// Gram entries. Same clusters as Naive.
	Complete Labelling = iota
	// SVGraph tests eq. (17) only for pairs with a support vector at one end
	// (Ben-Hur et al., JMLR 2001): O(N·n_sv) pairs.
	SVGraph
	// KNNGraph tests eq. (17) only along the edges of the symmetrised
	// K-nearest-neighbour graph of the non-outlier points (proximity graph
	// labelling): O(N·K) pairs.
	KNNGraph
	// Cone is cone cluster labelling (Lee & Daniels): no segment sampling.
	// Support vectors v_i, v_j are joined when their data-space balls of
	// radius Z meet (‖v_i − v_j‖ ≤ 2Z), Z from the angle of the cap the sphere
	// cuts from the unit sphere of feature space; every other point takes the
	// cluster of its nearest support vector.
	Cone
	// Naive is eq. (17) literally: every pair, every sample, the kernel
	// evaluated in input space, no short cuts. O(N²·m·n_c·d). For reference
	// and benchmarks.
	Naive
)

var labellingNames = []string{"complete", "sv", "knn", "cone", "naive"}

// String returns the CLI name: complete, sv, knn, cone or naive.
func (l Labelling) String() string {
	if l >= 0 && int(l) < len(labellingNames) {
		return labellingNames[l]
	}
	return fmt.Sprintf("Labelling(%d)", int(l))
}

// ParseLabelling accepts the names of Labelling.String.
func ParseLabelling(s string) (Labelling, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, n := range labellingNames {
		if s == n {
			return Labelling(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q (want complete, sv, knn, cone or naive)", ErrBadLabelling, s)
}

func (l Labelling) valid() bool { return l >= Complete && l <= Naive }

// labelInput is everything a labelling needs.
type labelInput struct {
	x        []float64 // row-major n×d
	d        int
	inside   []int // rows that are graph vertices (non-outliers), increasing
	sv       []int // rows of the support vectors (0 < β < C), increasing
	b        *ball
	s        sphere // Naive only: the sphere to test (nil: b)
	m        int    // samples per segment
	k        int    // neighbours (KNNGraph)
	method   Labelling
	progress func(stage string, done, total int)
}

// label returns a cluster id for each point of in.inside (ids numbered by
// smallest member) and the number of clusters.
func label(ctx context.Context, in labelInput) ([]int, int, error) {
	n := len(in.inside)
	if n == 0 {
		return nil, 0, nil
	}
	switch in.method {
	case Naive:
		return labelNaive(ctx, in)
	case Cone:
		if len(in.sv) > 0 {
			return labelCone(ctx, in)
		}
	}
	st := newSegTester(in.b, in.m, in.x, in.d, in.inside, -1)
	st.probe = in.method != KNNGraph
	var cands func(i int, dst []int) []int
	switch in.method {
	case KNNGraph:
		adj := knnPairs(ctx, in.x, in.d, in.inside, in.k)
		cands = func(i int, dst []int) []int { return append(dst, adj[i]...) }
	case SVGraph:
		adj := svPairs(in.inside, in.sv)
		cands = func(i int, dst []int) []int { return append(dst, adj[i]...) }
	default: // Complete, and Cone without support vectors
		cands = func(i int, dst []int) []int {
			for j := i + 1; j < n; j++ {
				dst = append(dst, j)
			}
			return dst
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return connect(ctx, n, in.d+in.m+2, cands, st.adjacent, in.progress)
}

// connect finds the connected components of the graph whose edges are the
// candidate pairs (i, j) for which adjacent(i, j) holds. Rows are processed
// in rounds of fixed sizes (1, 1, 2, 2, 4, 4, ..., 64); inside a round the
// rows run in parallel against a snapshot of the union-find roots taken
// before the round, skipping a candidate when it is already in the row's
// component or in a component the row has joined during this round. The
// edges found are merged after the round in row order. The snapshots, and
// so the pairs tested, do not depend on the number of workers.
func connect(ctx context.Context, n, bufLen int, cands func(i int, dst []int) []int,
	adjacent func(a, b int, buf []float64) bool, progress func(string, int, int)) ([]int, int, error) {
	uf := newUnionFind(n)
	roots := make([]int32, n)
	workers := runtime.GOMAXPROCS(0)
	type scratch struct {
		stamp []int32
		gen   int32
		buf   []float64
		cand  []int
	}
	ws := make([]scratch, workers)
	for w := range ws {
		ws[w] = scratch{stamp: make([]int32, n), buf: make([]float64, bufLen)}
	}
	const maxRound = 64
	edges := make([][]int32, maxRound)
	size := 1
	for start, round := 0, 0; start < n; round++ {
		end := start + size
		if end > n {
			end = n
		}
		for i := range roots {
			roots[i] = int32(uf.find(i))
		}
		err := parallel.ForWorkers(ctx, end-start, workers, func(w, r int) {
			i := start + r
			sc := &ws[w]
			sc.gen++
			if sc.gen == math.MaxInt32 {
				clear(sc.stamp)
				sc.gen = 1
			}
			gen := sc.gen
			ri := roots[i]
			sc.stamp[ri] = gen
			sc.cand = cands(i, sc.cand[:0])
			e := edges[r][:0]
			for _, j := range sc.cand {
				rj := roots[j]
				if sc.stamp[rj] == gen {
					continue
				}
				if adjacent(i, j, sc.buf) {
					sc.stamp[rj] = gen
					e = append(e, int32(j))
				}
			}
			edges[r] = e
		})
		if err != nil {
			return nil, 0, err
		}
		for r := 0; r < end-start; r++ {
			for _, j := range edges[r] {
				uf.union(start+r, int(j))
			}
		}
		if progress != nil {
			progress("labelling", end, n)
		}
		start = end
		if round%2 == 1 && size < maxRound {
			size *= 2
		}
	}
	lab, k := uf.labels()
	return lab, k, nil
}

// labelNaive runs eq. (17) over all pairs with all samples, as the paper.
func labelNaive(ctx context.Context, in labelInput) ([]int, int, error) {
	n, d := len(in.inside), in.d
	var s sphere = in.b
	if in.s != nil {
		s = in.s
	}
	rows := make([][]int32, n)
	workers := runtime.GOMAXPROCS(0)
	bufs := make([][]float64, workers)
	for w := range bufs {
		bufs[w] = make([]float64, d)
	}
	err := parallel.ForWorkers(ctx, n, workers, func(w, i int) {
		xi := in.x[in.inside[i]*d : in.inside[i]*d+d]
		for j := i + 1; j < n; j++ {
			xj := in.x[in.inside[j]*d : in.inside[j]*d+d]
			if naiveAdjacent(s, xi, xj, bufs[w], in.m) {
				rows[i] = append(rows[i], int32(j))
			}
		}
	})
	if err != nil {
		return nil, 0, err
	}
	uf := newUnionFind(n)
	for i, r := range rows {
		for _, j := range r {
			uf.union(i, int(j))
		}
	}
	lab, k := uf.labels()
	return lab, k, nil
}

// knnPairs returns, for each local point, its candidate partners: the union
// of its k nearest neighbours and the points having it among theirs, each
// pair listed once (under its smaller index). Ties go to the smaller index
// (internal/neighbors).
func knnPairs(ctx context.Context, x []float64, d int, pts []int, k int) [][]int {
	n := len(pts)
	if k > n-1 {
		k = n - 1
	}
	if k < 1 {
		return make([][]int, n)
	}
	sub := make([]float64, n*d)
	for i, p := range pts {
		copy(sub[i*d:i*d+d], x[p*d:p*d+d])
	}
	near := make([]int32, n*k)
	if neighbors.New(sub, n, d).All(ctx, k, neighbors.ExcludeSelf, near, nil) != nil {
		return make([][]int, n) // cancelled: the caller checks ctx
	}
	nb := make([][]int, n)
	for i := range nb {
		nb[i] = make([]int, k)
		for r := range nb[i] {
			nb[i][r] = int(near[i*k+r])
		}
	}
	adj := make([][]int, n)
	for i, l := range nb {
		for _, j := range l {
			a, b := i, j
			if a > b {
				a, b = b, a
			}
			adj[a] = append(adj[a], b)
		}
	}
	for i := range adj {
		sort.Ints(adj[i])
		adj[i] = dedupSorted(adj[i])
	}
	return adj
}

func dedupSorted(a []int) []int {
	if len(a) < 2 {
		return a
	}
	w := 1
	for r := 1; r < len(a); r++ {
		if a[r] != a[w-1] {
			a[w] = a[r]
			w++
		}
	}
	return a[:w]
}

// svPairs lists, in local indices, the pairs with a support vector at one
// end: every non-SV point against every SV, and SV–SV pairs once.
func svPairs(inside, sv []int) [][]int {
	n := len(inside)
	local := make([]int, 0, len(sv))
	isSV := make([]bool, n)
	p := 0
	for i, r := range inside {
		for p < len(sv) && sv[p] < r {
			p++
		}
		if p < len(sv) && sv[p] == r {
			local = append(local, i)
			isSV[i] = true
		}
	}
	adj := make([][]int, n)
	for i := 0; i < n; i++ {
		for _, s := range local {
			if s == i || (isSV[i] && s < i) {
				continue
			}
			adj[i] = append(adj[i], s)
		}
	}
	return adj
}

// coneRadius returns Z of cone cluster labelling (Lee & Daniels): the
// data-space radius of the ball {x : K(x, v) ≥ cos θ} around a support
// vector v, with cos θ = √(1 − R²), the angle between Φ(v) and the centre a
// when a lies in the plane of the cap that the sphere cuts from the unit
// sphere of feature space (both kernels have ‖Φ(x)‖ = 1; the exact cap
// angle, (1 + ‖a‖² − R²)/(2‖a‖), coincides when ‖a‖² = 1 − R²).
// Gaussian: Z = √(−ln cos θ / q); Laplacian: Z = −ln cos θ / q.
func coneRadius(b *ball) float64 {
	c := math.Sqrt(math.Max(0, 1-b.r2))
	switch {
	case c >= 1:
		return 0
	case c <= 0:
		return math.Inf(1)
	}
	l := -math.Log(c) / b.q
	if b.kind == Gaussian {
		return math.Sqrt(l)
	}
	return l
}

// labelCone is cone cluster labelling.
func labelCone(ctx context.Context, in labelInput) ([]int, int, error) {
	d := in.d
	z := coneRadius(in.b)
	lim := 4 * z * z
	ns := len(in.sv)
	near := make([][]int32, ns)
	_ = parallel.For(context.Background(), ns, func(i int) {
		xi := in.x[in.sv[i]*d : in.sv[i]*d+d]
		for j := i + 1; j < ns; j++ {
			if distance.SqDist(xi, in.x[in.sv[j]*d:in.sv[j]*d+d]) <= lim {
				near[i] = append(near[i], int32(j))
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	uf := newUnionFind(ns)
	for i, l := range near {
		for _, j := range l {
			uf.union(i, int(j))
		}
	}
	// Each inside point joins its nearest support vector.
	n := len(in.inside)
	nearest := make([]int, n)
	_ = parallel.For(context.Background(), n, func(i int) {
		nearest[i] = nearestRow(in.x, d, in.inside[i], in.sv)
	})
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	// Number clusters by smallest member among all inside points.
	id := make(map[int]int)
	lab := make([]int, n)
	for i := range lab {
		r := uf.find(nearest[i])
		c, ok := id[r]
		if !ok {
			c = len(id)
			id[r] = c
		}
		lab[i] = c
	}
	return lab, len(id), nil
}

// nearestRow returns the position in cand of the row nearest to row r
// (Euclidean; ties to the earlier position).
func nearestRow(x []float64, d, r int, cand []int) int {
	xr := x[r*d : r*d+d]
	best, bd := -1, math.Inf(1)
	for p, c := range cand {
		if dd := distance.SqDist(xr, x[c*d:c*d+d]); dd < bd {
			best, bd = p, dd
		}
	}
	return best
}
