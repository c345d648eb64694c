package sparse

import "math"

// EnvLU is the LU factorisation of a sparse matrix in envelope (skyline)
// storage, without pivoting (George & Liu, "Computer solution of large
// sparse positive definite systems", 1981, ch. 4; the nonsymmetric Doolittle
// form). L (unit lower) is stored by rows and U by columns, each from its
// first nonzero to the diagonal; fill stays inside that envelope. The
// directed kNN system L_UU is row diagonally dominant, so no pivoting is
// needed. Cost Σ_j w_j² for envelope widths w_j: with a reverse
// Cuthill–McKee order, small for thin manifolds such as two moons.
type EnvLU struct {
	m      int
	lfirst []int // first column of row j of L
	lptr   []int // row j of L: lval[lptr[j] : lptr[j+1]] = columns lfirst[j]..j-1
	lval   []float64
	ufirst []int // first row of column j of U
	uptr   []int // column j of U: uval[uptr[j] : uptr[j+1]] = rows ufirst[j]..j-1
	uval   []float64
	diag   []float64
}

// EnvelopeCost returns Σ_j w_j², w_j the envelope width of row/column j
// (about the multiply-adds of the factorisation), for the m×m matrix with
// the given adjacency (rows[i] = column indices of row i's off-diagonal
// nonzeros), and the first index of each row of L and column of U (the
// envelope is made symmetric in shape).
func EnvelopeCost(m int, rows [][]int32) (cost float64, lfirst, ufirst []int) {
	lfirst = make([]int, m)
	ufirst = make([]int, m)
	for j := 0; j < m; j++ {
		lfirst[j], ufirst[j] = j, j
	}
	for i, r := range rows {
		for _, c := range r {
			j := int(c)
			if j < i {
				lfirst[i] = min(lfirst[i], j)
			} else if j > i {
				ufirst[j] = min(ufirst[j], i)
			}
		}
	}
	// the envelope must be symmetric in shape for the dot products below to
	// cover all fill: use the union
	for j := 0; j < m; j++ {
		f := min(lfirst[j], ufirst[j])
		lfirst[j], ufirst[j] = f, f
	}
	for j := 0; j < m; j++ {
		w := float64(j - lfirst[j])
		cost += w * w
	}
	return cost, lfirst, ufirst
}

// NewEnvLU factorises the m×m matrix given by its diagonal and off-diagonal
// entries (rows[i][t] = column, vals[i][t] = value), in envelope storage with
// the given firsts (from EnvelopeCost). ok is false if a pivot vanishes.
func NewEnvLU(m int, diag []float64, rows [][]int32, vals [][]float64, lfirst, ufirst []int) (*EnvLU, bool) {
	f := &EnvLU{m: m, lfirst: lfirst, ufirst: ufirst, diag: append([]float64(nil), diag...),
		lptr: make([]int, m+1), uptr: make([]int, m+1)}
	for j := 0; j < m; j++ {
		f.lptr[j+1] = f.lptr[j] + j - lfirst[j]
		f.uptr[j+1] = f.uptr[j] + j - ufirst[j]
	}
	f.lval = make([]float64, f.lptr[m])
	f.uval = make([]float64, f.uptr[m])
	for i, r := range rows {
		for t, c := range r {
			j := int(c)
			switch {
			case j < i: // L row i, column j
				f.lval[f.lptr[i]+j-lfirst[i]] = vals[i][t]
			case j > i: // U column j, row i
				f.uval[f.uptr[j]+i-ufirst[j]] = vals[i][t]
			}
		}
	}
	for j := 0; j < m; j++ {
		// row j of L: l_ji = (a_ji − Σ_p l_jp·u_pi) / u_ii, i from lfirst[j]
		lj := f.lval[f.lptr[j]:f.lptr[j+1]]
		fj := lfirst[j]
		for i := fj; i < j; i++ {
			ui := f.uval[f.uptr[i]:f.uptr[i+1]] // rows ufirst[i]..i-1 of column i
			p0 := max(fj, ufirst[i])
			s := lj[i-fj]
			a := lj[p0-fj : i-fj]
			b := ui[p0-ufirst[i] : i-ufirst[i]]
			for t, v := range a {
				s -= v * b[t]
			}
			lj[i-fj] = s / f.diag[i]
		}
		// column j of U: u_ij = a_ij − Σ_p l_ip·u_pj, i from ufirst[j]; then u_jj
		uj := f.uval[f.uptr[j]:f.uptr[j+1]]
		gj := ufirst[j]
		for i := gj; i < j; i++ {
			li := f.lval[f.lptr[i]:f.lptr[i+1]] // columns lfirst[i]..i-1 of row i
			p0 := max(gj, lfirst[i])
			s := uj[i-gj]
			a := li[p0-lfirst[i] : i-lfirst[i]]
			b := uj[p0-gj : i-gj]
			for t, v := range a {
				s -= v * b[t]
			}
			uj[i-gj] = s
		}
		s := f.diag[j]
		p0 := max(fj, gj)
		a := lj[p0-fj : j-fj]
		b := uj[p0-gj : j-gj]
		for t, v := range a {
			s -= v * b[t]
		}
		if s == 0 || math.IsNaN(s) {
			return nil, false
		}
		f.diag[j] = s
	}
	return f, true
}

