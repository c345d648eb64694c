// Package svm is one LIBSVM-shaped SMO solver and the problems built on it:
// C-support vector classification (binary, one-vs-one, one-vs-rest, with
// Platt probabilities) and support vector domain description (SVDD, the
// minimal enclosing sphere of paper 001).
//
// # The quadratic program
//
// Every problem is an instance of LIBSVM's dual
//
//	min_α  ½ αᵀQα + pᵀα   s.t.  yᵀα = Δ,  0 ≤ α_i ≤ C_i,   Q_ij = y_i y_j K_ij,
//
// solved by sequential minimal optimisation with second-order working-set
// selection (Fan, Chen & Lin, JMLR 6, 2005), shrinking with gradient
// reconstruction, and an LRU kernel-column cache under a memory budget
// (CacheMB). The problems differ only in the linear term, labels and bounds:
//
//	C-SVC (binary machine)   p = −e,  y = ±1,  C_i = C·weight(class of i),  α⁰ = 0
//	SVDD  (paper 001 eq. 5)  α = β/C, p_i = −(K_ii − max K_jj)/(2C),  y = +1,
//	                         C_i = 1, Σα = 1/C  (LIBSVM one-class, ν = 1/(NC))
//	S4VM sub-problems        C-SVC with switched labels and per-row bounds
//
// The solver follows LIBSVM step by step (same pair choice and tie rules,
// same clipping, float32 column cache with float64 arithmetic, same
// stopping rule and ρ), so its solutions, support vectors and decision
// values agree with LIBSVM / scikit-learn (tests: libsvm_test.go).
//
// # Complexity
//
// Each SMO iteration costs O(l_active) plus one kernel column on a cache
// miss (O(l·d) for point kernels, computed in parallel for long columns;
// an O(l) gather for a Gram matrix). Iterations typically number O(l) to
// O(l²); the cache holds CacheMB·2¹⁸ float32 values. Prediction costs
// O(t·n_SV·d) for point kernels and O(t·n_SV) from kernel rows.
//
// # Errors
//
// Bad input returns errors wrapping the sentinels of errors.go: ErrBadParam,
// ErrEmpty, ErrShape, ErrNonFinite, ErrNotSymmetric, ErrOneClass,
// ErrSingletonClass, ErrBadLabel, ErrNoKernel, ErrNoProbability,
// ErrFormat. Reaching MaxIter is not an error: models report Iter,
// Converged and Warnings (wrapping ErrNotConverged).
package svm
