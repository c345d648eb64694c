// Package hibust is HiBUST, the Hierarchical Bottom-Up S4VM Tree of Covões,
// Barros, Cabral, Hruschka & Carvalho (JIDM 4(3), 2013; paper 003): a
// multi-class transductive classifier made of binary learners (S4VMs in
// the paper) arranged in a binary tree over clusters found by constrained
// k-means.
//
// # Steps
//
//  1. MCCK, Multiple Clusters per Class k-means (Fig. 2). One cluster per
//     class, its prototype a random labelled object of the class. Each
//     pass visits the rows in a new random order and assigns each to the
//     nearest prototype, d(x, μ) = ‖φ(x) − μ‖²; a labelled row whose
//     nearest prototype belongs to another class would violate a
//     cannot-link with that class's objects, so it founds a new cluster of
//     its own class with itself as prototype (step 11: a cluster stands
//     for the class it is mapped to, so the test does not depend on which
//     of that class's labelled rows the pass has already visited; hence
//     labelled rows of different classes never share a cluster). Then the
//     prototypes become centroids (empty clusters are dropped), and every
//     pair of same-class prototypes that are each other's nearest
//     neighbour is merged, the new prototype the mean of the two (steps
//     22–31). The run stops when a pass creates, drops and merges nothing
//     and no row changes cluster (the centroids are then unchanged), or
//     after MaxIter passes (a warning). MCCK runs Restarts times; the
//     partition with the largest simplified silhouette (Hruschka et al.
//     2006: the mean of (b − a)/max(a, b), a the distance of a row to its
//     centroid, b to the nearest other centroid, 0 for singletons) wins.
//  2. Optional confidence labelling (§3.2, Eq. 5): the partition read as a
//     Gaussian mixture with identity covariances, means at the centroids
//     and weights π_j = |C_j|/n; an unlabelled row whose largest
//     posterior P(j | x) = π_j N(x | μ_j, I) / Σ_m π_m N(x | μ_m, I) is
//     ≥ θ takes the class of cluster j and counts as labelled in j.
//  3. The tree (Fig. 3): one leaf per cluster with labelled rows, its
//     centroid the mean of those rows; repeatedly the two nodes with the
//     closest centroids are merged, into one leaf when both are leaves of
//     one class, else into an internal node (left = the earlier node) with
//     the union of their labelled rows.
//  4. Classification (Fig. 4): from the root, each internal node's learner
//     is trained on its left subtree's labelled rows (side 0), its right
//     subtree's (side 1) and the unlabelled rows that reached it, and
//     sends each of them left or right; a leaf labels the rows it
//     receives with its class.
//
// Beyond the paper, each internal node keeps a router: a C-SVC (RouterC,
// by default the node S4VM's C1)
// trained on all the node's rows with their final sides, so that the tree
// labels new points (Predict) by descending it, and the fitted tree can be
// printed (WriteTree), saved and loaded (Save, Load: versioned JSON).
//
// # Kernels
//
// Everything runs in the feature space of the kernel K given to FitGram:
// prototypes are weighted sums Σ_a w_a φ(x_a) over training rows, so
// ‖φ(x_i) − μ‖² = K_ii − 2 Σ_a w_a K_ia + wᵀKw and the distance between two
// centroids is computed from block sums of K. Any kernel works, a
// precomputed one included; with the linear kernel this is exactly
// Euclidean MCCK and the Euclidean tree of the paper (testdata/ref.json, a
// NumPy reference computing in the input space, is reproduced partition
// for partition). Distances within 1e-9 × mean |K_ii| of the smallest are
// ties, broken by the lowest index, so that rows exactly equidistant in
// exact arithmetic (iris has many) do not depend on rounding.
//
// # Determinism and cost
//
// Run r draws its initial prototypes and visiting orders from the PCG
// stream (Seed, r+1); runs execute in parallel and are reduced in run
// order, so results are identical for any GOMAXPROCS. A pass costs one
// read of K (O(n²): each row's inner products with all prototypes, whose
// supports are disjoint) plus O(n·k) for the assignment; the tree costs
// O(l²) over the l labelled rows plus O(L³) over L leaves; each internal
// node costs one fit of the node learner and one C-SVC on its rows. FitGram
// copies K once (8n² bytes).
//
// # Errors
//
// ErrBadParam (Restarts < 0, θ outside (0, 1], MaxIter < 0, RouterC < 0),
// ErrEmpty, ErrShape, ErrNonFinite, ErrBadLabel (fewer than two classes
// with labelled rows, a label below −1), ErrFormat (Load), the node
// learner's errors, ctx.Err(). A class that appears in the data but has
// no labelled row cannot be output (Classes says which can); callers that
// know the full class list (package ssl, the CLI) report it as an error.
package hibust
