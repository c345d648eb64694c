// Package landmark provides landmark feature maps: a kernel on N points is
// approximated through M ≪ N landmark rows, and every point x gets r ≤ M
// features z(x) whose inner products approximate the kernel, so a linear
// learner on the N×r features does what a kernel learner does on the N×N
// Gram matrix, in O(N·M) memory.
//
//	X ─► Choose / ChooseIncluding ─► landmarks L (M rows of X)
//	X, L ─► Settings{Kernel, RCond, Tree}.Fit ─► Map, Z (N×r)
//	X, L ─► Settings.FitTraining ─► Map, Training (Z a block of rows at a time)
//	Map.Features(Xt) ─► features of new points; Map.Save ─► LoadNystrom, LoadISOMAP, LoadMultiType
//
// The maps:
//
//   - Nystrom (Williams & Seeger 2001) for a point kernel:
//     z(x) = k_L(x)·U_r·Λ_r^{-1/2} with K_LL = U·Λ·Uᵀ, so that
//     z(x)·z(y) = k_L(x)·K_LL⁺·k_L(y)ᵀ, exact when x or y is a landmark;
//   - Nystrom for the hierarchical cluster kernels of paper 000 (hck, hckg,
//     connectivity): K_LL = −½·J·M_LL·J from a tree restricted to the
//     landmarks (the exact tree of all rows for single linkage and Ward,
//     a linkage of all rows on cells for complete, average and weighted,
//     or the tree of the landmarks alone: Tree), and a point's row against
//     the landmarks from that tree (exact for training rows on the tree of
//     all rows; the tree-aware rule of kernel.TreeExtension for new points);
//   - ISOMAP: landmark MDS (de Silva & Tenenbaum 2003) of the geodesics
//     from the landmarks over the neighbourhood graph of all rows;
//   - MultiType: the multi-type cluster kernel (kernel.MultiType) on the
//     Nyström affinity (Fowlkes, Belongie, Chung & Malik 2004).
//
// Choose picks landmarks at random or as the rows nearest the k-means
// centres; ChooseIncluding makes given rows (the labelled ones) landmarks,
// so that every kernel value a learner reads against them is exact.
//
// # Complexity
//
// Fitting costs O(M³) for the eigendecomposition of K_LL plus the rows:
// O(N·M·d) for a point kernel, O(N²·d) time in O(N) memory for a tree of
// all rows, M shortest-path searches over the graph for hckg and ISOMAP.
// The features of the training rows cost O(N·M·(d + r)) for a point
// kernel and O(N·(depth + r)) for a cluster kernel (its rows are grafts
// onto the landmark tree); FitTraining gives them a block at a time, so
// that memory is O(M² + M·r + block·r) besides X, with the N×r matrix
// only for hckg on the landmarks' tree, ISOMAP and the multi-type kernel.
// Features of t new points cost O(t·M·(d + r)) (O(t·(depth + r)) for a
// grafting tree rule). Results do not depend on GOMAXPROCS.
//
// # Errors
//
// Bad input returns errors wrapping the kernel package's sentinels
// (kernel.ErrBadParam, ErrEmpty, ErrNonFinite, ErrShape, ErrEigen,
// ErrDegenerate), hclust's and graph's, and ctx.Err(); a malformed saved
// map is ErrFormat.
package landmark
