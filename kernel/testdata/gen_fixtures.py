#!/usr/bin/python3
"""Fixtures for package kernel, made with /usr/bin/python3 (numpy, scipy,
scikit-learn; versions recorded in each file) and the reference pipeline of
bench/peers/peers.py (double_center, cophenetic_matrix,
knn_geodesic, psd_clip).

Run from this directory:  /usr/bin/python3 gen_fixtures.py
Writes *.json.gz (matrices as nested lists, floats printed with repr, i.e.
round-trip exact).
"""
import gzip
import json
import os
import sys

import numpy as np
import scipy
import sklearn
from scipy.spatial.distance import pdist, squareform
from sklearn.datasets import make_blobs, make_moons
from sklearn.metrics.pairwise import (laplacian_kernel, linear_kernel,
                                      polynomial_kernel, rbf_kernel)

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
import peers  # noqa: E402

VERSIONS = {"numpy": np.__version__, "scipy": scipy.__version__,
            "sklearn": sklearn.__version__}


def dump(name, obj):
    obj = dict(obj, versions=VERSIONS, script="gen_fixtures.py")
    with gzip.GzipFile(name, "wb", mtime=0) as fh:
        fh.write(json.dumps(obj, separators=(",", ":")).encode())
    print(name, os.path.getsize(name), "bytes")


def L(a):
    return np.asarray(a).tolist()


def point_kernels():
    rs = np.random.RandomState(3)
    X = rs.randn(40, 5) * 1.5 + 0.3
    Y = rs.randn(15, 5)
    out = {"X": L(X), "Y": L(Y), "cases": []}
    cases = [
        ("linear", {}, lambda A, B: linear_kernel(A, B)),
        ("poly", {"A": 0.5, "B": 1.0, "Degree": 3},
         lambda A, B: polynomial_kernel(A, B, degree=3, gamma=0.5, coef0=1.0)),
        ("poly", {"A": 0.2, "B": 0.0, "Degree": 2},
         lambda A, B: polynomial_kernel(A, B, degree=2, gamma=0.2, coef0=0.0)),
        ("rbf", {"Gamma": 0.7}, lambda A, B: rbf_kernel(A, B, gamma=0.7)),
        ("rbf", {"Gamma": 0.05}, lambda A, B: rbf_kernel(A, B, gamma=0.05)),
        ("laplacian", {"Gamma": 0.3}, lambda A, B: laplacian_kernel(A, B, gamma=0.3)),
        # paper 001's exp(-q ||x-y||) has no sklearn function: numpy + scipy cdist
        ("exponential", {"Gamma": 0.4},
         lambda A, B: np.exp(-0.4 * scipy.spatial.distance.cdist(A, B))),
    ]
    for name, par, f in cases:
        out["cases"].append({"kernel": name, "params": par, "gram": L(f(X, X)),
                             "cross": L(f(Y, X))})
    dump("point_kernels.json.gz", out)


def matrices():
    rs = np.random.RandomState(5)
    A = rs.rand(50, 50) * 3
    M = A + A.T                       # symmetric, not a distance matrix
    S = rs.randn(30, 30)
    S = S + S.T                       # indefinite
    w, V = np.linalg.eigh(S)
    w[np.abs(w) < 2.0] = 0.0          # exactly rank-deficient, gap at 2
    S = (V * w) @ V.T
    S = 0.5 * (S + S.T)
    Kc, neg = peers.psd_clip(S)  # S has exact zero eigenvalues: count beyond rounding
    neg = int((w < -30 * np.finfo(float).eps * np.abs(w).max()).sum())
    dump("matrices.json.gz", {
        "M": L(M), "center": L(peers.double_center(M)),
        "S": L(S), "pinv": L(np.linalg.pinv(S, rcond=1e-8, hermitian=True)),
        "pinv_rcond": 1e-8, "pinv_rank": int((np.abs(w) > 0).sum()),
        "clip": L(Kc), "clip_neg": neg,
    })


def cluster_kernels(name, X):
    D = pdist(X)
    G, joins = peers.knn_geodesic(X)
    Gc = squareform(G, checks=False)
    out = {"X": L(X), "joins": joins, "G": L(G)}
    for m in peers.LINKAGES:
        out["hck_" + m] = L(peers.double_center(peers.cophenetic_matrix(D, m)))
        out["hckg_" + m] = L(peers.double_center(peers.cophenetic_matrix(Gc, m)))
    K, neg = peers.psd_clip(peers.double_center(G * G))
    out["isomap"] = L(K)
    out["isomap_neg"] = neg
    # Negative eigenvalues beyond rounding, |w| > n*eps*max|w| (what
    # kernel.ClipPSD counts): the null vector 1 of J gives one eigenvalue of
    # either sign at ~1e-14 that LAPACK implementations disagree on.
    w = np.linalg.eigvalsh(peers.double_center(G * G))
    out["isomap_neg_sig"] = int((w < -len(X) * np.finfo(float).eps * np.abs(w).max()).sum())
    dump("cluster_%s.json.gz" % name, out)


def extension():
    """Paper 000 sec. 3.5 with numpy's pinv, on blobs so the 7-NN graph needs joins."""
    X, _ = make_blobs(45, centers=3, n_features=4, cluster_std=0.6, random_state=2)
    Xt = X[:9] + 0.05 * np.random.RandomState(7).randn(9, 4)
    cols = [0, 3, 5, 11, 20, 33, 44]
    D = pdist(X)
    K = peers.double_center(peers.cophenetic_matrix(D, "average"))
    Kl = X @ X.T
    rc = 1e-10
    one = (Xt @ X.T) @ np.linalg.pinv(Kl, rcond=rc, hermitian=True) @ K[:, cols]
    onediag = np.einsum("ij,jk,ik->i", (Xt @ X.T) @ np.linalg.pinv(Kl, rcond=rc, hermitian=True), K,
                        (Xt @ X.T) @ np.linalg.pinv(Kl, rcond=rc, hermitian=True))
    G, joins = peers.knn_geodesic(X)
    K1, _ = peers.psd_clip(peers.double_center(G * G))
    K2 = peers.double_center(peers.cophenetic_matrix(squareform(G, checks=False), "average"))
    w = np.linalg.eigvalsh(K1)
    K1t = (Xt @ X.T) @ np.linalg.pinv(Kl, rcond=rc, hermitian=True) @ K1
    two = K1t @ np.linalg.pinv(K1, rcond=1e-9, hermitian=True) @ K2[:, cols]
    print("extension: K1 |eig| sorted:", np.sort(np.abs(w))[::-1][[0, 5, 10, 20, 30, 40]], "joins", joins)
    dump("extension.json.gz", {
        "X": L(X), "Xt": L(Xt), "cols": cols, "K": L(K), "one": L(one), "one_diag": L(onediag),
        "K1": L(K1), "K2": L(K2), "two": L(two), "rcond": 1e-9,
    })


if __name__ == "__main__":
    point_kernels()
    matrices()
    Xm, _ = make_moons(120, noise=0.1, random_state=0)
    cluster_kernels("moons", Xm)
    Xb, _ = make_blobs(60, centers=[[0, 0], [6, 0], [0, 6]], cluster_std=0.5, random_state=1)
    cluster_kernels("blobs", Xb)
    extension()
