package hclust

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// FromPointsLowMemory clusters the rows of X under the Euclidean distance
// without any n×n matrix: O(n·d) memory (one working copy of the points,
// which become the cluster centroids, plus O(n)), as fastcluster's
// linkage_vector does (Müllner 2013, J. Stat. Softw. 53(9), §2). It is the
// path for data whose distance matrix does not fit in memory; where it
// fits, FromPoints gives SciPy's tree to the bit.
//
// The linkages that depend on the clusters only through their centroids
// c and sizes |·| are computed from them, with ‖c_A − c_B‖² summed
// directly from the coordinate differences (never through norms, which
// would cancel):
//
//	Ward      D(A,B) = sqrt(2|A||B|/(|A|+|B|)) · ‖c_A − c_B‖   c_{A∪B} = size-weighted mean
//	Centroid  D(A,B) = ‖c_A − c_B‖                              c_{A∪B} = size-weighted mean
//	Median    D(A,B) = ‖c_A − c_B‖                              c_{A∪B} = (c_A + c_B)/2
//
// These are the values the Lance–Williams updates of Method produce from
// Euclidean leaf distances, i.e. SciPy's heights. Ward runs the
// nearest-neighbour chain and Centroid and Median Müllner's generic
// algorithm, both in the order of the matrix versions (the same positions,
// the same tie rules: an exact tie goes to the previous chain element,
// then to the lowest index), so the tree is FromPoints's up to rounding:
// heights agree to a few ulps (at most 10 ulps, 1e-15 relative, on
// uniform random points), and merges can only differ where two candidate
// distances are within rounding of each other (exact duplicates keep
// exactly equal centroids and tie as in FromPoints; an integer grid's
// equal Ward heights can come out 1 ulp apart and in another order).
// Single linkage is FromPoints (Prim on the points, O(n) extra memory).
// Complete, Average and Weighted cannot be computed from centroids and
// return ErrMethod.
//
// The nearest-neighbour search of a chain step scans every live centroid,
// O(live·d), split into fixed blocks over GOMAXPROCS goroutines and reduced
// in block order, so the result is identical for any GOMAXPROCS. Time
// O(n²·d) (Ward: at most about 3n scans; Centroid/Median: O(n²·d) typical,
// O(n³·d) worst case). progress, if not nil, is called with the stage
// name, the merges done and n−1, about a hundred times.
//
// Errors: as FromPoints; ErrMethod for Complete, Average and Weighted;
// ErrNonFinite when a distance overflows float64; ctx.Err() when ctx is
// cancelled (checked every few hundred merges and between scan blocks).
func FromPointsLowMemory(ctx context.Context, X mat.Matrix, m Method, progress func(stage string, done, total int)) (*Tree, error) {
	if m == Single {
		return FromPoints(ctx, X, m)
	}
	if m.valid() && !m.centroidal() {
		return nil, fmt.Errorf("hclust: %v linkage needs the distance matrix (only single, ward, centroid and median run in O(n·d) memory): %w", m, ErrMethod)
	}
	pts, n, dim, err := points(ctx, X, m)
	if err != nil {
		return nil, err
	}
	s := newCentroids(pts, n, dim, m)
	if progress == nil {
		progress = func(string, int, int) {}
	}
	stage := m.String() + " linkage (low memory)"
	if m == Ward {
		raw, err := s.nnChain(ctx, func(k int) { progress(stage, k, n-1) })
		if err != nil {
			return nil, err
		}
		return relabel(n, raw), nil
	}
	return s.generic(ctx, func(k int) { progress(stage, k, n-1) })
}

// centroidal reports whether m depends on clusters only through their
// centroids and sizes.
func (m Method) centroidal() bool { return m == Ward || m == Centroid || m == Median }

