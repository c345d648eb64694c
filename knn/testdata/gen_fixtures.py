#!/usr/bin/python3
"""Fixtures for package knn.

Run: /usr/bin/python3 gen_fixtures.py   (writes knn.json.gz beside it)

For each data set (two moons, iris, a random 3-class set), kernel (linear,
rbf, and on iris the average-linkage hierarchical cluster kernel -0.5 J M J
given as a matrix) and k = 1..5:
  * peer: bench/peers/peers.py kernel_knn (the convention: quantised
    d^2 ties to the lower labelled row, tied votes to the first-ranked class);
  * sk_uniform / sk_distance: scikit-learn KNeighborsClassifier(metric=
    "precomputed") on D = sqrt(max(d^2, 0)), with predict_proba;
  * sk_ok: rows where scikit-learn's answer is determined (no distance tie at
    the k-th place and, for uniform weights, no tied vote), the only rows on
    which scikit-learn and the peer convention must agree;
  * sim: similarity-weighted vote (weights K(x, z)) over the peer ranking,
    computed here with numpy (rbf and cluster kernels only: K >= 0).
Multi-label: the random set with label sets, soft scores over the peer
ranking (uniform weights).
"""
import gzip
import json
import os
import sys

import numpy as np
import scipy
import sklearn
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import pdist, squareform
from sklearn.neighbors import KNeighborsClassifier

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
sys.dont_write_bytecode = True
import peers  # noqa: E402


def ranking(K, L, U):
    diag = np.diag(K)
    D2 = np.maximum(diag[U][:, None] + diag[L][None, :] - 2.0 * K[np.ix_(U, L)], 0.0)
    tol = 1e-9 * max(D2.max(), 1e-300)
    q = np.round(D2 / tol)
    return D2, q, np.argsort(q, axis=1, kind="stable")


def case(name, X, y, L, kern, K, gamma=None, store_K=False):
    n = len(y)
    mask = np.zeros(n, bool)
    mask[L] = True
    U = np.flatnonzero(~mask)
    D2, q, order = ranking(K, L, U)
    D = np.sqrt(D2)
    peer = peers.kernel_knn(K, y, L, U, range(1, 6))
    out = dict(name=name, kernel=kern, gamma=gamma, labeled=[int(i) for i in L], ks=[])
    if store_K:
        out["K"] = K.tolist()
    yl = y[L]
    C = int(y.max()) + 1
    for k in range(1, 6):
        rec = dict(k=k, peer=peer[k].tolist())
        qs = np.take_along_axis(q, order, axis=1)
        kth_tie = qs[:, k - 1] == qs[:, k]
        for w in ("uniform", "distance"):
            clf = KNeighborsClassifier(n_neighbors=k, weights=w, metric="precomputed")
            clf.fit(np.zeros((len(L), len(L))), yl)
            pred = clf.predict(D)
            proba = clf.predict_proba(D)
            top = yl[order[:, :k]]
            counts = np.stack([(top == c).sum(1) for c in range(C)], 1)
            vote_tie = (counts == counts.max(1, keepdims=True)).sum(1) > 1
            ok = ~kth_tie & (~vote_tie if w == "uniform" else True) & (q.min(1) > 0)
            rec["sk_" + w] = pred.tolist()
            rec["sk_%s_proba" % w] = proba.tolist()
            rec["sk_%s_ok" % w] = ok.tolist()
        if kern != "linear":
            sim = []
            for r in range(len(U)):
                nb = order[r, :k]
                wsum = np.zeros(C)
                for j in nb:
                    wsum[yl[j]] += K[U[r], L[j]]
                best = wsum.max()
                sim.append(int(next(yl[j] for j in nb if wsum[yl[j]] == best)))
            rec["sim"] = sim
        out["ks"].append(rec)
    return out


def main():
    rs = np.random.RandomState(11)
    sets = []

    def load(path):
        d = np.loadtxt(path, delimiter=",", skiprows=1)
        return d[:, :-1], d[:, -1].astype(int)

    Xm, ym = load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dataset", "data", "two_moons.csv.gz"))
    Xi, yi = load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dataset", "data", "iris.csv.gz"))
    Xr = rs.randn(150, 3) + np.repeat(np.array([[0, 0, 0], [2, 0, 0], [0, 2, 1]]), 50, axis=0)
    yr = np.repeat(np.arange(3), 50)
    data = []
    for name, X, y, per in (("two_moons", Xm, ym, 10), ("iris", Xi, yi, 5), ("random3", Xr, yr, 6)):
        L = peers.per_class_split(y, per, 0)
        data.append(dict(name=name, X=X.tolist(), y=y.tolist()))
        sets.append(case(name, X, y, L, "linear", X @ X.T))
        g = 0.5
        sets.append(case(name, X, y, L, "rbf", np.exp(-g * squareform(pdist(X, "sqeuclidean"))), gamma=g))
        if name == "iris":
            M = squareform(cophenet(linkage(pdist(X), "average")))
            sets.append(case(name, X, y, L, "hck_average", peers.double_center(M), store_K=True))
    # multi-label: random3 rows carry their class, plus label 3 when x2 > 0.8
    Xr_sets = [[int(c)] + ([3] if Xr[i, 2] > 0.8 else []) for i, c in enumerate(yr)]
    L = peers.per_class_split(yr, 8, 1)
    mask = np.zeros(len(yr), bool)
    mask[L] = True
    U = np.flatnonzero(~mask)
    K = Xr @ Xr.T
    _, _, order = ranking(K, L, U)
    ml = dict(name="random3_multilabel", sets=Xr_sets, labeled=[int(i) for i in L], ks=[])
    for k in (3, 5):
        S = np.zeros((len(U), 4))
        for r in range(len(U)):
            for j in order[r, :k]:
                S[r, Xr_sets[L[j]]] += 1.0 / k
        ml["ks"].append(dict(k=k, scores=S.tolist()))
    out = dict(versions=dict(numpy=np.__version__, scipy=scipy.__version__, sklearn=sklearn.__version__),
               data=data, cases=sets, multilabel=ml)
    with gzip.open("knn.json.gz", "wt") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
