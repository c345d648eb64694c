// Package metrics scores classifications and clusterings.
//
// Classification (labels are class indices 0..C-1, as in dataset.Dataset.Y):
//
//   - Accuracy: fraction of rows with yPred == yTrue.
//   - Confusion: C×C counts, row = true class, column = predicted class.
//   - PRF: per-class precision tp/(tp+fp), recall tp/(tp+fn) and
//     F1 = 2PR/(P+R), with 0 where a denominator is 0; equal to scikit-learn's
//     precision_recall_fscore_support(labels=range(C), zero_division=0).
//   - Breakeven: the precision–recall breakeven point (BEP) of paper 002
//     (Bodó & Minier 2008, Table 2), micro- and macro-averaged over classes.
//     Definition used: for class c with R_c relevant rows, rank all rows by
//     score_c (descending) and take the precision of the top R_c rows; at that
//     cut precision and recall are both (relevant in top R_c)/R_c, so it is the
//     point where the two curves meet — the "precision at R" (R-precision) of
//     the standard Reuters evaluation. Rows whose score ties with the score at
//     rank R_c contribute their expected share (relevant among the tied ×
//     places left / number tied), so the result does not depend on row order.
//     Macro BEP = mean of the per-class BEPs over classes with R_c > 0; micro
//     BEP = the same computation on the pooled (row, class) pairs.
//
// Clustering (any integer ids; -1 noise is an ordinary id unless stated):
//
//   - ARI: adjusted Rand index (Hubert & Arabie 1985) from pair counts,
//     2(tp·tn − fn·fp) / ((tp+fn)(fn+tn) + (tp+fp)(fp+tn)), 1 when fn = fp = 0;
//     equal to scikit-learn's adjusted_rand_score.
//   - NMI: normalised mutual information with the arithmetic mean of the two
//     entropies, MI / ((H(a)+H(b))/2), natural logarithms, with scikit-learn's
//     special cases (both single-cluster → 1; MI = 0 → 0); equal to
//     normalized_mutual_info_score(average_method="arithmetic").
//   - Misclassified: points not covered by the best one-to-one matching of
//     clusters to classes (maximum-weight matching of the contingency table by
//     the Hungarian algorithm, Assign); negative cluster ids (noise) are never
//     matched and count as misclassified.
//   - PairCounts: unordered pair counts TP (same class, same cluster), FP
//     (different class, same cluster), FN, TN, with TPR = TP/(TP+FN) and
//     FPR = FP/(FP+TN) (Ben-Hur et al. 2001 report these).
//   - HierarchyROCLabels, HierarchyROCGraph: the pairwise ROC through every
//     level of a hierarchy (paper 004 §4.2–4.3), positives = same-class pairs
//     or the graph's edges, counted incrementally as clusters merge
//     (O(n log n) class-table or O(E log n) adjacency updates, not O(n²) per
//     level); AUC by the trapezoid rule in level order (numpy.trapz).
//     PartitionROC: one point per flat partition (the paper's k-means curve).
//
// Complexity: O(n + C²) for the classification counts, O(n log n) per class for
// Breakeven, O(n + a·b) for the contingency-based scores with a and b distinct
// ids, O(m²·M) for Assign on an m×M cost matrix (m ≤ M).
//
// Errors: ErrLength (length mismatch), ErrEmpty (no rows), ErrLabel (a class
// index outside 0..C-1), ErrNonFinite (a non-finite score or cost); all wrapped with
// the position of the offending value and usable with errors.Is.
package metrics
