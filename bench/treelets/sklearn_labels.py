#!/usr/bin/python3
"""scikit-learn's cluster labels on the six toy sets of paper 004's Figure 1.

Tools: Debian /usr/bin/python3 3.11, numpy 1.24.2, scikit-learn 1.2.1.
Run from the repository root:
    /usr/bin/python3 bench/treelets/sklearn_labels.py > bench/treelets/testdata/sklearn_labels.csv
    gzip -n -9 -f bench/treelets/testdata/sklearn_labels.csv
Reads the embedded toy sets dataset/data/NAME.csv.gz (f1,f2,label),
z-scores the features (population standard deviation, as
bench/peers/peers.py --scale std and Arbor's
dataset.Standardize) and clusters them into K = the number of classes
(no_structure: 3) with
  agglo_single, agglo_average, agglo_complete, agglo_ward,
  spectral_knn10, dbscan   exactly as peers.py's `cluster` mode (same
                           parameters, DBSCAN eps/min_samples per set;
                           DBSCAN's noise -1 is one more cluster)
  kmeans                   KMeans(K, n_init=10, random_state=0)
  minibatch_kmeans         MiniBatchKMeans(K, n_init=3, random_state=0)
  meanshift                MeanShift(bandwidth=estimate_bandwidth(X,
                           quantile=0.3), bin_seeding=True)
                           (scikit-learn's plot_cluster_comparison)
  gmm                      GaussianMixture(K, covariance_type="full",
                           random_state=0)
Prints CSV lines "dataset,method,labels" (labels: one integer per row of
the set, space-separated, in row order).
"""
import gzip
import sys
import warnings

import numpy as np
from sklearn.cluster import (DBSCAN, AgglomerativeClustering, KMeans, MeanShift,
                             MiniBatchKMeans, SpectralClustering, estimate_bandwidth)
from sklearn.mixture import GaussianMixture

warnings.filterwarnings("ignore")
TOYS = ["noisy_circles", "noisy_moons", "blobs", "aniso", "varied", "no_structure"]
# peers.py's DBSCAN_PARAMS (scikit-learn's plot_cluster_comparison values)
DBSCAN_PARAMS = {"noisy_circles": (0.3, 7), "noisy_moons": (0.3, 7), "blobs": (0.3, 7),
                 "no_structure": (0.3, 7), "aniso": (0.15, 7), "varied": (0.18, 7)}


def load(name):
    with gzip.open("dataset/data/%s.csv.gz" % name, "rt") as fh:
        D = np.loadtxt(fh, delimiter=",", skiprows=1, ndmin=2)
    X, y = D[:, :-1], D[:, -1].astype(int)
    sd = X.std(0)
    sd[sd == 0] = 1.0
    return (X - X.mean(0)) / sd, y


def methods(name, X, k):
    for link in ("single", "average", "complete", "ward"):
        yield "agglo_" + link, AgglomerativeClustering(n_clusters=k, linkage=link).fit_predict(X)
    yield "spectral_knn10", SpectralClustering(n_clusters=k, affinity="nearest_neighbors", n_neighbors=10,
                                               assign_labels="kmeans", random_state=0).fit_predict(X)
    eps, ms = DBSCAN_PARAMS[name]
    yield "dbscan", DBSCAN(eps=eps, min_samples=ms).fit_predict(X)
    yield "kmeans", KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(X)
    yield "minibatch_kmeans", MiniBatchKMeans(n_clusters=k, n_init=3, random_state=0).fit_predict(X)
    bw = estimate_bandwidth(X, quantile=0.3)
    yield "meanshift", MeanShift(bandwidth=bw, bin_seeding=True).fit_predict(X)
    yield "gmm", GaussianMixture(n_components=k, covariance_type="full", random_state=0).fit(X).predict(X)


def main():
    out = sys.stdout
    for name in TOYS:
        X, y = load(name)
        k = len(np.unique(y))
        k = k if k > 1 else 3  # no_structure: the example asks for 3 clusters
        for meth, lab in methods(name, X, k):
            lab = np.asarray(lab, dtype=int)
            lab[lab < 0] = lab.max() + 1  # DBSCAN noise: one more cluster
            out.write("%s,%s,%s\n" % (name, meth, " ".join(map(str, lab))))


if __name__ == "__main__":
    main()
