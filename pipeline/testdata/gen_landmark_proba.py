#!/usr/bin/python3
"""Writes landmark_proba.json: what LIBSVM and scikit-learn give on a
landmark (Nystrom) feature matrix, for the Go test of the learners arbor
classify --landmarks M runs on the features (pipeline.LandmarkSVMWith,
pipeline.LandmarkKNN).

Run from this directory: /usr/bin/python3 gen_landmark_proba.py
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
  svm   svm_train (libsvm.so.3, ctypes) with svm-train -b 1 -t 0 -c C's
        settings on the labelled rows' features (in row order; the 5-fold
        cross-validation draws its folds with glibc rand() from the default
        seed), then svm_predict_probability and svm_predict_values on every
        row with the model in memory (full precision): the model's label
        order, probA, probB, the probabilities (columns in label order) and
        the decision values (LIBSVM's pair order over its labels).
  knn   KNeighborsClassifier(n_neighbors=k).fit(Z_l, y_l).predict_proba(Z)
        for k = 1, 5 and 10 (columns in sorted class order).
"""
import ctypes
import gzip
import json
import os
import subprocess
import tempfile

import numpy as np
import sklearn
from sklearn.neighbors import KNeighborsClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
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


class Node(ctypes.Structure):
    _fields_ = [("index", ctypes.c_int), ("value", ctypes.c_double)]


class Problem(ctypes.Structure):
    _fields_ = [("l", ctypes.c_int), ("y", ctypes.POINTER(ctypes.c_double)), ("x", ctypes.POINTER(ctypes.POINTER(Node)))]


class Parameter(ctypes.Structure):
    _fields_ = [("svm_type", ctypes.c_int), ("kernel_type", ctypes.c_int), ("degree", ctypes.c_int),
                ("gamma", ctypes.c_double), ("coef0", ctypes.c_double), ("cache_size", ctypes.c_double),
                ("eps", ctypes.c_double), ("C", ctypes.c_double), ("nr_weight", ctypes.c_int),
                ("weight_label", ctypes.POINTER(ctypes.c_int)), ("weight", ctypes.POINTER(ctypes.c_double)),
                ("nu", ctypes.c_double), ("p", ctypes.c_double), ("shrinking", ctypes.c_int), ("probability", ctypes.c_int)]


lib = ctypes.CDLL("libsvm.so.3")
libc = ctypes.CDLL("libc.so.6")
PRINT = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
quiet = PRINT(lambda s: None)  # svm-train -q
lib.svm_set_print_string_function.argtypes = [PRINT]
lib.svm_set_print_string_function(quiet)
lib.svm_train.restype = ctypes.c_void_p
lib.svm_train.argtypes = [ctypes.POINTER(Problem), ctypes.POINTER(Parameter)]
lib.svm_save_model.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
lib.svm_get_nr_class.argtypes = [ctypes.c_void_p]
lib.svm_predict_probability.restype = ctypes.c_double
lib.svm_predict_probability.argtypes = [ctypes.c_void_p, ctypes.POINTER(Node), ctypes.POINTER(ctypes.c_double)]
lib.svm_predict_values.restype = ctypes.c_double
lib.svm_predict_values.argtypes = [ctypes.c_void_p, ctypes.POINTER(Node), ctypes.POINTER(ctypes.c_double)]


def nodes(r):
    return (Node * (len(r) + 1))(*[Node(j + 1, v) for j, v in enumerate(r)], Node(-1, 0))


def libsvm(Z, y, C):
    """svm_train in this process with svm-train's defaults for -b 1 -t 0
    -c C (srand(1) first: glibc's default state, that of a fresh svm-train
    process, which never calls srand), then the in-memory model's
    probabilities and decision values: the support vectors at full
    precision (a model file keeps them to 8 digits)."""
    lab = [i for i, c in enumerate(y) if c >= 0]
    rows = [nodes(Z[i]) for i in lab]
    prob = Problem(len(lab), (ctypes.c_double * len(lab))(*[y[i] for i in lab]),
                   (ctypes.POINTER(Node) * len(lab))(*[ctypes.cast(r, ctypes.POINTER(Node)) for r in rows]))
    param = Parameter(svm_type=0, kernel_type=0, degree=3, gamma=1.0 / len(Z[0]), coef0=0, cache_size=100, eps=1e-3,
                      C=C, nr_weight=0, nu=0.5, p=0.1, shrinking=1, probability=1)
    libc.srand(1)
    m = lib.svm_train(ctypes.byref(prob), ctypes.byref(param))
    with tempfile.TemporaryDirectory() as tmp:
        mo = os.path.join(tmp, "model")
        lib.svm_save_model(mo.encode(), m)
        model = {}
        with open(mo) as f:
            for line in f:
                if line.startswith("SV"):
                    break
                k, *v = line.split()
                model[k] = v
    k = lib.svm_get_nr_class(m)
    proba, dec = [], []
    for r in Z:
        p = (ctypes.c_double * k)()
        lib.svm_predict_probability(m, nodes(r), p)
        proba.append(list(p))
        d = (ctypes.c_double * (k * (k - 1) // 2))()
        lib.svm_predict_values(m, nodes(r), d)
        dec.append(list(d))
    return {
        "label": [int(v) for v in model["label"]],
        "probA": [float(v) for v in model["probA"]], "probB": [float(v) for v in model["probB"]],
        "proba": proba, "decision": dec,
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
