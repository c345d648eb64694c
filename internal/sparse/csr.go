// Package sparse is Arbor's sparse linear-algebra toolkit: a compressed
// sparse row matrix (CSR), Krylov solvers over several right-hand sides
// restricted to a set of active rows (Solve: conjugate gradients for
// symmetric systems, BiCGSTAB otherwise), the incomplete LU factorisation
// ILU(0) as their preconditioner, and a direct envelope (profile) LU with
// reverse Cuthill–McKee ordering (EnvLU, RCM). Label propagation's closed
// form (package propagate) is its user.
package sparse

// CSR is a sparse n×n matrix in compressed sparse row form: the entries of
// row i are Val[Ptr[i]:Ptr[i+1]] in columns Col[Ptr[i]:Ptr[i+1]]. Sym
// records that the matrix equals its transpose.
type CSR struct {
	N   int
	Ptr []int
	Col []int32
	Val []float64
	Sym bool
}

// At returns entry (i, j): O(row length).
func (a *CSR) At(i, j int) float64 {
	for t := a.Ptr[i]; t < a.Ptr[i+1]; t++ {
		if int(a.Col[t]) == j {
			return a.Val[t]
		}
	}
	return 0
}
