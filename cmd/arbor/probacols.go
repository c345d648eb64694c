package main

// probaUsage and decisionUsage document --proba and --decision (classify
// and predict).
const (
	probaUsage    = "add a column p_CLASS per class: class probabilities (svm: Platt sigmoids on cross-validated decision values and pairwise coupling, as LIBSVM -b 1 — classify fits them; knn: vote shares, as scikit-learn's predict_proba; lp/spreading: the normalised label distribution); empty for a row no label reaches (docs/probabilities.md)"
	decisionUsage = "add the SVM's decision values: a column d_A_B per pair of classes A, B (f > 0 for A, LIBSVM's sign), d_A for one-vs-rest"
)
