package hclust

import (
	"context"
	"math"
)

// nnChain is the nearest-neighbour chain algorithm for reducible linkages
// (Müllner 2011, arXiv:1109.2378, Fig. 3), in the exact order of SciPy's
// nn_chain so that ties resolve identically:
//
//   - an empty chain restarts at the active cluster with the lowest index;
//   - the nearest neighbour of the chain's tip x is the previous chain
//     element if no other cluster is strictly closer, otherwise the first
//     (lowest index) cluster at the minimum distance;
//   - when x and the previous element are reciprocal nearest neighbours they
//     merge; the cluster with the larger index holds the union.
//
// Memory layout. The working matrix is square so that every scan reads one
// contiguous row, with +Inf on the diagonal and in the columns of dead
// clusters, so a scan is a plain arg-min. Only rows are written: merging x
// into y rewrites row y by the Lance–Williams update (one contiguous pass)
// and leaves column y stale in the other rows. Each row r remembers up to
// which merge it is exact (fresh[r]); before row r is scanned or used in an
// update, the merges since then are replayed on it: the columns of clusters
// that died become +Inf and the entries of clusters born since are copied
// from those clusters' own rows. Rows that are never scanned again are
// never repaired, which removes most of the strided column traffic of the
// textbook update (one cache miss per live cluster per merge). When half of
// the rows are dead the matrix is compacted in place, keeping index order
// (so ties still resolve by index) and halving later scans.
//
// Time O(n²) (at most 3n chain steps, each a row scan; each merge one row
// update), memory the n×n matrix plus O(n).
func nnChain[E float](ctx context.Context, sq *square[E], m Method) ([]rawMerge, error) {
	n := sq.n
	s := &chain[E]{
		d:     sq.d,
		P:     n,
		orig:  make([]int32, n),
		size:  make([]int32, n),
		born:  make([]int32, n),
		fresh: make([]int32, n),
		birth: make([]int32, 0, n),
		death: make([]int32, 0, n),
		buf:   make([]int32, 0, n),
	}
	for i := range s.orig {
		s.orig[i] = int32(i)
		s.size[i] = 1
		if sq.sizes != nil {
			s.size[i] = sq.sizes[i]
		}
	}
	live := n
	first := 0 // lowest live position
	stack := make([]int32, 0, n)
	raw := make([]rawMerge, 0, n-1)
	newpos := make([]int32, n)
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if len(stack) == 0 {
			for s.size[first] == 0 {
				first++
			}
			stack = append(stack, int32(first))
		}
		var x, y int
		var h float64
		for {
			x = int(stack[len(stack)-1])
			mv, mi := s.scan(x)
			row := s.row(x)
			if len(stack) > 1 {
				prev := int(stack[len(stack)-2])
				if row[prev] <= mv {
					y, h = prev, float64(row[prev])
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
		raw = append(raw, rawMerge{a: s.orig[x], b: s.orig[y], h: h})
		s.merge(x, y, h, m)
		live--
		if live >= 2 && 2*live <= s.P && s.P >= 2*tile {
			s.compact(newpos)
			first = 0
			for j, p := range stack {
				stack[j] = newpos[p]
			}
		}
	}
	for _, r := range raw {
		if !(r.h <= math.MaxFloat64) {
			return nil, errOverflow()
		}
	}
	return raw, nil
}

// chain is the state of nnChain. Times count merges: leaves are born at 0,
// merge t (1-based) kills one cluster and creates one born at t.
type chain[E float] struct {
	d     []E // P×P, row-major; +Inf on the diagonal and dead columns
	P     int
	orig  []int32 // position → original (leaf) index of the cluster's representative
	size  []int32 // position → cluster size (0 once dead)
	born  []int32 // position → time the cluster there was created
	fresh []int32 // position → row is exact up to this time
	birth []int32 // birth[t−1] = position of the cluster born at t (−1 once replaced or dead)
	death []int32 // death[t−1] = position of the cluster that died at t (−1 after compaction)
	buf   []int32 // scratch for repair
}

func (s *chain[E]) now() int32 { return int32(len(s.birth)) }

// row returns row r of the working matrix.
func (s *chain[E]) row(r int) []E { return s.d[r*s.P : r*s.P+s.P] }

// scan repairs row x and returns its minimum and the first index of it.
func (s *chain[E]) scan(x int) (E, int) {
	s.repair(x)
	return argminFirst(s.row(x))
}

// repair makes row r exact by replaying the merges since fresh[r]. The
// born clusters are listed first so that the strided gather runs without
// branches and its cache misses overlap.
func (s *chain[E]) repair(r int) {
	now := s.now()
	f := s.fresh[r]
	if f == now {
		return
	}
	P := s.P
	row := s.d[r*P : r*P+P]
	inf := E(math.Inf(1))
	for _, j := range s.death[f:now] {
		if j >= 0 {
			row[j] = inf
		}
	}
	buf := s.buf[:0]
	for _, j := range s.birth[f:now] {
		if j >= 0 {
			buf = append(buf, j)
		}
	}
	col := s.d[r:]
	for _, j := range buf {
		row[j] = col[int(j)*P]
	}
	s.buf = buf
	s.fresh[r] = now
}

// merge joins x and y (x < y) at distance h into position y: row y gets the
// Lance–Williams update, evaluated in the same order as SciPy's formulas so
// that results agree to the bit. The pass runs over the whole row: dead
// columns hold +Inf in both input rows and every formula maps (+Inf, +Inf)
// to +Inf, so they stay dead.
func (s *chain[E]) merge(x, y int, h float64, m Method) {
	P := s.P
	rx := s.d[x*P : x*P+P]
	ry := s.d[y*P : y*P+P]
	nx, ny := s.size[x], s.size[y]
	s.repair(x)
	s.repair(y)
	lanceWilliams(m, rx, ry, s.size[:P], nx, ny, h)
	inf := E(math.Inf(1))
	ry[x], ry[y] = inf, inf
	s.size[x] = 0
	s.size[y] = nx + ny
	// x dies; y's previous cluster is replaced by the union born now
	if b := s.born[x]; b > 0 {
		s.birth[b-1] = -1
	}
	if b := s.born[y]; b > 0 {
		s.birth[b-1] = -1
	}
	s.birth = append(s.birth, int32(y))
	s.death = append(s.death, int32(x))
	s.born[y] = s.now()
	s.fresh[y] = s.now()
}

// lanceWilliams sets ry[i] to the distance between cluster i and the union
// of x and y (sizes nx, ny, distance h), from rx[i] = d(x,i), ry[i] = d(y,i)
// and size[i] = |i|, with SciPy's formulas evaluated in SciPy's order
// (explicit conversions forbid fused multiply-adds), so results agree to the
// bit. With float32 storage each update is computed in float64 from the
// stored values and rounded once.
func lanceWilliams[E float](m Method, rx, ry []E, size []int32, nx, ny int32, h float64) {
	ry = ry[:len(rx)]
	fx, fy := float64(nx), float64(ny)
	fxy := float64(nx + ny)
	switch m {
	case Complete:
		for i, dxi := range rx {
			ry[i] = max(dxi, ry[i])
		}
	case Average:
		for i, dxi := range rx {
			ry[i] = E((float64(fx*float64(dxi)) + float64(fy*float64(ry[i]))) / fxy)
		}
	case Weighted:
		for i, dxi := range rx {
			ry[i] = E(0.5 * (float64(dxi) + float64(ry[i])))
		}
	case Single:
		for i, dxi := range rx {
			ry[i] = min(dxi, ry[i])
		}
	case Ward:
		size = size[:len(rx)]
		for i, e := range rx {
			dxi, dyi := float64(e), float64(ry[i])
			ni := size[i]
			t := 1.0 / float64(nx+ny+ni)
			v := float64(float64(float64(float64(ni+nx)*t)*dxi)*dxi) +
				float64(float64(float64(float64(ni+ny)*t)*dyi)*dyi)
			ry[i] = E(sqrtClamp(v - float64(float64(float64(float64(ni)*t)*h)*h)))
		}
	default:
		panic("hclust: nnChain on a non-reducible method")
	}
}

// compact drops the dead rows and columns in place, keeping order;
// newpos[old] receives the new position of each live cluster.
func (s *chain[E]) compact(newpos []int32) {
	P := s.P
	live := s.buf[:0]
	for p := 0; p < P; p++ {
		if s.size[p] != 0 {
			newpos[p] = int32(len(live))
			live = append(live, int32(p))
		}
	}
	Q := len(live)
	// destination offsets never exceed source offsets, and both increase
	for r, p := range live {
		src := s.d[int(p)*P:]
		dst := s.d[r*Q : r*Q+Q]
		for c, q := range live {
			dst[c] = src[q]
		}
	}
	s.d = s.d[:Q*Q]
	for t, j := range s.birth {
		if j >= 0 {
			s.birth[t] = newpos[j]
		}
	}
	for t := range s.death {
		s.death[t] = -1
	}
	for r, p := range live {
		s.orig[r] = s.orig[p]
		s.size[r] = s.size[p]
		s.born[r] = s.born[p]
		s.fresh[r] = s.fresh[p]
	}
	s.orig, s.size, s.born, s.fresh = s.orig[:Q], s.size[:Q], s.born[:Q], s.fresh[:Q]
	s.P = Q
}

// argminFirst returns the smallest value in row and the first index where
// it occurs (−1 if no value is below +Inf). Four interleaved minima break the
// dependency chain; combining them by (value, index) keeps "first index".
func argminFirst[E float](row []E) (E, int) {
	inf := E(math.Inf(1))
	b0, b1, b2, b3 := inf, inf, inf, inf
	i0, i1, i2, i3 := -1, -1, -1, -1
	i := 0
	for ; i+4 <= len(row); i += 4 {
		r := row[i : i+4 : i+4]
		if r[0] < b0 {
			b0, i0 = r[0], i
		}
		if r[1] < b1 {
			b1, i1 = r[1], i+1
		}
		if r[2] < b2 {
			b2, i2 = r[2], i+2
		}
		if r[3] < b3 {
			b3, i3 = r[3], i+3
		}
	}
	for ; i < len(row); i++ {
		if row[i] < b0 {
			b0, i0 = row[i], i
		}
	}
	best, bi := b0, i0
	for _, c := range [3]struct {
		v E
		i int
	}{{b1, i1}, {b2, i2}, {b3, i3}} {
		if c.v < best || (c.v == best && c.i >= 0 && c.i < bi) {
			best, bi = c.v, c.i
		}
	}
	return best, bi
}

// sqrtClamp is math.Sqrt with a negative argument (rounding error on
// near-duplicate points, where SciPy returns NaN) taken as 0.
func sqrtClamp(v float64) float64 {
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}
