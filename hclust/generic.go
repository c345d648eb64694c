package hclust

import (
	"context"
	"math"
)

// generic is Müllner's generic clustering algorithm (arXiv:1109.2378,
// Fig. 2), the one SciPy's fast_linkage uses for Centroid and Median, in
// the same order so that ties resolve identically. Every cluster x keeps a
// candidate nearest neighbour among higher indices and a lower bound of its
// distance; a binary heap over these bounds yields the closest pair after
// lazily refreshing stale candidates. Merges come out in the order they
// happen (no sort: these methods are not monotone). O(n²) typical, O(n³)
// worst-case time.
func generic[E float](ctx context.Context, sq *square[E], m Method) (*Tree, error) {
	n := sq.n
	d := sq.d
	size := make([]int32, n)
	id := make([]int32, n)
	for i := range size {
		size[i] = 1
		id[i] = int32(i)
	}
	neighbor := make([]int32, n-1)
	minDist := make([]float64, n-1)
	// findMin is the nearest live cluster above x (first index on ties).
	findMin := func(x int) (int, float64) {
		row := d[x*n : x*n+n]
		best, y := E(math.Inf(1)), -1
		for i := x + 1; i < n; i++ {
			if size[i] != 0 && row[i] < best {
				best, y = row[i], i
			}
		}
		return y, float64(best)
	}
	for x := 0; x < n-1; x++ {
		y, v := findMin(x)
		if y < 0 {
			return nil, errOverflow()
		}
		neighbor[x], minDist[x] = int32(y), v
	}
	h := newIndexHeap(minDist)
	t := &Tree{N: n, Merges: make([]Merge, n-1)}
	for k := 0; k < n-1; k++ {
		if k%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		var x, y int
		var dist float64
		for i := 0; i < n-k; i++ {
			x, dist = h.min()
			y = int(neighbor[x])
			if dist == float64(d[x*n+y]) {
				break
			}
			y, dist = findMin(x)
			if y < 0 {
				return nil, errOverflow()
			}
			neighbor[x], minDist[x] = int32(y), dist
			h.change(x, dist)
		}
		h.removeMin()
		nx, ny := size[x], size[y]
		a, b := id[x], id[y]
		if a > b {
			a, b = b, a
		}
		t.Merges[k] = Merge{A: int(a), B: int(b), Height: dist, Size: int(nx + ny)}
		size[x] = 0
		size[y] = nx + ny
		id[y] = int32(n + k)
		// Lance–Williams update of row and column y
		fx, fy := float64(nx), float64(ny)
		fxy := float64(nx + ny)
		cxy := float64(float64(int64(nx)*int64(ny))*dist) * dist / fxy
		for z := 0; z < n; z++ {
			if size[z] == 0 || z == y {
				continue
			}
			dzx, dzy := float64(d[z*n+x]), float64(d[z*n+y])
			var v float64
			if m == Centroid {
				v = sqrtClamp((float64(float64(fx*dzx)*dzx) + float64(float64(fy*dzy)*dzy) - cxy) / fxy)
			} else {
				v = sqrtClamp(float64(0.5*(float64(dzx*dzx)+float64(dzy*dzy))) - float64(float64(0.25*dist)*dist))
			}
			ev := E(v) // float32 storage: rounded once
			if !(float64(ev) <= math.MaxFloat64) {
				return nil, errOverflow()
			}
			d[z*n+y] = ev
			d[y*n+z] = ev
		}
		for z := 0; z < x; z++ {
			if size[z] > 0 && int(neighbor[z]) == x {
				neighbor[z] = int32(y)
			}
		}
		for z := 0; z < y; z++ {
			if size[z] == 0 {
				continue
			}
			if v := float64(d[z*n+y]); v < minDist[z] {
				neighbor[z], minDist[z] = int32(y), v
				h.change(z, v)
			}
		}
		if y < n-1 {
			if z, v := findMin(y); z >= 0 {
				neighbor[y], minDist[y] = int32(z), v
				h.change(y, v)
			}
		}
	}
	return t, nil
}

// indexHeap is a binary min-heap of values keyed 0..n−1 with change-key.
// Ties follow the textbook rules (sift up past strictly larger parents,
// prefer the left child unless the right one is strictly smaller, sift down
// below strictly smaller children), which decides which of two equal
// candidates pops first.
type indexHeap struct {
	val []float64 // by heap position
	key []int32   // key at heap position
	pos []int32   // heap position of key
}

func newIndexHeap(v []float64) *indexHeap {
	h := &indexHeap{val: append([]float64(nil), v...), key: make([]int32, len(v)), pos: make([]int32, len(v))}
	for i := range v {
		h.key[i], h.pos[i] = int32(i), int32(i)
	}
	for i := len(v)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h
}

func (h *indexHeap) min() (int, float64) { return int(h.key[0]), h.val[0] }

func (h *indexHeap) removeMin() {
	last := len(h.val) - 1
	h.swap(0, last)
	h.val, h.key = h.val[:last], h.key[:last]
	h.down(0)
}

func (h *indexHeap) change(k int, v float64) {
	i := int(h.pos[k])
	old := h.val[i]
	h.val[i] = v
	if v < old {
		h.up(i)
	} else {
		h.down(i)
	}
}

func (h *indexHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !(h.val[p] > h.val[i]) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *indexHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h.val) {
			return
		}
		if c+1 < len(h.val) && h.val[c+1] < h.val[c] {
			c++
		}
		if !(h.val[i] > h.val[c]) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

func (h *indexHeap) swap(i, j int) {
	h.val[i], h.val[j] = h.val[j], h.val[i]
	h.key[i], h.key[j] = h.key[j], h.key[i]
	h.pos[h.key[i]] = int32(i)
	h.pos[h.key[j]] = int32(j)
}
