// Package lanczos computes the largest eigenpairs of a large symmetric matrix
// with the thick-restart Lanczos method (Wu & Simon 2000, "Thick-restart
// Lanczos method for large symmetric eigenvalue problems", SIAM J. Matrix
// Anal. Appl. 22(2)), mathematically equivalent to ARPACK's implicitly
// restarted Lanczos (Sorensen 1992) used by SciPy's eigsh.
//
// After m steps the method holds an orthonormal basis V (n×m), the projected
// matrix T = VᵀAV and a residual f with
//
//	A·V = V·T + f·e_mᵀ.
//
// The Ritz pairs (θ_i, V·y_i) of T·y_i = θ_i·y_i have residual norm
// ‖A·V·y_i − θ_i·V·y_i‖ = ‖f‖·|y_i[m−1]|, the convergence test. A restart keeps
// the l best Ritz vectors, for which T becomes an arrowhead matrix
// diag(θ_1..θ_l) coupled to f/‖f‖ by ‖f‖·y_i[m−1], and continues the
// recurrence from f/‖f‖. Every new Lanczos vector is orthogonalised against the
// whole basis by classical Gram–Schmidt, and a second time when the first
// projection removed most of it (the DGKS criterion, as ARPACK), so no
// spurious copies of converged eigenvalues appear.
//
// Costs: each step is one product A·x (O(n²) for a dense matrix) plus O(n·m)
// for the orthogonalisation; each restart costs O(m³) for the eigensolution
// of T and O(n·m·l) to rotate the basis. Memory is O(n·m), m = NCV.
//
// Sym is the dense operator: a parallel symmetric matrix–vector product that
// reads only the upper triangle of a *mat.SymDense, once, four rows at a time
// (each row used as a row and as a column in one pass, gemm.SymvPanel with
// AVX2 on amd64), partitioned into row
// blocks whose number depends on n only and reduced in block order, so results
// are bit-identical for any GOMAXPROCS. Any other linear operator enters
// through the Operator interface.
//
// Errors: ErrDim (empty or mismatched operator), ErrK (K outside 1..n),
// ErrBadParam (negative Tol, MaxIter, NCV ≤ K), ErrNonFinite (NaN or Inf
// appeared in A·x), and ctx.Err() on cancellation. Non-convergence is a
// result, reported by Result.Converged, not an error.
package lanczos
