// Package svm is one LIBSVM-shaped SMO solver and the problems built on it:
// C-support vector classification (binary, one-vs-one, one-vs-rest, Platt
// probabilities) and support vector domain description (SVDD, the minimal
// enclosing sphere of paper 001, Ben-Hur, Horn, Siegelmann & Vapnik).
//
// # The quadratic program
//
// Every problem is an instance of LIBSVM's dual
//
//	min_α  ½ αᵀQα + pᵀα   s.t.  yᵀα = Δ,  0 ≤ α_i ≤ C_i,   Q_ij = y_i y_j K_ij,
//
// solved by one core, internal/smo (shared with package s4vm): sequential minimal
// optimisation with the second-order working-set selection of Fan, Chen &
// Lin (JMLR 6, 2005), LIBSVM's shrinking with one unshrink and gradient
// reconstruction, and an LRU kernel-column cache under a memory budget
// (smo.Cache), fed by a precomputed Gram
// matrix (read in place, any subset of rows by index) or by any
// kernel.Kernel on points (columns computed on demand, in parallel when
// long). The problems differ only in the linear term, labels and bounds:
//
//	C-SVC machine          p = −e, y = ±1, C_i = C·Weights[class of i], α⁰ = 0
//	SVDD (paper 001 eq. 5) α = β/C ∈ [0, 1], Σα = 1/C, y = +1,
//	                       p_i = −(K_ii − max_j K_jj)/(2C)   (LIBSVM one-class, ν = 1/(NC))
//	S4VM sub-problems      C-SVC with other labels and per-row bounds
//
// # Agreement with LIBSVM
//
// The core follows LIBSVM's Solver step by step: the same pair choice and
// tie rules, the same clipping, the same stopping rule
// max_{I_up} −y_i∇_if − min_{I_low} −y_j∇_jf < Tol, the same ρ (mean over
// free variables, else the midpoint of the feasible interval), and the
// same float32 kernel cache with float64 arithmetic. One-vs-one machines
// are trained on the rows of class a then class b (each in input order)
// for a < b in sorted-label order, as scikit-learn's LIBSVM; prediction is
// max-wins voting, f_ab > 0 voting for a, ties going to the lowest class
// index. Consequently support vectors, dual coefficients, ρ, objective
// and decision values reproduce LIBSVM / scikit-learn's SVC and OneClassSVM
// (libsvm_test.go, svdd_test.go; fixtures from testdata/gen_fixtures.py).
// Decision values use LIBSVM's sign (f_ab > 0 means class a); for two
// classes scikit-learn's decision_function is −f. Platt scaling uses
// LIBSVM's 5-fold procedure with a seeded PCG shuffle instead of C's
// rand(), so probabilities agree with LIBSVM's only loosely.
//
// Differences from LIBSVM by design: labels must be ≥ 0 (dataset.Unlabeled
// is −1); a class with a single training point is ErrSingletonClass unless
// Classifier.AllowSingleton; a Gram matrix is checked for NaN/Inf and, in a
// *mat.SymDense whose backing store holds a lower triangle, for symmetry.
//
// # Complexity
//
// An SMO iteration costs O(l_active) (selection and gradient update, one
// fused pass each) plus one kernel column on a cache miss: an O(l) gather
// from a Gram matrix, O(l·d) for point kernels. The number of iterations is
// typically between O(l) and O(l²), growing with C. The cache holds
// CacheMB·2¹⁸ float32 values (default 200 MiB). FitGram's input check is
// one O(N²) pass. One-vs-one trains k(k−1)/2 machines on two classes each;
// one-vs-rest k machines on all rows. Prediction costs O(t·n_SV·d) for
// point kernels, O(t·n_SV) from kernel rows.
//
// Speed: testdata/peer_time.py times FitGram and SVDD.FitGram against
// scikit-learn's LIBSVM (SVC / OneClassSVM, kernel="precomputed") on the
// peers.py timing problem (N = 2000, 5000, 10000; C = 1, 100; ν = 0.1),
// alternating the two and reporting wall and CPU ratios; results in
// testdata/peer_time.md. Both reach the same objective (relative
// difference ≤ 2e-10: the same iterates). C-SVC uses about 0.8–0.95× the
// CPU of LIBSVM. SVDD's solver alone is on par with LIBSVM's one-class
// solver, but at ν = 0.1 LIBSVM reads only about a fifth of K while
// FitGram's NaN/symmetry check reads all of it: that check runs on a second
// goroutine during the solve, so SVDD costs about 1.2–1.6× LIBSVM's CPU
// and matches its wall time only when a second core is free.
//
// # Errors
//
// Bad input returns errors wrapping the sentinels in errors.go: ErrBadParam
// (C ≤ 0, Tol < 0, weight ≤ 0, SVDD C < 1/N, nil kernel), ErrEmpty,
// ErrShape (len(y) ≠ N, Kt not t×N, feature count), ErrNonFinite,
// ErrNotSymmetric, ErrOneClass, ErrSingletonClass, ErrBadLabel,
// ErrNoKernel, ErrNoProbability, ErrFormat (Save/Load). Reaching MaxIter is
// not an error: models report Iter, Converged and Warnings (wrapping
// ErrNotConverged).
package svm
