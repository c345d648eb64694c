package sparse

// ILU0 is the incomplete LU factorisation with no fill (ILU(0), Saad,
// "Iterative methods for sparse linear systems", 2003, §10.3) of a sparse
// matrix restricted to the active rows and columns. It preconditions
// BiCGSTAB on the directed kNN graph, where L_UU is a nonsingular M-matrix
// (so ILU(0) exists and is stable).
type ILU0 struct {
	glob []int   // local → global row
	ptr  []int   // CSR over local indices, columns sorted
	col  []int32 // local column
	val  []float64
	dpos []int // position of the diagonal in each row
}

// NewILU0 factorises A = diag − W restricted to the rows/columns with on[i]
// (W sparse CSR, diag[i] the full diagonal of A).
func NewILU0(g *CSR, diag []float64, on []bool) *ILU0 {
	n := g.N
	loc := make([]int32, n)
	f := &ILU0{}
	for i := 0; i < n; i++ {
		loc[i] = -1
		if on[i] {
			loc[i] = int32(len(f.glob))
			f.glob = append(f.glob, i)
		}
	}
	m := len(f.glob)
	f.ptr = make([]int, 1, m+1)
	f.dpos = make([]int, m)
	for li, i := range f.glob {
		// columns of row i are sorted by global index, hence by local index
		placed := false
		for t := g.Ptr[i]; t < g.Ptr[i+1]; t++ {
			j := int(g.Col[t])
			if j == i || !on[j] {
				continue
			}
			lj := loc[j]
			if !placed && int(lj) > li {
				f.dpos[li] = len(f.col)
				f.col = append(f.col, int32(li))
				f.val = append(f.val, diag[i])
				placed = true
			}
			f.col = append(f.col, lj)
			f.val = append(f.val, -g.Val[t])
		}
		if !placed {
			f.dpos[li] = len(f.col)
			f.col = append(f.col, int32(li))
			f.val = append(f.val, diag[i])
		}
		f.ptr = append(f.ptr, len(f.col))
	}
	// IKJ factorisation in place.
	pos := make([]int, m)
	for i := range pos {
		pos[i] = -1
	}
	for i := 0; i < m; i++ {
		for t := f.ptr[i]; t < f.ptr[i+1]; t++ {
			pos[f.col[t]] = t
		}
		for t := f.ptr[i]; t < f.dpos[i]; t++ {
			k := int(f.col[t])
			f.val[t] /= f.val[f.dpos[k]]
			lik := f.val[t]
			for s := f.dpos[k] + 1; s < f.ptr[k+1]; s++ {
				if p := pos[f.col[s]]; p >= 0 {
					f.val[p] -= lik * f.val[s]
				}
			}
		}
		for t := f.ptr[i]; t < f.ptr[i+1]; t++ {
			pos[f.col[t]] = -1
		}
	}
	return f
}

// Apply sets out = (LU)⁻¹·in on the active rows (n×C row-major vectors),
// using buf (len m·C) for the local vector.
func (f *ILU0) Apply(out, in, buf []float64, C int) {
	m := len(f.glob)
	y := buf[:m*C]
	if C == 1 {
		f.Apply1(out, in, y)
		return
	}
	for i, g := range f.glob {
		copy(y[i*C:i*C+C], in[g*C:g*C+C])
	}
	// forward: unit lower triangle
	for i := 0; i < m; i++ {
		yi := y[i*C : i*C+C]
		for t := f.ptr[i]; t < f.dpos[i]; t++ {
			l, k := f.val[t], int(f.col[t])*C
			for c := range yi {
				yi[c] -= l * y[k+c]
			}
		}
	}
	// backward: upper triangle with the diagonal
	for i := m - 1; i >= 0; i-- {
		yi := y[i*C : i*C+C]
		for t := f.dpos[i] + 1; t < f.ptr[i+1]; t++ {
			u, k := f.val[t], int(f.col[t])*C
			for c := range yi {
				yi[c] -= u * y[k+c]
			}
		}
		d := f.val[f.dpos[i]]
		for c := range yi {
			yi[c] /= d
		}
	}
	for i, g := range f.glob {
		copy(out[g*C:g*C+C], y[i*C:i*C+C])
	}
}

// Apply1 is Apply for one column.
func (f *ILU0) Apply1(out, in, y []float64) {
	m := len(f.glob)
	for i, g := range f.glob {
		y[i] = in[g]
	}
	val, col := f.val, f.col
	for i := 0; i < m; i++ {
		s := y[i]
		for t := f.ptr[i]; t < f.dpos[i]; t++ {
			s -= val[t] * y[col[t]]
		}
		y[i] = s
	}
	for i := m - 1; i >= 0; i-- {
		s := y[i]
		d := f.dpos[i]
		for t := d + 1; t < f.ptr[i+1]; t++ {
			s -= val[t] * y[col[t]]
		}
		y[i] = s / val[d]
	}
	for i, g := range f.glob {
		out[g] = y[i]
	}
}
