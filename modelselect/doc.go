// Package modelselect chooses a learner's settings and kernel by a grid
// search with k-fold cross-validation on the labelled rows, as
// scikit-learn's GridSearchCV does, and refits the best setting on every
// labelled row.
//
// # The search
//
//	grids (learner family × settings × kernels) ─► Expand ─► candidates, in ParameterGrid order
//	labelled rows ─► KFold / StratifiedKFold / ReadFolds ─► folds (held-out rows)
//	for each kernel (built once over every row), candidate and fold, in parallel:
//	    fit with the fold's labels hidden (ssl.Transduce), score the fold's rows
//	mean, population std, rank (lowest = best, ties share the lowest rank)
//	best = the first candidate of rank 1 ─► pipeline.Fit on every labelled row
//
// A candidate is a registered learner family (learner.Lookup) with values
// for some of its settings (flag names: C, k, affinity, alpha, …; the
// others take their defaults) and a kernel spec (kernel.ParseSpec: rbf:γ,
// hck:LINKAGE, multitype:…:λ_cut, …). Each grid is the product of its
// axes with the axes sorted by name and the last varying fastest, so that
// a grid over "C" and "kernel" (rbf:γ) runs in the order of
// scikit-learn's grid over C and gamma, and ties resolve to the same
// setting.
//
// Unlabelled rows take part in every fit (the kernel and the transductive
// learners use them) and are never scored; the scaling and the kernels
// read no label and are computed once over every row. A fold's score is
// the accuracy on its rows (Accuracy) or the micro- or macro-averaged
// precision–recall breakeven point of their class scores (Breakeven,
// BreakevenMacro; metrics.Breakeven, also for multi-label data).
//
// # Agreement with scikit-learn
//
// KFold and StratifiedKFold without shuffling give the folds of
// scikit-learn's KFold and StratifiedKFold exactly; shuffled folds are
// Arbor's own draw (a seeded PCG), and ReadFolds reads anyone's. Means
// and standard deviations are summed as NumPy sums (pairwise), so
// mean_test_score, std_test_score and rank_test_score equal cv_results_
// bit for bit when the fits agree (testdata/gen_sklearn_gridsearch.py:
// SVC over C × γ and KNeighborsClassifier over k on iris and wine).
//
// # Cost and errors
//
// Fits: candidates × folds, run in parallel (internal/parallel), each
// writing its own score, so results do not depend on GOMAXPROCS. Memory:
// one kernel matrix at a time (8N² bytes, plus what building it takes)
// and the fits running at once. A failed fit scores NaN and ranks last
// (GridSearchCV's error_score=nan), its error kept in Result.Errors;
// Run fails when every candidate does. Errors: ErrFolds, ErrScoring,
// errors wrapping learner.ErrSettings, kernel and learner errors,
// ctx.Err().
package modelselect
