package neighbors

// heap is a bounded max-heap of candidates under (d², index): the root is
// the worst kept pair. Offering pairs in any order keeps the cap smallest.
type heap struct {
	cap int
	nb  []Neighbor
}

// worse reports whether a ranks after b in (d², index) order.
func worse(a, b Neighbor) bool {
	return a.D2 > b.D2 || (a.D2 == b.D2 && a.Index > b.Index)
}

// full reports whether the heap holds cap pairs.
func (h *heap) full() bool { return len(h.nb) == h.cap }

// top is the worst kept squared distance (valid when full).
func (h *heap) top() float64 { return h.nb[0].D2 }

// limit is the largest squared distance a pair can have and still rank
// among the cap nearest: the worst kept one when full, else +Inf.
func (h *heap) limit() float64 {
	if len(h.nb) == h.cap {
		return h.nb[0].D2
	}
	return inf
}

// offer keeps c if it ranks before the worst kept pair or the heap is not
// full.
func (h *heap) offer(c Neighbor) {
	if len(h.nb) < h.cap {
		h.nb = append(h.nb, c)
		h.up(len(h.nb) - 1)
		return
	}
	if worse(h.nb[0], c) {
		h.nb[0] = c
		h.down(0)
	}
}

func (h *heap) up(j int) {
	nb := h.nb
	for j > 0 {
		p := (j - 1) / 2
		if !worse(nb[j], nb[p]) {
			return
		}
		nb[j], nb[p] = nb[p], nb[j]
		j = p
	}
}

func (h *heap) down(j int) {
	nb := h.nb
	n := len(nb)
	for {
		l := 2*j + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && worse(nb[r], nb[l]) {
			c = r
		}
		if !worse(nb[c], nb[j]) {
			return
		}
		nb[j], nb[c] = nb[c], nb[j]
		j = c
	}
}

// sortAsc orders the kept pairs by (d², index) ascending (heap sort in
// place: pop the worst to the end).
func (h *heap) sortAsc() {
	nb := h.nb
	for end := len(nb) - 1; end > 0; end-- {
		nb[0], nb[end] = nb[end], nb[0]
		(&heap{nb: nb[:end]}).down(0)
	}
}

// sqDistBound returns distance.SqDist(x, y) (one accumulator, index order)
// or, once a partial sum exceeds bound, some value > bound. Partial sums of
// squares never decrease, so the candidate is rejected either way.
func sqDistBound(x, y []float64, bound float64) float64 {
	y = y[:len(x)]
	var s float64
	for t := 0; t < len(x); {
		end := min(t+8, len(x))
		for ; t < end; t++ {
			u := x[t] - y[t]
			s += float64(u * u) // explicit conversion: no fused multiply-add
		}
		if s > bound {
			return s
		}
	}
	return s
}

// scan offers the rows p0..p1-1 of the row-major data (row p has index p),
// except row ex, as neighbours of x.
func (h *heap) scan(data []float64, d, p0, p1 int, x []float64, ex int32) {
	for p := p0; p < p1; p++ {
		if int32(p) == ex {
			continue
		}
		y := data[p*d : p*d+d]
		lim := h.limit()
		if s := sqDistBound(x, y, lim); s <= lim {
			h.offer(Neighbor{s, int32(p)})
		}
	}
}
