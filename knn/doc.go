// Package knn is k-nearest-neighbour classification with any kernel, the
// supervised and semi-supervised kNN of paper 002 (Bodó & Minier, "On
// supervised and semi-supervised k-nearest neighbor algorithms", 2008).
//
// # Neighbours through a kernel (§4)
//
// Neighbours are ranked by the kernel-induced squared distance
//
//	d²(x, z) = K(x,x) + K(z,z) − 2·K(x,z)
//
// (clipped at 0), so a precomputed or data-dependent kernel — the ISOMAP,
// multi-type or hierarchical cluster kernels of §4.1, built over labelled and
// unlabelled points together — makes kNN semi-supervised. FitGram takes the
// N×N Gram matrix of all points with labels y (dataset.Unlabeled = −1 for the
// unlabelled rows); the labelled rows are the candidate neighbours and
// PredictGram classifies any rows of the same matrix (transduction). Fit and
// Predict do the same from points with a kernel.Kernel (Euclidean kNN when
// the kernel is nil), and Cross queries take kernel values of new points.
//
// # Votes and scores (§2, §2.1)
//
//	f̃(x) = argmax_c Σ_{z∈N_k(x)} w(z,x)·δ(c, y_z)
//
// with weights w = 1 (Uniform), w = K(x,z) (Similarity; negative kernel
// values are an error) or w = 1/d(x,z) (Distance, as scikit-learn's
// weights="distance": if some neighbours are at distance 0, those count 1
// and the others 0). Scores returns the soft kNN of §2.1,
// f(x) = Σ w(z,x)·y_z / Σ w(z,x) with y_z the 0/1 label vector, the
// class-membership scores used for breakeven points (metrics.Breakeven).
// Label sets (FitSets, FitGramSets) give multi-label models; PredictSets
// thresholds the scores (Soft, Threshold) or keeps the TopR best.
//
// # Tie rules (those of bench/peers/peers.py kernel_knn)
//
//   - d² values are quantised as round(d²/(1e-9·m)), m = the largest d² over
//     the query batch and the labelled points, so values equal within 1e-9·m
//     are ties (2⁻²⁰·m on a float32 kernel.Sym32, whose entries are rounded
//     to 2⁻²⁴: exact ties of an ultrametric kernel stay ties; m is over
//     the batch: query the unlabelled rows together to
//     reproduce the peer exactly);
//   - among equal quantised distances the lower labelled row ranks first;
//   - the class with the largest (weighted) vote wins; a tie between classes
//     goes to the tied class whose member ranks first (Ties = TiesLowest:
//     to the lowest class label, as scikit-learn's KNeighborsClassifier,
//     whose predictions it then equals wherever no two distances tie:
//     testdata/ties_sklearn.py).
//
// With these rules uniform predictions equal the peer's on every row, and
// equal scikit-learn's KNeighborsClassifier(metric="precomputed") wherever
// scikit-learn's own answer does not depend on its unspecified tie order.
//
// # Neighbour count
//
// K must satisfy 1 ≤ K < ℓ, ℓ the number of labelled points: with K ≥ ℓ every
// query would have the same neighbour set, so K = ℓ is rejected too.
//
// # Complexity
//
// Per query O(ℓ log K): two passes over the ℓ kernel values (the batch
// maximum for the tie quantum, then a bounded max-heap of size K; rows are
// never sorted). Queries run in parallel over runtime.GOMAXPROCS(0)
// goroutines in chunks of 32 rows; each row's result depends only on the row,
// so results are identical for any GOMAXPROCS. Point queries first compute
// the t×ℓ cross-kernel matrix with kernel.Cross (O(tℓd)).
//
// # Errors
//
// ErrK (K < 1 or K ≥ ℓ), ErrWeights, ErrBadParam (Threshold, TopR, kernel
// parameters), ErrNoLabels, ErrOneClass (all labelled points in one class),
// ErrBadLabel (a label < −1, a repeated label in a set), ErrShape (sizes), ErrRow
// (row index out of range), ErrNonFinite (NaN/Inf where the kernel is read),
// ErrNegativeSim, ErrMultiLabel, or ctx.Err().
package knn
