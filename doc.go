// Package arbor is a toolkit of kernel methods for hierarchical clustering and
// semi-supervised learning.
//
// Data flows left to right, and package imports only point left:
//
//	points X ─► distances D ─► Tree ─► ultrametric M ─► kernel K ─► learner ─► labels ─► metrics/figures
//	dataset      distance       hclust    hclust           kernel      svm, knn,   metrics, figure
//	             graph                                                 propagate,
//	                                                                   svcluster
//
// Every learner also fits from a Gram matrix (FitGram), so any kernel — including
// one a user precomputed — enters at the same place.
//
// The methods come from five papers:
//
//   - Z. Bodó, Hierarchical cluster kernels for supervised and semi-supervised
//     learning (ICCP 2008): packages hclust, graph and kernel.
//   - A. Ben-Hur, D. Horn, H. Siegelmann, V. Vapnik, A support vector method for
//     hierarchical clustering (NIPS 2000): packages svm (SVDD) and svcluster.
//   - Z. Bodó, Z. Minier, On supervised and semi-supervised k-nearest neighbor
//     algorithms (2008): packages knn, propagate and kernel (MultiType).
//   - T. Covões et al., HiBUST (JIDM 2013) and H. Xia et al., Kernel Treelets (2018).
//
// The command-line tool lives in cmd/arbor.
package arbor
