// Package eigen computes the full eigen-decomposition A = V·Λ·Vᵀ of dense
// symmetric matrices, much faster than gonum's mat.EigenSym (LAPACK Dsyev:
// tridiagonal QL/QR with rotations accumulated column by column) and with
// the same backward stability. It is the engine of kernel.ClipPSD, Embed and
// PseudoInverse and of the ISOMAP kernel, where N runs from 1500 to 8000.
//
//   - Sym: all eigenvalues (ascending) and optionally all eigenvectors.
//   - SymSelect: all eigenvalues, and the eigenvectors of a chosen subset
//     (the d largest for an embedding, λ > threshold, …); only those are
//     back-transformed.
//   - SymFunc: the matrix function f(A) = V·f(Λ)·Vᵀ (PSD projection with
//     f = max(λ, 0), pseudo-inverse, square root, …), formed from the
//     smaller of {f(λ) ≠ 0} and {f(λ) ≠ λ}.
//
// # Algorithm
//
// The three stages of LAPACK's Dsyevd (Anderson et al., LAPACK Users' Guide,
// 3rd ed., §2.4.4 and §3.4.3), arranged for Go's row-major storage:
//
//  1. Householder tridiagonalisation T = Qᵀ·A·Q, Q = H_0·…·H_{n−3}
//     (Golub & Van Loan, Matrix Computations, 4th ed., Alg. 8.3.1), blocked
//     as LAPACK's Dsytrd/Dlatrd: per panel of 32 columns the reflectors are
//     generated against the pending rank-2k correction A − V·Wᵀ − W·Vᵀ and
//     the trailing upper triangle then receives V·Wᵀ + W·Vᵀ through matrix
//     products. The per-column symmetric matrix–vector product (half the
//     flops, memory bound) reads the upper triangle in contiguous rows, in
//     parallel over a fixed row partition. 4/3·n³ flops.
//  2. The tridiagonal eigenproblem T = Z·Λ·Zᵀ by Cuppen's divide and
//     conquer (Cuppen 1981, Numer. Math. 36): T splits into two halves plus
//     a rank-one term, |β|·u·uᵀ; with the halves solved recursively (QL/QR,
//     gonum's Dsteqr, below 32 rows), the merge is the eigenproblem of
//     D + ρ·z·zᵀ. Components with ρ|z_j| ≤ 8ε·max(|D|, |z|) and pole pairs a
//     Givens rotation can reduce to that are deflated (Dongarra & Sorensen
//     1987; LAPACK Dlaed2). Each remaining eigenvalue is the root of the
//     secular equation 1 + ρ·Σ z_j²/(d_j − λ) = 0 in its interval, found
//     relative to the nearer pole by the rational "middle way" iteration of
//     Li (1993, LAWN 89) with a bisection guard, so that every d_j − λ is
//     accurate to high relative precision. The vector z is then recomputed
//     from the roots by Löwner's formula,
//     ẑ_i² = −(d_i − λ_i)·Π_{j≠i} (d_i − λ_j)/(d_i − d_j)
//     (Gu & Eisenstat 1995, SIAM J. Matrix Anal. Appl. 16(1), eq. 3.6), which
//     makes the eigenvectors ẑ_i/(d_i − λ_j) numerically orthogonal without
//     extra precision, and the eigenvector block is formed by matrix
//     products restricted to the non-zero row blocks of the halves.
//     At most 4/3·n³ flops, much less when many components deflate.
//  3. Back-transformation V = Q·Z with the reflectors in blocks of 64 in
//     compact WY form I − Vᵀ·T·V (Schreiber & Van Loan 1989; LAPACK Dlarft,
//     Dlarfb): 2·n²·r flops for r eigenvectors, all in matrix products.
//
// Without eigenvectors, stage 2 is the root-free QL/QR of gonum's Dsterf,
// O(n²). Matrix products are internal/gemm's packed DGEMM (AVX2/AVX-512
// assembly micro-kernels on amd64, parallel over GOMAXPROCS), the trailing
// update of stage 1 its upper-triangle (SYR2K) form; the divide-and-conquer
// halves and the secular equations run in parallel too. Memory: about 4·n²
// float64 at the largest merge.
//
// The input is scaled by a power of two (exactly) to max|a_ij| ∈ [½, 1), so
// matrices with entries near 1e±300 neither overflow nor lose accuracy, and
// the eigenvalues are scaled back exactly.
//
// # Performance
//
// On the 2-core development machine (AMD EPYC, AVX-512), in one run beside
// numpy.linalg.eigh on OpenBLAS 0.3.21, all eigenpairs of a random n×n
// matrix take 0.88× numpy's wall time (1.04× its CPU time) at n = 3000
// and 1.01× (1.08×) at n = 1500. At n = 3000 the tridiagonalisation takes 60% of the CPU time,
// almost all of it in the memory-bound matrix–vector products, T's
// eigenvectors 26% and the back-transformation 15%. Eigenvalues alone cost
// the tridiagonalisation. Reproduce with
//
//	go test -run XXX -bench Sym -benchtime 2x ./internal/eigen
//	EIGEN_PEER=1500,3000 EIGEN_REPS=3 go test -run '^$' -bench PeerRatio -benchtime 1x -timeout 1h ./internal/eigen
//	EIGEN_PHASES=1500 go test -run '^$' -bench Phases -benchtime 1x ./internal/eigen   # time per stage
//
// # Accuracy
//
// Backward stable: the computed pairs satisfy ‖A·V − V·Λ‖ = O(n·ε·‖A‖) and
// ‖VᵀV − I‖ = O(n·ε) (tests assert 1e-12·n; measured ≈ 1e-15…2e-13 up to
// n = 1200), eigenvalues agree with numpy.linalg.eigh and gonum to
// O(n·ε·‖A‖). Eigenvectors of (near-)multiple eigenvalues are any
// orthonormal basis of the invariant subspace, as with every solver.
//
// # Determinism
//
// Every parallel loop writes disjoint outputs whose values do not depend on
// the partition (row dot products, independent roots, gemm tiles computed
// along k in a fixed order), and the matrix–vector product of stage 1 sums
// a partition fixed by n alone in a fixed order, so results are
// bit-identical for any GOMAXPROCS (tested).
//
// # Errors
//
// ErrEmpty for a 0×0 matrix, ErrNonFinite for a NaN or ±Inf entry (with its
// position), ErrShape for a destination of the wrong size, ErrNoConvergence
// if the QL/QR iteration of a small subproblem fails (not observed), and
// ctx.Err() when ctx is cancelled; ctx is checked once per panel, per merge
// and per back-transformation block.
package eigen