// Solve overwrites x (length m) with A⁻¹·x.
func (f *EnvLU) Solve(x []float64) {
	for j := 0; j < f.m; j++ {
		lj := f.lval[f.lptr[j]:f.lptr[j+1]]
		s := x[j]
		xs := x[f.lfirst[j]:j]
		for t, v := range lj {
			s -= v * xs[t]
		}
		x[j] = s
	}
	for j := f.m - 1; j >= 0; j-- {
		x[j] /= f.diag[j]
		xj := x[j]
		uj := f.uval[f.uptr[j]:f.uptr[j+1]]
		xs := x[f.ufirst[j]:j]
		for t, v := range uj {
			xs[t] -= v * xj
		}
	}
}

// RCM returns a reverse Cuthill–McKee order of the m nodes of the symmetric
// pattern adj (each component started from a pseudo-peripheral node).
func RCM(m int, adj [][]int32) []int {
	deg := make([]int, m)
	for i, a := range adj {
		deg[i] = len(a)
	}
	seen := make([]bool, m)
	order := make([]int, 0, m)
	level := make([]int, m)
	bfs := func(s int, mark []bool) (last int, out []int) {
		q := []int{s}
		mark[s] = true
		level[s] = 0
		for h := 0; h < len(q); h++ {
			v := q[h]
			for _, u := range adj[v] {
				if !mark[u] {
					mark[u] = true
					level[u] = level[v] + 1
					q = append(q, int(u))
				}
			}
		}
		// farthest node of least degree
		last = q[len(q)-1]
		for _, v := range q {
			if level[v] == level[last] && deg[v] < deg[last] {
				last = v
			}
		}
		return last, q
	}
	tmp := make([]bool, m)
	for s := 0; s < m; s++ {
		if seen[s] {
			continue
		}
		// pseudo-peripheral start: two sweeps
		a, comp := bfs(s, tmp)
		for _, v := range comp {
			tmp[v] = false
		}
		b, comp := bfs(a, tmp)
		for _, v := range comp {
			tmp[v] = false
		}
		// Cuthill–McKee from b: neighbours in increasing degree
		start := len(order)
		order = append(order, b)
		seen[b] = true
		for h := start; h < len(order); h++ {
			v := order[h]
			nb0 := len(order)
			for _, u := range adj[v] {
				if !seen[u] {
					seen[u] = true
					order = append(order, int(u))
				}
			}
			nbs := order[nb0:]
			for x := 1; x < len(nbs); x++ {
				for y := x; y > 0 && (deg[nbs[y]] < deg[nbs[y-1]] || (deg[nbs[y]] == deg[nbs[y-1]] && nbs[y] < nbs[y-1])); y-- {
					nbs[y], nbs[y-1] = nbs[y-1], nbs[y]
				}
			}
		}
	}
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	return order
}