// centroids is the state of the O(n·d) algorithms: position p holds a
// cluster by its centroid c[p·dim : p·dim+dim], its size (0 once dead) and
// the original index of its representative leaf. The union of x < y goes
// to position y, as in the matrix algorithms.
type centroids struct {
	c    []float64
	dim  int
	P    int // positions (n, or fewer after compaction)
	m    Method
	size []int32
	orig []int32
	hgt  []float64 // height at which the cluster at a position was formed (Ward)
	// scan scratch: one (value, index) per block
	bv []float64
	bi []int
}

// scanBlock is the number of positions one task of a parallel scan
// covers; fixed (not derived from GOMAXPROCS) so that the block-order
// reduction is the same on any machine.
func scanBlock(dim int) int { return max(512, 32768/max(dim, 1)) }

func newCentroids(pts []float64, n, dim int, m Method) *centroids {
	s := &centroids{c: pts, dim: dim, P: n, m: m,
		size: make([]int32, n), orig: make([]int32, n), hgt: make([]float64, n)}
	for i := range s.size {
		s.size[i] = 1
		s.orig[i] = int32(i)
	}
	nb := (n + scanBlock(dim) - 1) / scanBlock(dim)
	s.bv, s.bi = make([]float64, nb), make([]int, nb)
	return s
}

// sqDist is ‖a − b‖² with four partial sums over the coordinates; it is
// symmetric to the bit (the same operations on −(a−b)).
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(a); k += 4 {
		a, b := a[k:k+4:k+4], b[k:k+4:k+4]
		t0, t1, t2, t3 := a[0]-b[0], a[1]-b[1], a[2]-b[2], a[3]-b[3]
		s0 += float64(t0 * t0)
		s1 += float64(t1 * t1)
		s2 += float64(t2 * t2)
		s3 += float64(t3 * t3)
	}
	for ; k < len(a); k++ {
		t := a[k] - b[k]
		s0 += float64(t * t)
	}
	return (s0 + s1) + (s2 + s3)
}

// crit is the squared cluster distance between positions x and j; sqrt of
// it is the merge height. Symmetric to the bit in x and j.
func (s *centroids) crit(x, j int) float64 {
	dim := s.dim
	v := sqDist(s.c[x*dim:x*dim+dim], s.c[j*dim:j*dim+dim])
	if s.m == Ward {
		nx, nj := int64(s.size[x]), int64(s.size[j])
		v *= float64(2*nx*nj) / float64(nx+nj)
	}
	return v
}

// nearestIn returns the smallest crit(x, j) over live j ≠ x in [lo, hi)
// and the first such j (−1 if none is below +Inf). The squared distance is
// sqDist's, written out here (same accumulators, same order: the same
// bits) so that the loop needs no call and no bounds checks.
func (s *centroids) nearestIn(x, lo, hi int) (float64, int) {
	dim := s.dim
	cx := s.c[x*dim : x*dim+dim]
	size := s.size[:hi]
	ward := s.m == Ward
	nx := int64(s.size[x])
	best, bi := math.Inf(1), -1
	for j := lo; j < hi; j++ {
		nj := int64(size[j])
		if nj == 0 || j == x {
			continue
		}
		cj := s.c[j*dim : j*dim+dim]
		var s0, s1, s2, s3 float64
		k := 0
		for ; k+4 <= len(cx); k += 4 {
			a, b := cx[k:k+4:k+4], cj[k:k+4:k+4]
			t0, t1, t2, t3 := a[0]-b[0], a[1]-b[1], a[2]-b[2], a[3]-b[3]
			s0 += float64(t0 * t0)
			s1 += float64(t1 * t1)
			s2 += float64(t2 * t2)
			s3 += float64(t3 * t3)
		}
		for ; k < len(cx); k++ {
			t := cx[k] - cj[k]
			s0 += float64(t * t)
		}
		v := (s0 + s1) + (s2 + s3)
		if ward {
			v *= float64(2*nx*nj) / float64(nx+nj)
		}
		if v < best {
			best, bi = v, j
		}
	}
	return best, bi
}

