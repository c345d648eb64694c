// Package treelets is the treelets algorithm of Lee, Nadler & Wasserman
// (Ann. Appl. Stat. 2(2):435–471, 2008) on any symmetric matrix with a
// positive diagonal: on a covariance matrix it is classic treelets over
// variables; on a kernel matrix K(S, S) it is the kernel treelets (KT) of
// Xia & Ceniceros (paper 004, arXiv:1812.04808) over points, with the
// sampling and out-of-sample extension of its §3 (Sample).
//
// # The algorithm (paper 004 §2.2, §3)
//
// Input A⁰ (n × n, symmetric; for KT the uncentred kernel matrix of the
// sample) and λ ≥ 0. The active (scaling) set starts as {0..n−1}. For
// k = 1..n−1:
//
//  1. score every active pair i ≠ j by the similarity rule M_ij (below);
//  2. take the pair (α, β) with the largest M (ties: the pair whose larger
//     index is smallest, then whose smaller index is smallest — the order
//     of R's which() over the upper triangle);
//  3. apply the Jacobi rotation of the (α, β) plane that zeroes A_αβ, in the
//     numerically stable form of §2.1: b = (A_ββ − A_αα)/(2A_αβ),
//     t = sign(b)/(|b| + sqrt(b² + 1)), c = 1/sqrt(t² + 1), s = c·t,
//     A ← JᵀAJ (A_αβ = 0 gives the identity). The text leaves sign(0)
//     open; equal diagonals (b = 0, e.g. every first level of an RBF or
//     graph kernel) take sign(0) = −sign(A_αβ) as R's atan form does, so
//     that the rotated α (the smaller index) is the sum variable;
//  4. the variable with the smaller diagonal after the rotation is the
//     difference variable and leaves the active set; the other (the sum
//     variable) stays (equal diagonals: the smaller index stays, as in R).
//     Record the Level (Sum, Diff, M, the rotation).
//
// Merging the clusters of Sum and Diff at level k gives the hierarchy; the
// product of the rotations B_k = J_1⋯J_k is the treelet basis at level k
// (Model.Basis), with B_kᵀ A⁰ B_k the matrix after k levels.
//
// # Similarity rules
//
//	Abs     M_ij = |A_ij| / sqrt(A_ii A_jj) + λ|A_ij|   the paper's |ρ_ij| (default)
//	Signed  M_ij =  A_ij  / sqrt(A_ii A_jj) + λ|A_ij|   R's treelet package, Run_JTree
//	Raw     M_ij =  A_ij                    + λ|A_ij|   the KT authors' treelets.py
//
// Abs is the default because it is the rule of both papers' text
// (Lee et al. 2008, §2, and paper 004 §2.2): a strongly anti-correlated pair is
// as redundant as a correlated one and the rotation treats both alike.
// Signed is what R's treelet 1.1 (a port of Lee's MATLAB code) computes: on
// covariance matrices with negative correlations its merges differ from
// Abs from the first or second level on. Run_JTree has no λ, and it
// never picks a pair whose correlation is exactly 0 (Signed here does,
// which only matters once every remaining correlation is ≤ 0). Raw is the entry rule of the kernel treelets authors' code
// (github.com/hedixia/kernel_treelets, treelets.py), which scores pairs by
// the kernel entry itself, not a correlation; for a kernel whose diagonal
// is constant (RBF, the graph kernel of §4.2) Raw and Abs rank the first
// level alike but diverge as sum variables grow. That code's cached
// best-partner bookkeeping can pick an index that has already left the
// active set; Raw here applies the rule to active indices only.
//
// # Heights
//
// Merge similarities are not monotone (a sum variable can be more similar
// to a third variable than its parts were). Model.Tree gives dendrogram
// heights by a documented monotone transform: with S = max(1, max_k M_k),
// d_k = S − M_k (for Abs and Signed with λ = 0, d = 1 − |ρ| or 1 − ρ) and
// Height_k = max_{j≤k} d_j, the running maximum, so that an inversion gets
// the height of the earlier, less similar merge. Heights are therefore
// non-decreasing in the level, a cut into K clusters (undoing the last K−1
// levels) equals a cut at a height between Height_{n−K} and
// Height_{n−K+1} when they differ, and the raw similarities stay available
// in Model.Levels and Model.Similarities.
//
// # Cost
//
// One n × n buffer (FitInPlace works in the caller's; Fit copies once).
// Each active column keeps its best active partner. After a level only the
// columns whose partner was one of the two rotated variables are re-scanned
// (O(n) each); every other column compares its partner with the new sum
// variable once. A level costs O(n) for the rotation plus O(n) per
// re-scan, so a run is O(n²) times the mean number of re-scans per level
// (about 3–4 on RBF kernels), against the O(n³) of re-scanning every
// level. Rows are kept exactly symmetric for the active set; the pass over
// active columns runs on GOMAXPROCS goroutines in fixed chunks whose
// winners are combined in chunk order, so results are identical for any
// GOMAXPROCS.
//
// When the buffer is scratch (Fit's copy, Sample's kernel block) only the
// active submatrix is kept: a difference variable is never rotated again,
// so its entries do not affect later merges, and its variance is recorded
// when it leaves. Whenever half the positions are inactive the active
// submatrix is moved to the front of the buffer as a dense L × L matrix in
// the same order (so ties break exactly as before; O(n²) copies over a
// run): scans become contiguous, rotations cost O(L), and the working set
// shrinks into the caches. FitInPlace keeps the whole rotated matrix and
// gives bit-identical levels (tested). Large buffers come from
// internal/hugepage (transparent huge pages on Linux: a few faults instead
// of one per 4 KiB page, and fewer TLB misses on column writes).
//
// # Errors
//
// ErrBadParam (λ < 0 or not finite, unknown rule, sample size outside
// 2..n), ErrMatrix (not square, not symmetric, non-finite entry, diagonal
// entry ≤ 0, n < 2), ErrK (K outside 1..n, level outside 0..n−1), and the
// context's error on cancellation. A need not be positive semi-definite:
// the sum variable of a 2 × 2 block takes its larger eigenvalue, which is
// at least both diagonals, so active diagonals stay positive; for kernel
// treelets A is PSD by construction. Run.WriteReport returns a *LabelError
// for a ROC against labels on a sampled row without one.
//
// # Reports and files
//
// Run is a fitted Sample on a data set or a graph as arbor treelets
// reports it: WriteReport prints the summary, clusters, agreement with the
// labels and the AUC of the pairwise ROC through the levels (PairROC);
// Write writes the labels, linkage matrix, levels, Newick tree, dendrogram
// and ROC picture. MemoryAdvice names a run for a memory error with the
// sample that fits.
package treelets
