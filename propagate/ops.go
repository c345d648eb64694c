package propagate

import (
	"context"
	"math"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// mul sets y_i = Σ_j W_ij·x_j (x, y: n×C row-major) for the rows i with
// on[i], in parallel over rows (each row summed in a fixed order by one
// goroutine: deterministic for any GOMAXPROCS). Rows with !on[i] are left
// untouched.
func (g *graph) mul(ctx context.Context, y, x []float64, C int, on []bool) error {
	n := g.n
	chunk := 16
	if !g.isDense() {
		chunk = 1024
	}
	// Four or more columns: the vector kernel takes them four at a time
	// (x's columns copied in groups of four, the last padded with zeros).
	vec4 := C >= 4 && g.dense != nil && g.sym
	var groups [][]float64
	if vec4 && C > 4 {
		for c0 := 0; c0 < C; c0 += 4 {
			p := make([]float64, 4*n)
			for j := range n {
				copy(p[4*j:4*j+4], x[j*C+c0:j*C+min(c0+4, C)])
			}
			groups = append(groups, p)
		}
	} else if vec4 {
		groups = [][]float64{x}
	}
	return parallel.Chunks(ctx, n, chunk, func(i0, i1 int) {
		var acc [8]float64
		if vec4 && i1-i0 == 16 && g.mulCols4(y, groups, C, i0, on) {
			return
		}
		if C == 3 && g.dense != nil && g.sym && i1-i0 == 16 {
			// Sixteen rows at once, read as columns of W = Wᵀ: each
			// sum is dot3's (from 0, j increasing, every product and
			// sum rounded), in vector lanes.
			var acc3 [3][16]float64
			if symCols3(g.dense, n, i0, x, &acc3) {
				for r := range 16 {
					if i := i0 + r; on[i] {
						y[3*i], y[3*i+1], y[3*i+2] = acc3[0][r], acc3[1][r], acc3[2][r]
					}
				}
				return
			}
		}
		for i := i0; i < i1; i++ {
			if !on[i] {
				continue
			}
			yi := y[i*C : (i+1)*C]
			if g.dense32 != nil {
				mulRow(g.dense32[i*n:(i+1)*n], x, yi, &acc)
				continue
			}
			if g.dense == nil {
				cols, vals := g.col[g.ptr[i]:g.ptr[i+1]], g.val[g.ptr[i]:g.ptr[i+1]]
				if C == 1 {
					a := 0.0
					for t, j := range cols {
						a += vals[t] * x[j]
					}
					yi[0] = a
					continue
				}
				if C == 2 {
					a, b := 0.0, 0.0
					for t, j := range cols {
						a += vals[t] * x[2*int(j)]
						b += vals[t] * x[2*int(j)+1]
					}
					yi[0], yi[1] = a, b
					continue
				}
				for c := range yi {
					yi[c] = 0
				}
				for t, j := range cols {
					w, xj := vals[t], x[int(j)*C:int(j)*C+C]
					for c := range yi {
						yi[c] += w * xj[c]
					}
				}
				continue
			}
			mulRow(g.dense[i*n:(i+1)*n], x, yi, &acc)
		}
	})
}

// mulCols4 sets y_i for the rows i in [i0, i0+16) with on[i] by the
// eight-row vector kernel over the column groups of x (each sum from 0
// over j increasing, every product and sum rounded: mulRow's for C ≥ 4);
// it reports false, writing nothing, when the kernel is unavailable.
func (g *graph) mulCols4(y []float64, groups [][]float64, C, i0 int, on []bool) bool {
	var acc [4][8]float64
	for h := i0; h < i0+16; h += 8 {
		for gi, xg := range groups {
			if !symCols4(g.dense, g.n, h, xg, &acc) {
				return false
			}
			for r := range 8 {
				i := h + r
				if !on[i] {
					continue
				}
				for c := gi * 4; c < min(gi*4+4, C); c++ {
					y[i*C+c] = acc[c-gi*4][r]
				}
			}
		}
	}
	return true
}

// mulRow sets yi = Σ_j w_j·x_j (x: n×C row-major, C = len(yi)) for one
// dense row w of float64 or float32 weights (widened: the same sums in
// the same order as for a float64 copy of the row).
func mulRow[E float32 | float64](wi []E, x, yi []float64, acc *[8]float64) {
	C := len(yi)
	switch {
	case C == 1:
		yi[0] = dot(wi, x)
	case C == 2:
		yi[0], yi[1] = dot2(wi, x)
	case C == 3:
		yi[0], yi[1], yi[2] = dot3(wi, x)
	case C <= len(acc):
		a := acc[:C]
		for c := range a {
			a[c] = 0
		}
		for j, e := range wi {
			w := float64(e)
			xj := x[j*C : j*C+C]
			for c, v := range xj {
				a[c] += w * v
			}
		}
		copy(yi, a)
	default:
		for c := range yi {
			yi[c] = 0
		}
		for j, e := range wi {
			w := float64(e)
			xj := x[j*C : j*C+C]
			for c, v := range xj {
				yi[c] += w * v
			}
		}
	}
}

// dot is vec.Dot (the same four partial sums, combined the same way) for
// float64 or float32 weights.
func dot[E float32 | float64](w []E, x []float64) float64 {
	x = x[:len(w)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		s0 += float64(w[i]) * x[i]
		s1 += float64(w[i+1]) * x[i+1]
		s2 += float64(w[i+2]) * x[i+2]
		s3 += float64(w[i+3]) * x[i+3]
	}
	for ; i < len(w); i++ {
		s0 += float64(w[i]) * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func dot2[E float32 | float64](w []E, x []float64) (float64, float64) {
	x = x[:2*len(w)]
	var a0, a1, b0, b1 float64
	j := 0
	for ; j+2 <= len(w); j += 2 {
		w0, w1 := float64(w[j]), float64(w[j+1])
		x4 := x[2*j : 2*j+4]
		a0 += w0 * x4[0]
		b0 += w0 * x4[1]
		a1 += w1 * x4[2]
		b1 += w1 * x4[3]
	}
	for ; j < len(w); j++ {
		a0 += float64(w[j]) * x[2*j]
		b0 += float64(w[j]) * x[2*j+1]
	}
	return a0 + a1, b0 + b1
}

func dot3[E float32 | float64](w []E, x []float64) (float64, float64, float64) {
	x = x[:3*len(w)]
	var a, b, c float64
	for _, e := range w {
		wj := float64(e)
		x3 := x[:3]
		x = x[3:]
		a += wj * x3[0]
		b += wj * x3[1]
		c += wj * x3[2]
	}
	return a, b, c
}

// denseAt is W_ij of a dense graph.
func (g *graph) denseAt(i, j int) float64 {
	if g.dense32 != nil {
		return float64(g.dense32[i*g.n+j])
	}
	return g.dense[i*g.n+j]
}

// reach marks the points that can reach a labelled point along edges i→j
// with W_ij > 0 (labelled points included).
func (g *graph) reach(labeled []bool) []bool {
	n := g.n
	on := make([]bool, n)
	queue := make([]int, 0, n)
	for i, l := range labeled {
		if l {
			on[i] = true
			queue = append(queue, i)
		}
	}
	if g.isDense() && g.sym {
		left := n - len(queue) // points not yet reached
		for len(queue) > 0 && left > 0 {
			v := queue[0]
			queue = queue[1:]
			for u := 0; u < n; u++ {
				if !on[u] && g.denseAt(v, u) > 0 {
					on[u] = true
					queue = append(queue, u)
					left--
				}
			}
		}
		return on
	}
	// reverse adjacency of the sparse graph (u→v edges, indexed by v)
	cnt := make([]int, n+1)
	for u := 0; u < n; u++ {
		for t := g.ptr[u]; t < g.ptr[u+1]; t++ {
			if g.val[t] > 0 && int(g.col[t]) != u {
				cnt[g.col[t]+1]++
			}
		}
	}
	for v := 0; v < n; v++ {
		cnt[v+1] += cnt[v]
	}
	src := make([]int32, cnt[n])
	fill := append([]int(nil), cnt[:n]...)
	for u := 0; u < n; u++ {
		for t := g.ptr[u]; t < g.ptr[u+1]; t++ {
			if v := int(g.col[t]); g.val[t] > 0 && v != u {
				src[fill[v]] = int32(u)
				fill[v]++
			}
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range src[cnt[v]:cnt[v+1]] {
			if !on[u] {
				on[u] = true
				queue = append(queue, int(u))
			}
		}
	}
	return on
}

// rowSums returns Σ_{j: on[j]} W_ij for every row (the degree over the
// active points), and W_ii.
func (g *graph) rowSums(on []bool) (deg, self []float64) {
	n := g.n
	deg = make([]float64, n)
	self = make([]float64, n)
	for i := 0; i < n; i++ {
		if g.dense32 != nil {
			row := g.dense32[i*n : (i+1)*n]
			s := 0.0
			for j, w := range row {
				if on[j] {
					s += float64(w)
				}
			}
			deg[i], self[i] = s, float64(row[i])
			continue
		}
		if g.dense != nil {
			row := g.dense[i*n : (i+1)*n]
			s := 0.0
			for j, w := range row {
				if on[j] {
					s += w
				}
			}
			deg[i], self[i] = s, row[i]
			continue
		}
		s := 0.0
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			j := int(g.col[t])
			if on[j] {
				s += g.val[t]
			}
			if j == i {
				self[i] = g.val[t]
			}
		}
		deg[i] = s
	}
	return deg, self
}

// colSums returns Σ_i W_ij − W_jj for every column j (scikit-learn's
// csgraph.laplacian degree: in-degree without the self-loop).
func (g *graph) colSums() []float64 {
	n := g.n
	w := make([]float64, n)
	if g.dense32 != nil {
		// column sums in row order: deterministic
		for i := 0; i < n; i++ {
			row := g.dense32[i*n : (i+1)*n]
			for j, v := range row {
				if j != i {
					w[j] += float64(v)
				}
			}
		}
		return w
	}
	if g.dense != nil {
		// column sums in row order: deterministic
		for i := 0; i < n; i++ {
			row := g.dense[i*n : (i+1)*n]
			for j, v := range row {
				if j != i {
					w[j] += v
				}
			}
		}
		return w
	}
	for i := 0; i < n; i++ {
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			if j := int(g.col[t]); j != i {
				w[j] += g.val[t]
			}
		}
	}
	return w
}

func sumAbsDiff(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += math.Abs(v - b[i])
	}
	return s
}
