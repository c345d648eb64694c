// Package svcluster is support vector clustering (SVC): A. Ben-Hur, D. Horn,
// H. T. Siegelmann and V. Vapnik, "A support vector method for hierarchical
// clustering", NIPS 2000 (paper 001), and its journal version "Support
// vector clustering", JMLR 2 (2001).
//
// # Method
//
// The points x_i are mapped by a kernel with K(x, x) = 1, the Gaussian
// exp(−q‖x−y‖²) (eq. 6) or the "Laplacian" exp(−q‖x−y‖) (eq. 7), and the
// smallest sphere enclosing their images is found (svm.SVDD): the dual of
// eq. (5)/(8), max W = Σβ_j K_jj − Σβ_iβ_j K_ij with Σβ = 1, 0 ≤ β ≤ C.
// Points with 0 < β < C are support vectors (on the sphere), points with
// β = C bounded support vectors (outliers, outside). The squared distance of
// the image of any x from the centre is
//
//	R²(x) = K(x,x) − 2 Σ_j β_j K(x_j, x) + Σ_ij β_iβ_j K_ij      (10)
//
// and the contour {x : R(x) = R} (12) splits, as q grows, into pieces that
// enclose the clusters. Two points are adjacent when the segment between
// them stays inside (eq. 17, tested at m = Samples points, default 10);
// clusters are the connected components of the non-outliers. Outliers are
// assigned to the cluster of their nearest non-outlier point in input space
// (the paper's choice, default) or left as Noise (Clusterer.Unassigned).
// Clustering reports n_sv, n_bsv, R and the error estimate
// (n_sv + n_bsv)/N of eq. (14). By Proposition 2.1 (eq. 13),
// n_bsv + n_sv ≥ 1/C and n_bsv < 1/C.
//
// # Labelling
//
// Complete is eq. (17) over all pairs, exactly as the paper, made fast:
//   - rows are processed in rounds against union-find snapshots, so a pair
//     whose ends are already connected is never tested;
//   - samples are tested from the middle of the segment outwards, stopping
//     at the first one outside;
//   - R² on the segment comes from quantities precomputed per point instead
//     of kernel evaluations in d dimensions. For the Gaussian kernel,
//     ‖x_i + t(x_j−x_i) − c‖² = (1−t)‖x_i−c‖² + t‖x_j−c‖² − t(1−t)‖x_i−x_j‖²
//     gives K(y, c) = K(x_i,c)^(1−t) K(x_j,c)^t exp(q t(1−t)‖x_i−x_j‖²), so
//     with the m powers K(x_i, c_k)^(s/(m+1)) tabulated once per point each
//     sample costs one dot product of length n_sv + n_bsv; beyond the memory
//     budget, one exponential per centre and segment (geometric recurrence
//     along the segment) replaces m of them.
//
// SVGraph tests only pairs with a support vector at one end (JMLR 2001),
// KNNGraph only the edges of the symmetrised K-nearest-neighbour graph
// (proximity-graph labelling), and Cone is cone cluster labelling (S. Lee and
// K. Daniels, 2006/2012): support vectors are joined when their data-space
// balls of radius Z = √(−ln(√(1−R²))/q) meet, and every other point takes
// the cluster of its nearest support vector; no segment is sampled. Naive is
// eq. (17) with nothing skipped, for reference.
//
// All labellings are parallel (GOMAXPROCS workers) and deterministic: the
// pairs tested and the labels do not depend on the number of workers.
// Clusters are numbered by their smallest row.
//
// Where labellings may differ. Complete and Naive decide every pair alike
// (up to rounding in the last bits of R², which the tests have never seen
// flip a decision). The others test a subset of the pairs, so their clusters
// can only be finer than Complete's: KNNGraph splits a cluster whose only
// inside segments are long ones (non-convex contours whose neighbours' segments
// leave the sphere, often at large q where the contour hugs the points), and
// SVGraph leaves a point alone when no segment to a support vector stays
// inside. Conversely the complete graph joins two clusters whenever some
// long segment's 10 samples all miss the gap between them (a gap narrower
// than the segment length / 11): a sampling artefact that short kNN edges
// do not have, and that a larger Samples removes. Cone approximates the
// contour by balls around the support vectors and merges clusters whose gap
// is below 2Z (small q). On well-separated data (the tests, the N = 2000
// benchmark) all five give identical labels.
//
// # Hierarchy
//
// Sweep implements the divisive schedule of §3.2: q starts at
// 1/max‖x_i−x_j‖² (one cluster) and grows geometrically; whenever a cluster
// with fewer than MinCluster non-outlier points breaks off, or the support
// vectors exceed SVFraction·N, 1/(N·C) is raised by PStep and the level
// refitted; when the number of clusters jumps by more than one, q is bisected
// to record the splits one at a time. The sweep stops when (n_sv+n_bsv)/N
// exceeds MaxError, at the first level with Clusters clusters, or at QMax.
// Hierarchy holds every level (the (q, C, clusters, n_sv, n_bsv) table),
// the tree of clusters (a cluster's continuation at the next level is the
// cluster holding most of its points), JSON and Newick output with q as
// heights.
//
// # Complexity
//
// SVDD: SMO, O(N)–O(N^2.3) kernel evaluations (§3.3). Labelling: Naive
// O(N²·m·n_c·d) with n_c = n_sv + n_bsv; Complete O(P·m·n_c) for the P pairs
// actually tested (between-cluster pairs usually stop at the first sample)
// plus O(N·m·n_c) for the tables; SVGraph O(N·n_sv·m·n_c); KNNGraph
// O(N²d) for the neighbours plus O(N·K·m·n_c); Cone O(n_sv² + N·n_sv)·d.
// Bytes bounds the memory beforehand; WorkNotice, from NoticeRows rows,
// says how long a pass over the N²/2 pairs takes (PairTime).
//
// # Reports
//
// Settings.WriteHeader and Input.WriteReport print what arbor svc prints
// before and after the fit: the data and kernel, the sweep's levels and
// chosen level (Hierarchy.MissNote when none has Sweep.Clusters
// clusters), the sample, the clustering and its agreement with the labels.
//
// # Errors
//
// ErrBadQ (q ≤ 0 or not finite), ErrBadC (C outside [1/N, 1]),
// ErrTooFewRows (N < 2), ErrEmpty, ErrNonFinite, ErrBadKernel,
// ErrBadLabelling, ErrBadParam, ErrAllOutliers (C = 1/N makes every
// point a bounded support vector), and solver errors. Duplicated points are
// legitimate: copies share their β and always land in the same cluster (a
// zero-length segment is inside). One-dimensional data are legitimate too:
// segments are intervals and the contour is a union of intervals.
package svcluster
