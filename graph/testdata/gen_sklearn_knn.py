#!/usr/bin/python3
"""Fixtures for graph.KNNSklearn: scikit-learn's kneighbors_graph on data with
exactly tied distances.

Run from this directory with Debian's python:  /usr/bin/python3 gen_sklearn_knn.py
Writes sklearn_knn.json.gz. Inputs are generated here or bundled with
scikit-learn (load_digits: 1797 x 64 integers 0..16, many tied distances).
For each case and thread count T the file holds the rows of
kneighbors_graph(X, k, mode='connectivity', include_self=False) computed with
algorithm='brute' under threadpool_limits(T) (scikit-learn's choice among
tied neighbours depends on its number of OpenMP threads), and KNN's own rule
(the lower index wins) is checked to differ on some of them.
"""
import gzip
import json
import os

import numpy as np
import scipy
import sklearn
from sklearn.datasets import load_digits
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits


def knn_rows(X, k, threads):
    # kneighbors_graph(None) is sklearn.neighbors.kneighbors_graph(X, k,
    # include_self=False): each row's k nearest other rows
    with threadpool_limits(limits=threads, user_api="openmp"):
        nn = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(X)
        G = nn.kneighbors_graph(None, k, mode="connectivity")
    G = G.tocsr()
    return [sorted(G.indices[G.indptr[i]:G.indptr[i + 1]].tolist()) for i in range(G.shape[0])]


def main():
    digits = load_digits().data
    rs = np.random.RandomState(21)
    cases = [
        ("digits", digits, 7),
        ("digits600", digits[:600], 5),
        ("int300x20", rs.randint(0, 3, size=(300, 20)).astype(float), 6),
    ]
    out = []
    for name, X, k in cases:
        c = {"name": name, "k": k, "X": X.astype(int).tolist(), "threads": {}}
        for t in (1, 2):
            c["threads"][str(t)] = knn_rows(X, k, t)
        out.append(c)
    doc = {"sklearn": sklearn.__version__, "scipy": scipy.__version__, "numpy": np.__version__,
           "cpus": os.cpu_count(), "cases": out}
    with gzip.open("sklearn_knn.json.gz", "wt") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