// nearest is nearestIn over [lo, P), in fixed blocks on GOMAXPROCS
// goroutines when the scan is long, reduced in block order (strictly
// smaller wins), which equals the serial scan's "first index".
func (s *centroids) nearest(ctx context.Context, x, lo int) (float64, int, error) {
	B := scanBlock(s.dim)
	nb := (s.P - lo + B - 1) / B
	if nb <= 1 || runtime.GOMAXPROCS(0) == 1 {
		v, i := s.nearestIn(x, lo, s.P)
		return v, i, nil
	}
	bv, bi := s.bv[:nb], s.bi[:nb]
	err := parallel.For(ctx, nb, func(b int) {
		bv[b], bi[b] = s.nearestIn(x, lo+b*B, min(s.P, lo+(b+1)*B))
	})
	if err != nil {
		return 0, -1, err
	}
	best, idx := math.Inf(1), -1
	for b, v := range bv {
		if v < best {
			best, idx = v, bi[b]
		}
	}
	return best, idx, nil
}

// join merges position x into y: y gets the union's centroid and size.
// Ward and Centroid: c_y + |x|/(|x|+|y|)·(c_x − c_y); Median: (c_x+c_y)/2.
// Both forms return c exactly when c_x = c_y (duplicate points stay
// duplicates).
func (s *centroids) join(x, y int) {
	dim := s.dim
	cx, cy := s.c[x*dim:x*dim+dim], s.c[y*dim:y*dim+dim]
	nx, ny := s.size[x], s.size[y]
	if s.m == Median {
		for k, v := range cx {
			cy[k] = 0.5 * (v + cy[k])
		}
	} else {
		w := float64(nx) / float64(nx+ny)
		for k, v := range cx {
			cy[k] += w * (v - cy[k])
		}
	}
	s.size[x], s.size[y] = 0, nx+ny
}

// nnChain is the nearest-neighbour chain of nnchain.go on centroids, for
// Ward (reducible): the same restart, neighbour and tie rules, the union
// at the larger position, and compaction (in order) when half of the
// positions are dead.
func (s *centroids) nnChain(ctx context.Context, progress func(int)) ([]rawMerge, error) {
	n := s.P
	live, first := n, 0
	stack := make([]int32, 0, n)
	raw := make([]rawMerge, 0, n-1)
	newpos := make([]int32, n)
	step := max(1, (n-1)/100)
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if k%step == 0 {
			progress(k)
		}
		if len(stack) == 0 {
			for s.size[first] == 0 {
				first++
			}
			stack = append(stack, int32(first))
		}
		var x, y int
		var v float64
		for {
			x = int(stack[len(stack)-1])
			mv, mi, err := s.nearest(ctx, x, 0)
			if err != nil {
				return nil, err
			}
			if len(stack) > 1 {
				prev := int(stack[len(stack)-2])
				if dp := s.crit(x, prev); dp <= mv {
					y, v = prev, dp
					break
				}
			}
			if mi < 0 {
				return nil, errOverflow()
			}
			stack = append(stack, int32(mi))
		}
		stack = stack[:len(stack)-2]
		if x > y {
			x, y = y, x
		}
		// Ward is monotone (a union is never closer to anything than its
		// parts were to each other); keep rounding from making a parent
		// lower than a child, which the height sort would turn into a
		// different tree.
		h := max(math.Sqrt(v), s.hgt[x], s.hgt[y])
		if !(h <= math.MaxFloat64) {
			return nil, errOverflow()
		}
		raw = append(raw, rawMerge{a: s.orig[x], b: s.orig[y], h: h})
		s.join(x, y)
		s.hgt[y] = h
		live--
		if live >= 2 && 2*live <= s.P && s.P >= 2*tile {
			s.compact(newpos)
			first = 0
			for j, p := range stack {
				stack[j] = newpos[p]
			}
		}
	}
	progress(n - 1)
	return raw, nil
}

