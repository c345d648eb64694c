package propagate

import (
	"context"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// kdTree is a k-d tree over the rows of a row-major n×d matrix for exact
// k-nearest-neighbour queries in low dimension (used for the kNN affinity;
// O(n log n) per build, about O(log n) per query for small d).
type kdTree struct {
	data  []float64
	d     int
	idx   []int32 // permutation of the points; node ranges index into it
	nodes []kdNode
}

type kdNode struct {
	lo, hi      int // idx[lo:hi]
	left, right int // children (-1 for a leaf)
	dim         int
	split       float64
	bmin, bmax  []float64 // bounding box
}

const kdLeaf = 16

func newKDTree(data []float64, n, d int) *kdTree {
	t := &kdTree{data: data, d: d, idx: make([]int32, n)}
	for i := range t.idx {
		t.idx[i] = int32(i)
	}
	t.build(0, n)
	return t
}

func (t *kdTree) build(lo, hi int) int {
	d := t.d
	bmin := make([]float64, d)
	bmax := make([]float64, d)
	for k := 0; k < d; k++ {
		bmin[k], bmax[k] = math.Inf(1), math.Inf(-1)
	}
	for _, p := range t.idx[lo:hi] {
		x := t.data[int(p)*d : int(p)*d+d]
		for k, v := range x {
			bmin[k] = min(bmin[k], v)
			bmax[k] = max(bmax[k], v)
		}
	}
	id := len(t.nodes)
	t.nodes = append(t.nodes, kdNode{lo: lo, hi: hi, left: -1, right: -1, bmin: bmin, bmax: bmax})
	if hi-lo <= kdLeaf {
		return id
	}
	dim, wid := 0, -1.0
	for k := 0; k < d; k++ {
		if w := bmax[k] - bmin[k]; w > wid {
			dim, wid = k, w
		}
	}
	if wid <= 0 {
		return id // all points equal
	}
	s := t.idx[lo:hi]
	sort.Slice(s, func(a, b int) bool {
		va, vb := t.data[int(s[a])*d+dim], t.data[int(s[b])*d+dim]
		return va < vb || (va == vb && s[a] < s[b])
	})
	mid := lo + (hi-lo)/2
	l := t.build(lo, mid)
	r := t.build(mid, hi)
	nd := &t.nodes[id]
	nd.left, nd.right, nd.dim = l, r, dim
	nd.split = t.data[int(t.idx[mid])*d+dim]
	return id
}

// boxDist2 is the squared distance from x to the node's bounding box.
func (t *kdTree) boxDist2(nd *kdNode, x []float64) float64 {
	s := 0.0
	for k, v := range x {
		if v < nd.bmin[k] {
			u := nd.bmin[k] - v
			s += u * u
		} else if v > nd.bmax[k] {
			u := v - nd.bmax[k]
			s += u * u
		}
	}
	return s
}

// knn fills h (a max-heap under nbLess, capacity k) with the k nearest
// points to point q by (d², index), point q itself at distance 0: the same
// set as a brute-force scan.
func (t *kdTree) knn(q, k int, h []nb) []nb {
	d := t.d
	x := t.data[q*d : q*d+d]
	h = h[:0]
	var visit func(id int)
	visit = func(id int) {
		nd := &t.nodes[id]
		if len(h) == k && t.boxDist2(nd, x) > h[0].d {
			return
		}
		if nd.left < 0 {
			for _, p := range t.idx[nd.lo:nd.hi] {
				j := int(p)
				s := 0.0
				if j != q {
					y := t.data[j*d : j*d+d]
					for a, v := range x {
						u := v - y[a]
						s += u * u
					}
				}
				c := nb{s, p}
				if len(h) < k {
					h = append(h, c)
					heapUp(h, len(h)-1)
				} else if nbLess(c, h[0]) {
					h[0] = c
					heapDown(h, 0)
				}
			}
			return
		}
		first, second := nd.left, nd.right
		if x[nd.dim] >= nd.split {
			first, second = second, first
		}
		visit(first)
		visit(second)
	}
	visit(0)
	return h
}

// knnGraphTree is knnGraph for points, with a k-d tree.
func knnGraphTree(ctx context.Context, data []float64, n, d, k int) (*graph, error) {
	t := newKDTree(data, n, d)
	col := make([]int32, n*k)
	err := parallel.Chunks(ctx, n, 64, func(i0, i1 int) {
		h := make([]nb, 0, k)
		for i := i0; i < i1; i++ {
			h = t.knn(i, k, h)
			cs := col[i*k : (i+1)*k]
			for a := range h {
				cs[a] = h[a].j
			}
			sortInt32(cs)
		}
	})
	if err != nil {
		return nil, err
	}
	return csrOnes(n, k, col), nil
}

func sortInt32(cs []int32) {
	for a := 1; a < len(cs); a++ {
		for b := a; b > 0 && cs[b] < cs[b-1]; b-- {
			cs[b], cs[b-1] = cs[b-1], cs[b]
		}
	}
}

func csrOnes(n, k int, col []int32) *graph {
	ptr := make([]int, n+1)
	for i := range ptr {
		ptr[i] = i * k
	}
	val := make([]float64, n*k)
	for i := range val {
		val[i] = 1
	}
	return &graph{n: n, ptr: ptr, col: col, val: val}
}
