package hclust

import (
	"context"
	"math"

	"github.com/arbor-ml/arbor/distance"
)

// ctxEvery is how many merges pass between two ctx.Err() checks.
const ctxEvery = 256

// primCondensed is single linkage by Prim's algorithm (the order SciPy's
// mst_single_linkage uses): start at observation 0; at each step every
// observation outside the tree lowers its key to its distance from the last
// added one x, and the first observation (lowest index) with the smallest
// key joins, recorded as the pair (x, y) at that key. Sorting these n−1
// pairs by key gives the single-linkage dendrogram: for every threshold t,
// Prim visits each component of the graph {d ≤ t} as one contiguous run.
//
// Row x of the distance matrix is low[x(x−1)/2 : ...] for columns < x and
// the condensed row for columns > x, so each step reads two contiguous
// pieces.
func primCondensed(ctx context.Context, c, low []float64, n int) ([]rawMerge, error) {
	p := newPrim(n)
	raw := make([]rawMerge, 0, n-1)
	x := 0
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		// p.rem[:p.split] < x < p.rem[p.split:]
		coff := condRow(n, x) - x - 1
		rem, key := p.rem, p.key[:len(p.rem)]
		best, bj := primUpdate(low[x*(x-1)/2:], rem[:p.split], key[:p.split])
		var crow []float64
		if coff >= 0 {
			crow = c[coff:]
		} else { // x = 0: row 0 starts at c[0] = d(0, 1)
			crow = append([]float64{0}, c[:n-1]...)
		}
		if b2, j2 := primUpdate(crow, rem[p.split:], key[p.split:]); b2 < best {
			best, bj = b2, j2+p.split
		}
		y := int(rem[bj])
		raw = append(raw, rawMerge{a: int32(x), b: int32(y), h: best})
		p.remove(bj)
		x = y
	}
	return raw, nil
}

// primPoints is primCondensed with distances computed from the points on
// the fly: O(n²·dim) time and O(n) memory beyond the points.
func primPoints(ctx context.Context, pts []float64, n, dim int) ([]rawMerge, error) {
	p := newPrim(n)
	scratch := make([]float64, n)
	raw := make([]rawMerge, 0, n-1)
	x := 0
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		xp := pts[x*dim : x*dim+dim]
		dist := scratch[:len(p.rem)]
		euclidMany(xp, pts, dim, p.rem, dist)
		best, bj := primUpdateDense(dist, p.key[:len(p.rem)])
		if !(best <= math.MaxFloat64) || hasOverflow(dist) {
			return nil, errOverflow()
		}
		y := int(p.rem[bj])
		raw = append(raw, rawMerge{a: int32(x), b: int32(y), h: best})
		p.remove(bj)
		x = y
	}
	return raw, nil
}

// prim holds the observations outside the tree in increasing order with
// their keys (distance to the tree).
type prim struct {
	rem   []int32
	key   []float64
	split int // rem[:split] are below the last added observation
}

func newPrim(n int) *prim {
	p := &prim{rem: make([]int32, n-1), key: make([]float64, n-1)}
	for i := range p.rem {
		p.rem[i] = int32(i + 1)
		p.key[i] = math.Inf(1)
	}
	return p
}

// remove deletes position j; the removed observation becomes the next x, so
// the entries before j are exactly those below it.
func (p *prim) remove(j int) {
	copy(p.rem[j:], p.rem[j+1:])
	copy(p.key[j:], p.key[j+1:len(p.rem)])
	p.rem = p.rem[:len(p.rem)-1]
	p.split = j
}

// primUpdate lowers key[j] to row[idx[j]] and returns the smallest key and
// its first position. Two interleaved minima break the dependency chain;
// they are combined by (value, position), which keeps "first position".
func primUpdate(row []float64, idx []int32, key []float64) (float64, int) {
	key = key[:len(idx)]
	inf := math.Inf(1)
	b0, b1 := inf, inf
	j0, j1 := -1, -1
	j := 0
	for ; j+2 <= len(idx); j += 2 {
		k0 := key[j]
		if d := row[idx[j]]; d < k0 {
			k0 = d
			key[j] = d
		}
		k1 := key[j+1]
		if d := row[idx[j+1]]; d < k1 {
			k1 = d
			key[j+1] = d
		}
		if k0 < b0 {
			b0, j0 = k0, j
		}
		if k1 < b1 {
			b1, j1 = k1, j+1
		}
	}
	if j < len(idx) {
		k0 := key[j]
		if d := row[idx[j]]; d < k0 {
			k0 = d
			key[j] = d
		}
		if k0 < b0 {
			b0, j0 = k0, j
		}
	}
	if b1 < b0 || (b1 == b0 && j1 >= 0 && j1 < j0) {
		return b1, j1
	}
	return b0, j0
}

// euclidMany sets out[j] to the Euclidean distance between x and point
// idx[j] of the row-major matrix pts. Four distances are summed in lockstep
// (each in pdist's order, so every value is bit-identical to
// distance.Dist) to overlap the latency of the dependent additions.
func euclidMany(x, pts []float64, dim int, idx []int32, out []float64) {
	out = out[:len(idx)]
	x = x[:dim]
	j := 0
	for ; j+4 <= len(idx); j += 4 {
		p0 := pts[int(idx[j])*dim:][:dim]
		p1 := pts[int(idx[j+1])*dim:][:dim]
		p2 := pts[int(idx[j+2])*dim:][:dim]
		p3 := pts[int(idx[j+3])*dim:][:dim]
		var s0, s1, s2, s3 float64
		for k, v := range x {
			t0, t1, t2, t3 := v-p0[k], v-p1[k], v-p2[k], v-p3[k]
			s0 += float64(t0 * t0)
			s1 += float64(t1 * t1)
			s2 += float64(t2 * t2)
			s3 += float64(t3 * t3)
		}
		out[j], out[j+1], out[j+2], out[j+3] = math.Sqrt(s0), math.Sqrt(s1), math.Sqrt(s2), math.Sqrt(s3)
	}
	for ; j < len(idx); j++ {
		out[j] = distance.Dist(x, pts[int(idx[j])*dim:][:dim])
	}
}

// primUpdateDense lowers key[j] to d[j] and returns the smallest key and
// its first position.
func primUpdateDense(d, key []float64) (float64, int) {
	key = key[:len(d)]
	inf := math.Inf(1)
	b0, b1 := inf, inf
	j0, j1 := -1, -1
	j := 0
	for ; j+2 <= len(d); j += 2 {
		k0, k1 := key[j], key[j+1]
		if d[j] < k0 {
			k0 = d[j]
			key[j] = k0
		}
		if d[j+1] < k1 {
			k1 = d[j+1]
			key[j+1] = k1
		}
		if k0 < b0 {
			b0, j0 = k0, j
		}
		if k1 < b1 {
			b1, j1 = k1, j+1
		}
	}
	if j < len(d) {
		k0 := key[j]
		if d[j] < k0 {
			k0 = d[j]
			key[j] = k0
		}
		if k0 < b0 {
			b0, j0 = k0, j
		}
	}
	if b1 < b0 || (b1 == b0 && j1 >= 0 && j1 < j0) {
		return b1, j1
	}
	return b0, j0
}

// hasOverflow reports whether some distance is +Inf (the coordinates were
// finite, so their difference or its square overflowed).
func hasOverflow(d []float64) bool {
	for _, v := range d {
		if v > math.MaxFloat64 {
			return true
		}
	}
	return false
}