// compact drops the dead positions in place, keeping order; newpos[old]
// receives the new position of each live cluster.
func (s *centroids) compact(newpos []int32) {
	dim := s.dim
	q := 0
	for p := 0; p < s.P; p++ {
		if s.size[p] == 0 {
			continue
		}
		newpos[p] = int32(q)
		copy(s.c[q*dim:q*dim+dim], s.c[p*dim:p*dim+dim])
		s.size[q], s.orig[q], s.hgt[q] = s.size[p], s.orig[p], s.hgt[p]
		q++
	}
	s.P = q
	s.c = s.c[:q*dim]
	s.size, s.orig, s.hgt = s.size[:q], s.orig[:q], s.hgt[:q]
}

// generic is generic.go (Müllner's generic algorithm, SciPy's order) with
// distances computed from centroids on demand: every position x < n−1
// keeps a candidate neighbour among higher positions and a lower bound of
// its (squared) distance in a heap; a popped candidate is exact when its
// distance, recomputed, equals the bound. Merges come out in order.
func (s *centroids) generic(ctx context.Context, progress func(int)) (*Tree, error) {
	n := s.P
	neighbor := make([]int32, n-1)
	minDist := make([]float64, n-1)
	id := make([]int32, n)
	for i := range id {
		id[i] = int32(i)
	}
	var bad bool
	// initial candidates: one task per block of positions
	B := max(1, scanBlock(s.dim)/64)
	if err := parallel.Chunks(ctx, n-1, B, func(lo, hi int) {
		for x := lo; x < hi; x++ {
			v, y := s.nearestIn(x, x+1, n)
			neighbor[x], minDist[x] = int32(y), v
		}
	}); err != nil {
		return nil, err
	}
	for _, y := range neighbor {
		bad = bad || y < 0
	}
	if bad {
		return nil, errOverflow()
	}
	findMin := func(x int) (int, float64, error) {
		v, y, err := s.nearest(ctx, x, x+1)
		return y, v, err
	}
	h := newIndexHeap(minDist)
	t := &Tree{N: n, Merges: make([]Merge, n-1)}
	upd := make([]float64, n)
	step := max(1, (n-1)/100)
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if k%step == 0 {
			progress(k)
		}
		var x, y int
		var dist float64
		for i := 0; i < n-k; i++ {
			x, dist = h.min()
			y = int(neighbor[x])
			if dist == s.crit(x, y) {
				break
			}
			var err error
			if y, dist, err = findMin(x); err != nil {
				return nil, err
			}
			if y < 0 {
				return nil, errOverflow()
			}
			neighbor[x], minDist[x] = int32(y), dist
			h.change(x, dist)
		}
		h.removeMin()
		height := math.Sqrt(dist)
		if !(height <= math.MaxFloat64) {
			return nil, errOverflow()
		}
		nx, ny := s.size[x], s.size[y]
		a, b := id[x], id[y]
		if a > b {
			a, b = b, a
		}
		t.Merges[k] = Merge{A: int(a), B: int(b), Height: height, Size: int(nx + ny)}
		s.join(x, y)
		id[y] = int32(n + k)
		for z := 0; z < x; z++ {
			if s.size[z] > 0 && int(neighbor[z]) == x {
				neighbor[z] = int32(y)
			}
		}
		// distances from the new centroid to every live z < y, in blocks
		if err := parallel.Chunks(ctx, y, scanBlock(s.dim), func(lo, hi int) {
			for z := lo; z < hi; z++ {
				if s.size[z] != 0 {
					upd[z] = s.crit(z, y)
				}
			}
		}); err != nil {
			return nil, err
		}
		for z := 0; z < y; z++ {
			if s.size[z] == 0 {
				continue
			}
			if v := upd[z]; v < minDist[z] {
				neighbor[z], minDist[z] = int32(y), v
				h.change(z, v)
			}
		}
		if y < n-1 {
			z, v, err := findMin(y)
			if err != nil {
				return nil, err
			}
			if z >= 0 {
				neighbor[y], minDist[y] = int32(z), v
				h.change(y, v)
			}
		}
	}
	progress(n - 1)
	return t, nil
}
