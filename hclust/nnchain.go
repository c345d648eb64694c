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
// Each merge costs one Lance–Williams update of a row and a column, each
// chain step one contiguous row scan; with at most 3n chain steps the total
// is O(n²). Dead clusters' columns are set to +Inf so that scans need no
// bookkeeping, and whenever half the rows are dead the matrix is compacted
// in place (keeping index order), which halves later scans.
func nnChain(ctx context.Context, sq *square, m Method) ([]rawMerge, error) {
	n := sq.n
	d := sq.d
	P := n // physical dimension (row stride) of d
	orig := make([]int32, n)
	size := make([]int32, n)
	act := make([]int32, n) // live physical indices, increasing
	for i := range orig {
		orig[i] = int32(i)
		size[i] = 1
		act[i] = int32(i)
	}
	chain := make([]int32, 0, n)
	raw := make([]rawMerge, 0, n-1)
	newpos := make([]int32, n)
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if len(chain) == 0 {
			chain = append(chain, act[0])
		}
		var x, y int
		var h float64
		for {
			x = int(chain[len(chain)-1])
			row := d[x*P : x*P+P]
			mv, mi := argminFirst(row)
			if len(chain) > 1 {
				prev := int(chain[len(chain)-2])
				if row[prev] <= mv {
					y, h = prev, row[prev]
					break
				}
			}
			if mi < 0 {
				return nil, errOverflow()
			}
			chain = append(chain, int32(mi))
		}
		chain = chain[:len(chain)-2]
		if x > y {
			x, y = y, x
		}
		nx, ny := size[x], size[y]
		raw = append(raw, rawMerge{a: orig[x], b: orig[y], h: h})
		size[x] = 0
		size[y] = nx + ny
		if !updateRows(d, P, act, size, x, y, h, nx, ny, m) {
			return nil, errOverflow()
		}
		// drop x from act
		for j, p := range act {
			if int(p) == x {
				act = append(act[:j], act[j+1:]...)
				break
			}
		}
		if len(act) >= 2 && 2*len(act) <= P && P >= 2*tile {
			for r, p := range act {
				newpos[p] = int32(r)
			}
			Q := len(act)
			for r, p := range act {
				src := d[int(p)*P:]
				dst := d[r*Q : r*Q+Q]
				for c, q := range act {
					dst[c] = src[q]
				}
			}
			d = d[:Q*Q]
			for r, p := range act {
				orig[r] = orig[p]
				size[r] = size[p]
			}
			orig, size = orig[:Q], size[:Q]
			for j, p := range chain {
				chain[j] = newpos[p]
			}
			for r := range act {
				act[r] = int32(r)
			}
			P = Q
		}
	}
	return raw, nil
}

// argminFirst returns the smallest value in row and the first index where
// it occurs (−1 if no value is below +Inf). Four interleaved minima break the
// dependency chain; combining them by (value, index) keeps "first index".
func argminFirst(row []float64) (float64, int) {
	inf := math.Inf(1)
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
	// the tail went into lane 0 with larger indices than lanes 1..3 may
	// hold, so compare (value, index) pairs explicitly
	best, bi := b0, i0
	for _, c := range [3]struct {
		v float64
		i int
	}{{b1, i1}, {b2, i2}, {b3, i3}} {
		if c.v < best || (c.v == best && c.i >= 0 && c.i < bi) {
			best, bi = c.v, c.i
		}
	}
	return best, bi
}

// updateRows applies the Lance–Williams update after merging x into y
// (x < y, sizes nx, ny, distance h): for every live i, d(i,y) ← f(d(i,x),
// d(i,y)), written to row y and column y, and column x is set to +Inf. The
// formulas are evaluated in the same order as SciPy's so that results agree
// to the bit. It reports false if an updated distance overflows.
func updateRows(d []float64, P int, act, size []int32, x, y int, h float64, nx, ny int32, m Method) bool {
	inf := math.Inf(1)
	rx := d[x*P : x*P+P]
	ry := d[y*P : y*P+P]
	fx, fy := float64(nx), float64(ny)
	fxy := float64(nx + ny)
	ok := true
	for _, p := range act {
		i := int(p)
		if i == x || i == y {
			continue
		}
		dxi, dyi := rx[i], ry[i]
		var v float64
		switch m {
		case Complete:
			v = dxi
			if dyi > v {
				v = dyi
			}
		case Average:
			v = (float64(fx*dxi) + float64(fy*dyi)) / fxy
		case Weighted:
			v = 0.5 * (dxi + dyi)
		case Ward:
			ni := size[i]
			t := 1.0 / float64(nx+ny+ni)
			v = float64(float64(float64(float64(ni+nx)*t)*dxi)*dxi) +
				float64(float64(float64(float64(ni+ny)*t)*dyi)*dyi)
			v = sqrtClamp(v - float64(float64(float64(float64(ni)*t)*h)*h))
		case Single:
			v = dxi
			if dyi < v {
				v = dyi
			}
		default:
			panic("hclust: nnChain on a non-reducible method")
		}
		ok = ok && v <= math.MaxFloat64
		ry[i] = v
		row := d[i*P : i*P+P]
		row[y] = v
		row[x] = inf
	}
	ry[x] = inf
	return ok
}

// sqrtClamp is math.Sqrt with a negative argument (rounding error on
// near-duplicate points, where SciPy returns NaN) taken as 0.
func sqrtClamp(v float64) float64 {
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}
