// Package smo is Arbor's one SMO solver: LIBSVM's Solver for the dual
//
//	min_α  ½ αᵀQα + pᵀα   s.t.  yᵀα = Δ,  0 ≤ α_i ≤ C_i,   Q_ij = y_i y_j K_ij,
//
// with y_i = ±1, per-variable bounds C_i and any feasible start α⁰ (Δ is
// implied by it), behind an LRU kernel-column cache (Cache) fed by a
// Source: a Gram matrix read in place (DenseGram, SymGram) or points with
// a kernel.Kernel (Points). C-SVC and SVDD (package svm) and the S4VM
// sub-problems (package s4vm) differ only in p, y, C and α⁰.
//
// The cache holds columns of K, not of Q (the solver keeps the gradient in
// signed form g_i = y_i∇_i f, see solver.go), so one Cache serves a
// sequence of solves with different labels and bounds: S4VM's local
// descent refits the same rows many times with a few labels switched. For
// such sequences, Problem.Warm carries Σ_j y_jα_jK_ij and the bounded part
// Ḡ between solves, so a warm start from the previous α costs one kernel
// column per changed variable instead of one per nonzero α. Feasible
// repairs a start after labels change. Cache.Reset and Warm.Reset ready a
// cache and a Warm for another such sequence on the same rows, with the
// iterates of a new Cache and a zero Warm and without their allocations.
// Cache.Lend gives a cache the float32 matrix of its rows: until shrinking
// first permutes the variables, columns are read from it in place, and
// a column is copied only when a swap would change it; several caches may
// share one such matrix.
//
// The iterates are LIBSVM's (same working-set selection WSS3 of Fan, Chen &
// Lin, JMLR 6 2005, tie rules, clipping, shrinking with one unshrink,
// stopping rule and ρ), with LIBSVM's float32 column cache and float64
// arithmetic; on the same problem and start it reproduces LIBSVM's α, ρ
// and objective (see package svm's fixtures).
//
// Cost per iteration: O(active) plus a kernel column on a cache miss. On a
// problem with ≥ 1,024 variables and GOMAXPROCS > 1 the passes over the
// active set and the kernel columns of a Points source are split over a
// parallel.Team (team.go); chunks are combined with the serial tie rules,
// so the iterates do not depend on the number of workers. Points uses a
// kernel's kernel.Column32 fast path when it has one (RBF, Laplacian,
// Exponential: a division-free exp rounded to float32 as before).
//
// On amd64 with AVX2 (detected at run time: CPUID and XGETBV) the passes
// over the active set run as assembly kernels (passes_amd64.s, Go
// assembly, no cgo): the gradient update with the next first-pass maximum,
// the WSS3 second pass, and the axpy of the warm-start gradient, Ḡ and
// reconstruction. They do the Go loops' operations in the same order, each
// rounded (no fused multiply-add), over eight lanes; each lane keeps its
// own extremum with its position, and the lanes are combined choosing the
// largest position among equal extrema, which is the serial loops' "last
// index wins" (≥, ≤); a zero maximum takes the last zero's sign, and the
// remainder after the last full vector is finished by the Go loop. The
// second pass divides only where a lane may hold a candidate: the
// division-free bound is loosened as in the Go loop and shared by the
// lanes, so it never excludes a position whose −b²/a could equal the final
// minimum. So the iterates are the same bits with or without the kernels
// (passes_test.go checks the kernels against plain definitions on random
// inputs with planted ties, signed zeros, infinities and quad ≤ 0, and
// whole warm-started solves). The Go loops (passes.go) are used on other
// architectures and with the build tag purego (go test -tags purego tests
// them).
package smo
