// Package ssl is the semi-supervised protocol of papers 000 and 002: a few
// labelled rows among many unlabelled ones, a kernel built over all of
// them, and learners that label the rest.
//
// # From data to labels
//
//	points X (all rows) ─► kernel.BuildAll ─► K (N×N, label-free)
//	labels y (learner.Unlabeled for most rows) ─┐
//	                                            ▼
//	ssl.Fit(ctx, learner, Problem{X, K, Y}) ─► learner.Model
//	    Transduction(): a label for every row
//	    Predict(ctx, dst, Kt): new points, Kt from kernel.Built.Extend
//
// The data-dependent kernels (hierarchical cluster kernels, ISOMAP,
// multi-type) are built from every row, labelled or not: that is where the
// unlabelled rows help (paper 000 §3: the kernel of the ultrametric of a
// hierarchical clustering, K = −½·J·M·J). Learners are any learner.Learner
// (SVM, KNN, Propagation, Spreading adapters here; s4vm, hibust and others
// in their packages); a PointLearner fits on X instead of K.
//
// # Protocol
//
// PerClass draws labelled rows exactly as the reference pipeline
// (bench/peers/peers.py, NumPy's RandomState), dataset.EmbeddedSplits
// gives the published splits. Eval runs kernels × learners × splits and
// scores accuracy on the unlabelled rows; BEPEval scores multi-label
// learners (SetScorer: SoftKNN, SetPropagation) by the micro- and
// macro-averaged precision–recall breakeven points of paper 002 Table 2.
//
// # Cost and errors
//
// Kernels dominate: O(N²) memory, O(N²d) for point kernels and distances,
// O(N² log N) geodesics, O(N³) for eigendecompositions (ISOMAP,
// multi-type). Each kernel is built once and shared by every split and
// learner. Errors: ErrSplit (bad or empty split, rows without a true
// label), the learners' and kernels' errors, ctx.Err().
package ssl
