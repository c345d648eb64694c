#!/usr/bin/python3
"""Writes landmark_proba.json: what LIBSVM and scikit-learn give on a
landmark (Nystrom) feature matrix, for the Go test of the learners arbor
classify --landmarks M runs on the features (pipeline.LandmarkSVMWith,
pipeline.LandmarkKNN).

Run: /usr/bin/python3 pipeline/testdata/gen_landmark_proba.py (from any directory)
Needs svm-train and libsvm.so.3 (apt-get install libsvm-tools) and
scikit-learn (python3-sklearn); their versions are recorded.

Features: the rows of ../../dataset/data/<set> standardised (mean and
population standard deviation of all rows), the RBF kernel with gamma,
landmarks every 6th row, and the Nystrom features
Z = K(X, L) U diag(s)^(-1/2) of the eigendecomposition K(L, L) = U diag(s) U^T
(eigenvalues below 1e-10 of the largest dropped). Labelled rows: i % 3 == 1;
the others are unlabelled (y = -1). Cases:
  wine3      wine, gamma 0.1, C 1.
  iris3perm  iris permuted (row (61 i + 50) % 150) so that the labelled
             rows' classes first appear as 2, 0, 1 (svm-train's label order is not the
             sorted one), gamma 0.5, C 2.
For each case:
  svm   svm_train (libsvm.so.3 through ctypes, bench/peers/libsvm_mem.py)
        with svm-train -b 1 -t 0 -c C's settings on the labelled rows' features (in row order; the 5-fold
        cross-validation draws its folds with glibc rand() from the default
        seed), then svm_predict_probability and svm_predict_values on every
        row with the model in memory (full precision): the model's label
        order, probA, probB, the probabilities (columns in label order) and
        the decision values (LIBSVM's pair order over its labels).
  knn   KNeighborsClassifier(n_neighbors=k).fit(Z_l, y_l).predict_proba(Z)
        for k = 1, 5 and 10 (columns in sorted class order).
"""
import gzip
import json
import os
import subprocess
import sys

import numpy as np
import sklearn
from sklearn.neighbors import KNeighborsClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "peers"))
import libsvm_mem  # noqa: E402
DATA = os.path.join(HERE, "..", "..", "dataset", "data")


def read(name):
    with gzip.open(os.path.join(DATA, name), "rt") as f:
        lines = f.read().split()
    rows = [l.split(",") for l in lines[1:]]
    return np.array([[float(v) for v in r[:-1]] for r in rows]), [int(r[-1]) for r in rows]


def nystrom(X, gamma):
    mu, sd = X.mean(axis=0), X.std(axis=0)
    sd[sd == 0] = 1
    X = (X - mu) / sd
    L = X[::6]
    sq = lambda A, B: (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    KLL = np.exp(-gamma * np.maximum(sq(L, L), 0))
    s, U = np.linalg.eigh(KLL)
    keep = s > 1e-10 * s.max()
    W = U[:, keep] / np.sqrt(s[keep])
    return np.exp(-gamma * np.maximum(sq(X, L), 0)) @ W


def libsvm(Z, y, C):
    """svm_train in this process with svm-train -b 1 -t 0 -c C's settings
    (libsvm_mem.train), then the in-memory model's probabilities and
    decision values: the support vectors at full precision (a model file
    keeps them to 8 digits)."""
    lab = [i for i, c in enumerate(y) if c >= 0]
    m = libsvm_mem.train([Z[i] for i in lab], [y[i] for i in lab], libsvm_mem.LINEAR, C)
    model = m.header()
    return {
        "label": [int(v) for v in model["label"]],
        "probA": [float(v) for v in model["probA"]], "probB": [float(v) for v in model["probB"]],
        "proba": [m.predict_probability(r) for r in Z], "decision": [m.predict_values(r) for r in Z],
    }


def case(name, X, y, gamma, C):
    Z = nystrom(X, gamma)
    y = [c if i % 3 == 1 else -1 for i, c in enumerate(y)]
    lab = [i for i, c in enumerate(y) if c >= 0]
    knn = {}
    for k in (1, 5, 10):
        m = KNeighborsClassifier(n_neighbors=k).fit(Z[lab], [y[i] for i in lab])
        knn[str(k)] = m.predict_proba(Z).tolist()
    return {"name": name, "gamma": gamma, "C": C, "Z": Z.tolist(), "y": y, "svm": libsvm(Z, y, C), "knn": knn}


def main():
    out = []
    X, y = read("wine.csv.gz")
    out.append(case("wine3", X, y, 0.1, 1.0))
    X, y = read("iris.csv.gz")
    perm = [(i * 61 + 50) % 150 for i in range(150)]
    X, y = X[perm], [y[i] for i in perm]
    lab = y[1::3]
    assert [c for i, c in enumerate(lab) if c not in lab[:i]] == [2, 0, 1]
    out.append(case("iris3perm", X, y, 0.5, 2.0))
    ver = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libsvm-tools"], capture_output=True, text=True).stdout
    with open(os.path.join(HERE, "landmark_proba.json"), "w") as f:
        json.dump({"generator": "pipeline/testdata/gen_landmark_proba.py, LIBSVM (libsvm-tools " + ver + "), scikit-learn " + sklearn.__version__, "cases": out}, f)
        f.write("\n")


main()
