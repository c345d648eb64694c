package neighbors

import (
	"math"
	"sort"
)

var inf = math.Inf(1)

// leafSize is the largest number of points in a k-d tree leaf. Median
// splits make leaves of between leafSize/2 and leafSize points.
const leafSize = 32

// tree is a k-d tree whose points are copied in tree order: node ranges
// [lo, hi) index pts (rows) and perm (original row numbers).
type tree struct {
	d    int
	pts  []float64 // n×d, tree order
	perm []int32   // tree position → original row
	node []node
	bmin []float64 // scratch of the build: a node's bounding box
	bmax []float64
}

type node struct {
	lo, hi      int32
	left, right int32 // -1 for a leaf
	dim         int32
	split       float64
}

func buildTree(data []float64, n, d int) *tree {
	t := &tree{d: d, perm: make([]int32, n)}
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	keys := make([]key, n)
	t.node = make([]node, 0, 4*(n/leafSize+1))
	t.bmin, t.bmax = make([]float64, d), make([]float64, d)
	t.build(data, keys, 0, n)
	t.bmin, t.bmax = nil, nil
	t.pts = make([]float64, n*d)
	for p, i := range t.perm {
		copy(t.pts[p*d:p*d+d], data[int(i)*d:int(i)*d+d])
	}
	return t
}

type key struct {
	v float64
	i int32
}

func (t *tree) build(data []float64, keys []key, lo, hi int) int32 {
	d := t.d
	id := int32(len(t.node))
	t.node = append(t.node, node{lo: int32(lo), hi: int32(hi), left: -1, right: -1})
	if hi-lo <= leafSize {
		return id
	}
	bmin, bmax := t.bmin, t.bmax
	for c := range bmin {
		bmin[c], bmax[c] = inf, -inf
	}
	for _, i := range t.perm[lo:hi] {
		for c, v := range data[int(i)*d : int(i)*d+d] {
			bmin[c] = min(bmin[c], v)
			bmax[c] = max(bmax[c], v)
		}
	}
	dim, wid := 0, -1.0
	for c := range bmin {
		if w := bmax[c] - bmin[c]; w > wid {
			dim, wid = c, w
		}
	}
	if wid <= 0 {
		return id // all points equal: one (large) leaf
	}
	ks := keys[lo:hi]
	for a, i := range t.perm[lo:hi] {
		ks[a] = key{data[int(i)*d+dim], i}
	}
	mid := (hi - lo) / 2
	selectKth(ks, mid)
	for a := range ks {
		t.perm[lo+a] = ks[a].i
	}
	split := ks[mid].v
	l := t.build(data, keys, lo, lo+mid)
	r := t.build(data, keys, lo+mid, hi)
	nd := &t.node[id]
	nd.left, nd.right, nd.dim, nd.split = l, r, int32(dim), split
	return id
}

func keyLess(a, b key) bool { return a.v < b.v || (a.v == b.v && a.i < b.i) }

// selectKth reorders ks so that ks[k] is the element of rank k, smaller
// ones before it and larger ones after (quickselect, median-of-three
// pivot; deterministic). Small ranges are sorted.
func selectKth(ks []key, k int) {
	lo, hi := 0, len(ks)
	for hi-lo > 16 {
		m := lo + (hi-lo)/2
		a, b, c := lo, m, hi-1
		if keyLess(ks[b], ks[a]) {
			a, b = b, a
		}
		if keyLess(ks[c], ks[b]) {
			b = c
			if keyLess(ks[b], ks[a]) {
				b = a
			}
		}
		pivot := ks[b]
		// Three-way partition around pivot (keys are distinct: index breaks ties).
		i, j := lo, hi-1
		for i <= j {
			for keyLess(ks[i], pivot) {
				i++
			}
			for keyLess(pivot, ks[j]) {
				j--
			}
			if i <= j {
				ks[i], ks[j] = ks[j], ks[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j + 1
		case k >= i:
			lo = i
		default:
			return
		}
	}
	s := ks[lo:hi]
	sort.Slice(s, func(a, b int) bool { return keyLess(s[a], s[b]) })
}

// margin is the relative slack of the pruning test. The incremental bound
// rd (Arya & Mount's) is a sum of at most 2·depth squared gaps updated by
// additions and subtractions; along a search path the true bound never
// decreases (boxes are nested), so its rounding error is below
// 2·depth·ε·rd ≈ 1e-14·rd. A node is skipped only when rd > top·(1+margin):
// then its true bound exceeds top and no pair inside can rank among the k.
// When the true bound is 0 every gap is exactly 0 and so is rd.
const margin = 1e-9

// search offers to h every point that can rank among its cap nearest to x.
func (t *tree) search(x []float64, ex int32, h *heap) {
	var off [MaxTreeDim]float64
	t.visit(0, x, ex, h, 0, off[:t.d])
}

func (t *tree) visit(r int32, x []float64, ex int32, h *heap, rd float64, off []float64) {
	nd := &t.node[r]
	if nd.left < 0 {
		t.scanLeaf(x, int(nd.lo), int(nd.hi), ex, h)
		return
	}
	diff := x[nd.dim] - nd.split
	near, far := nd.left, nd.right
	if diff >= 0 {
		near, far = far, near
	}
	t.visit(near, x, ex, h, rd, off)
	old := off[nd.dim]
	g := diff * diff
	rdFar := rd - old + g
	// Only the O(1) bound prunes: a tight bounding-box test would prune a
	// few more points, but reading the far child's box from memory costs
	// more than scanning them (10⁶ points in d = 10: about 1.4× slower
	// with it).
	if rdFar > h.limit()*(1+margin) {
		return
	}
	off[nd.dim] = g
	t.visit(far, x, ex, h, rdFar, off)
	off[nd.dim] = old
}

// scanLeaf offers the points at tree positions lo..hi-1 (but the one with
// original row ex) to h. Four squared distances are summed side by side,
// each with its own accumulator in index order (so each equals
// distance.SqDist exactly), which lets the CPU overlap the four chains.
func (t *tree) scanLeaf(x []float64, lo, hi int, ex int32, h *heap) {
	d := len(x)
	pts, perm := t.pts, t.perm
	p := lo
	for ; p+4 <= hi; p += 4 {
		y0 := pts[p*d:][:d] // [:d] lets the compiler drop the bounds checks below
		y1 := pts[(p+1)*d:][:d]
		y2 := pts[(p+2)*d:][:d]
		y3 := pts[(p+3)*d:][:d]
		var s0, s1, s2, s3 float64
		for c, v := range x {
			u0, u1, u2, u3 := v-y0[c], v-y1[c], v-y2[c], v-y3[c]
			s0 += float64(u0 * u0) // explicit conversions: no fused multiply-add
			s1 += float64(u1 * u1)
			s2 += float64(u2 * u2)
			s3 += float64(u3 * u3)
		}
		for a, s := range [4]float64{s0, s1, s2, s3} {
			if i := perm[p+a]; i != ex && s <= h.limit() {
				h.offer(Neighbor{s, i})
			}
		}
	}
	for ; p < hi; p++ {
		if i := perm[p]; i != ex {
			lim := h.limit()
			if s := sqDistBound(x, pts[p*d:p*d+d], lim); s <= lim {
				h.offer(Neighbor{s, i})
			}
		}
	}
}
