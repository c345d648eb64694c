// Package propagate is graph-based transduction: label propagation (Zhu &
// Ghahramani 2002; paper 002 — Bodó & Minier 2008 — §3) and label spreading
// (Zhou, Bousquet, Lal, Weston & Schölkopf 2004), with the conventions of
// scikit-learn's LabelPropagation and LabelSpreading.
//
// # Affinity
//
// W is built from the points (Fit) or from a symmetric matrix (FitGram):
//
//   - RBF: W_ij = exp(−γ·d²(i,j)), W_ii = 1 (scikit-learn kernel="rbf";
//     γ defaults to 20).
//   - KNN: W_ij = 1 when j is one of the K nearest points of i, i itself
//     included (scikit-learn's kneighbors_graph(mode="connectivity") on the
//     training points: directed, not symmetrised; K defaults to 7). Ties go to
//     the lower index (scikit-learn leaves them unspecified). A k-d tree finds
//     the neighbours for d ≤ 8, a parallel scan otherwise.
//   - Kernel: W = the Gram matrix of a kernel.Kernel (entries must be ≥ 0).
//   - Precomputed (FitGram): W = the given matrix (≥ 0). A float32
//     kernel.Sym32 stays float32 (a 4N² copy instead of 8N²); its weights
//     are widened to float64 wherever they are used, in the same order, so
//     the fit equals that on a float64 copy of the same values.
//
// With FitGram, RBF and KNN use the kernel-induced distance
// d² = K_ii + K_jj − 2K_ij, so any kernel, data-dependent ones included,
// defines the graph.
//
// # Label propagation
//
// With D = diag(W·1) and L = D − W, the harmonic solution minimises
// E(f) = ½ Σ W_ij ‖f_i − f_j‖² = tr(fᵀLf) with the labelled rows fixed
// (paper 002 eq. 1–2):
//
//	L_UU·f_U = W_UL·f_L   (f_U = −L_UU⁻¹·L_UL·f_L = (I − P_UU)⁻¹·P_UL·f_L).
//
// Method Closed (default) solves it without a dense inverse: conjugate
// gradients preconditioned by diag(L_UU) for symmetric (dense) W. For the
// sparse directed kNN graph, where L_UU is a row diagonally dominant
// nonsingular M-matrix, a direct envelope (skyline) LU in reverse
// Cuthill–McKee order when its cost Σ w_j² (w_j = envelope widths) is at
// most 6·10⁷ flops — the usual case for points on thin manifolds — and
// otherwise BiCGSTAB preconditioned by ILU(0), unknowns numbered
// breadth-first from the labels. For single-label data the rows of f sum to 1, so C−1
// columns are solved and the last is 1 − Σ of the others. Multi-label data
// (FitSets) solve each label column independently (E₂ = Σ_c f_cᵀLf_c).
//
// Method Iterative is scikit-learn's loop exactly: F ← rownorm(D⁻¹W·F) with
// the labelled rows clamped to their one-hot labels, stopping when
// Σ|F_t − F_{t−1}| < Tol (1e-3) before a step or after MaxIter (1000)
// steps; Iter = n_iter_. Both methods reach the same fixed point: the
// Iterative result equals LabelPropagation's label_distributions_ to 1e-9
// and, iterated to convergence, the Closed one to 1e-6 (tests).
//
// # Label spreading
//
// S = D^{-1/2}·W₀·D^{-1/2}, W₀ = W with a zero diagonal and D its column
// sums (scipy's csgraph.laplacian, normed, as scikit-learn), and
//
//	F ← α·S·F + (1−α)·Y   (α = 0.2, Tol = 1e-3, MaxIter = 30)
//
// (Iterative, default), or its fixed point F = (1−α)(I − αS)⁻¹Y (Closed).
// Rows are normalised at the end, as label_distributions_.
//
// # Unreachable points
//
// An unlabelled point from which no path of positive weights leads to a
// labelled point (a component of the graph without a label; for the directed
// kNN graph, following i → its neighbours) has no defined label: it would be
// a 0/0 (NaN) in the closed form and an all-zero row in scikit-learn. Fit
// returns ErrUnreachable naming those points, or, with Unreachable =
// UnreachableUnlabeled, leaves them learner.Unlabeled with zero rows and a
// warning. Degrees in the closed form count only neighbours that reach a
// label, which is the fixed point of scikit-learn's normalised iteration.
//
// # Anchor graph (landmarks)
//
// AnchorGraph and AnchorSpreading replace the N×N affinity by the anchor
// graph of Liu, He & Chang (ICML 2010) on M anchors u_k: each point is tied
// to its S = 3 nearest anchors with Gaussian weights normalised to sum 1
// (Z, N×M, the paper's kernel-defined weights, its Eq. 3 as in the
// authors' AnchorGraph.m), W = Z Λ⁻¹ Zᵀ with Λ = diag(Zᵀ1). Propagation is
// the paper's anchor graph regularisation (the reduced M×M system with
// γ = 0.01 and the class-mass normalisation of AnchorGraphReg.m);
// spreading is LabelSpreading on the same W (the Woodbury form in
// AnchorSpreading). With M·S nonzeros, O(N·S²) to form the M×M system,
// O(M³) to solve it. Anchors at distance 0 are one anchor (repeated rows
// merged, the first kept): two equal anchors give equal columns of Z and a
// singular system (a repeated data row among landmarks taken from the rows).
//
// The width σ. The paper takes the mean distance of the points to their
// S-th nearest anchor, a scale set by the anchor spacing alone. When the
// anchor graph stands in for an exact graph (arbor --landmarks beside the
// exact --affinity), σ is that graph's scale instead (Sigma): 1/√γ for
// the RBF affinity exp(−γd²) — the same Gaussian — and for the kNN graph
// the mean distance of a point to its K-th nearest point (KNNRadius), the
// radius at which the exact graph's edges end. On UCI letter (20,000 rows,
// 1,300 labelled, M = 2,000, knn:10) this width is 0.83× the paper's and
// moves the anchor propagation from 1.4 to 0.9 points below the exact one
// (satellite: 1.04× the paper's, unchanged, 0.1 below); docs/landmarks.md,
// "Landmark vs exact accuracy".
//
// Tried and not taken (same split, the paper's width): Local Anchor
// Embedding weights (the paper's preferred Z; at S = 3 1.0 point lower on
// letter, 2.3 on satellite); the harmonic solution with hard-clamped
// labels on W (the exact propagation's objective,
// f_U = Z_U (Λ − Z_UᵀZ_U)⁻¹ Z_LᵀY_L: 1.2 above exact on satellite, 3.8
// below on letter); S = 2 (+0.4 on letter, −1.2 on satellite) or S = 5
// (−1.7, −1.1); γ from 10⁻⁴ to 0.1 (within 0.3; γ = 1: −1.4 on letter);
// k-means for the free anchors with the labelled rows as fixed centres
// (within 0.2).
//
// A point whose anchors' component of the anchor graph holds no labelled
// point solves to soft labels exactly 0 and is unreachable: the
// Unreachable policy applies as for the exact learners.
//
// # kNN graph of all rows (spreading with landmarks)
//
// The KNN affinity is sparse: N·K edges, no N×N matrix, O(N log N·d) to
// build with the k-d tree and O(N·K·C) per spreading step. So where the
// exact spreading uses it, arbor classify --landmarks does not replace it
// by the anchor graph but runs the exact spreading on it
// (Spreading.FitKNN), as landmark single linkage uses the exact tree of
// all rows; KNNModel keeps the rows, so new points get the out-of-sample
// rule (their K nearest fitted rows by one k-d tree, O(K·C + log N) per
// point) and a saved model predicts identically. The anchor graph is a
// different graph from the directed kNN graph — even with every row an
// anchor its spreading was 1.6 points below the exact one on UCI
// satellite — and with M = 2,000 anchors it was 2.0 points below on UCI
// letter (1.8 and 2.6 on two more splits); on the kNN graph the landmark
// run equals the exact one (diff 0.00 on both sets, three letter splits).
// At 10⁶ rows in 10-D (bench/million) it takes 276 CPU s, nearly all the
// exact kNN search, 29× the anchor graph's spreading, in 0.85 GiB
// (docs/landmarks.md). Label propagation
// keeps the anchor graph: its exact closed form is a sparse solve whose
// cost grows faster than N, the anchor graph's an M×M one.
//
// # Reports
//
// Result carries Distributions (label_distributions_), Transduction
// (transduction_), Iter, Change (last Σ|ΔF|, or the closed form's relative
// residual), Converged and Warnings. The iterative methods stopping at
// MaxIter is a warning wrapping ErrNotConverged. The closed form is the
// iterative method's fixed point or an error wrapping ErrNotConverged: the
// solver stopping at MaxIter, or a point whose harmonic equation
// f_i = Σ_j W_ij f_j / d_i fails by more than max(1e-6, Tol) (an affinity
// too narrow for the data: its weights vanish next to the solver's global
// residual).
//
// # Complexity
//
// Dense affinities: O(N²d) to build W (parallel, kernel.Gram), O(N²·(C−1))
// per step (matrix–vector products parallel over rows, each row summed in a
// fixed order: results do not depend on GOMAXPROCS), O(N²) memory. kNN
// affinity: O(N log N·d) to build with the k-d tree, O(N·K·C) per step,
// O(Σ w_j²) for the envelope LU.
//
// # Errors
//
// ErrBadParam (γ < 0, K < 0 or > N, α outside (0,1), Tol/MaxIter < 0, unknown
// method or policy), ErrAffinity, ErrShape, ErrNonFinite, ErrNegative
// (negative weight), ErrBadLabel, ErrNoLabels, ErrNoUnlabeled (every point
// labelled), ErrOneClass, ErrEmptyClass (a class 0..C−1 with no labelled
// point), ErrUnreachable, ErrSingular (the anchor graph's system), or
// ctx.Err().
package propagate
