#!/usr/bin/python3
"""Fixtures for package propagate (scikit-learn LabelPropagation / LabelSpreading).

Run: /usr/bin/python3 gen_fixtures.py   (writes propagate.json.gz beside it)

Data (z-scored as bench/peers/peers.py does): two moons (dataset/data, 10
labelled per class), iris (5 per class), a random 3-class Gaussian set (8 per
class); labelled rows from peers.per_class_split(y, k, seed 0).

For each set and affinity (rbf with gamma, knn with n_neighbors=7):
  * lp:  LabelPropagation(max_iter=1000, tol=1e-3) label_distributions_,
         transduction_, n_iter_;
  * ls:  LabelSpreading(alpha=0.2, max_iter=30, tol=1e-3), same fields;
  * harmonic: the exact fixed point of propagation, numpy dense solve of
    (D_U - W_UU) f_U = W_UL f_L on the row-normalised graph scikit-learn
    iterates (rows normalised);
  * spread_exact: (1 - alpha) (I - alpha S)^-1 Y, rows normalised.
knn_ties marks a kNN graph whose k-th neighbour distance is tied somewhere
(scikit-learn's choice among tied neighbours is unspecified there).
"""
import gzip
import json
import os
import sys

import numpy as np
import scipy
import sklearn
from scipy.sparse import csgraph
from sklearn.neighbors import NearestNeighbors
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
sys.dont_write_bytecode = True
import peers  # noqa: E402


def dense_graph(X, kind, gamma, k):
    if kind == "rbf":
        from sklearn.metrics.pairwise import rbf_kernel
        return rbf_kernel(X, X, gamma=gamma)
    nn = NearestNeighbors(n_neighbors=k).fit(X)
    return nn.kneighbors_graph(X, k, mode="connectivity").toarray()


def reachable(W, L):
    """Points with a directed path i -> ... -> labelled along W_ij > 0."""
    on = np.zeros(len(W), bool)
    on[L] = True
    stack = list(L)
    Wt = (W > 0).T
    while stack:
        v = stack.pop()
        for u in np.flatnonzero(Wt[v]):
            if not on[u]:
                on[u] = True
                stack.append(u)
    return on


def normalise(F):
    s = F.sum(1, keepdims=True)
    s[s == 0] = 1
    return F / s


def harmonic(W, y, L):
    """Exact fixed point of the propagation, on the points a label reaches
    (the others stay 0, as in scikit-learn's iteration); degrees count the
    reachable neighbours only (a zero row contributes nothing to the
    normalised update)."""
    n = len(y)
    C = y.max() + 1
    on = reachable(W, L)
    lab = np.zeros(n, bool)
    lab[L] = True
    U = np.flatnonzero(on & ~lab)
    Y = np.zeros((n, C))
    Y[L, y[L]] = 1
    d = W[:, on].sum(1)
    A = np.diag(d[U]) - W[np.ix_(U, U)]
    F = Y.copy()
    F[U] = np.linalg.solve(A, W[np.ix_(U, L)] @ Y[L])
    return normalise(F), np.flatnonzero(~on).tolist()


def spread_exact(W, y, L, alpha):
    n = len(y)
    C = y.max() + 1
    Y = np.zeros((n, C))
    Y[L, y[L]] = 1
    S = -csgraph.laplacian(W, normed=True)
    np.fill_diagonal(S, 0)
    F = (1 - alpha) * np.linalg.solve(np.eye(n) - alpha * S, Y)
    return normalise(F)


def main():
    rs = np.random.RandomState(5)
    Xm, ym = peers.load_csv(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dataset", "data", "two_moons.csv.gz"))
    Xi, yi = peers.load_csv(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dataset", "data", "iris.csv.gz"))
    Xr = rs.randn(240, 4) + np.repeat(np.array([[0, 0, 0, 0], [2.5, 0, 0, 0], [0, 2.5, 1, 0]]), 80, axis=0)
    yr = np.repeat(np.arange(3), 80)
    out = dict(versions=dict(numpy=np.__version__, scipy=scipy.__version__, sklearn=sklearn.__version__), sets=[])
    for name, X0, y, per, gamma in (("two_moons", Xm, ym, 10, 20.0), ("iris", Xi, yi, 5, 20.0),
                                    ("random3", Xr, yr, 8, 1.0)):
        X = peers.scale(X0, "std")
        L = peers.per_class_split(y, per, 0)
        yp = np.full(len(y), -1)
        yp[L] = y[L]
        rec = dict(name=name, X=X.tolist(), y=y.tolist(), labeled=L.tolist(), gamma=gamma, fits=[])
        dist, _ = NearestNeighbors(n_neighbors=8).fit(X).kneighbors(X)
        rec["knn_ties"] = bool(np.any(dist[:, 6] == dist[:, 7]))
        for kind in ("rbf", "knn"):
            W = dense_graph(X, kind, gamma, 7)
            lp = LabelPropagation(kernel=kind, gamma=gamma, n_neighbors=7, max_iter=1000, tol=1e-3).fit(X, yp)
            ls = LabelSpreading(kernel=kind, gamma=gamma, n_neighbors=7, alpha=0.2, max_iter=30, tol=1e-3).fit(X, yp)
            rec["fits"].append(dict(kind=kind,
                                    lp=lp.label_distributions_.tolist(), lp_trans=lp.transduction_.tolist(),
                                    lp_iter=int(lp.n_iter_),
                                    ls=ls.label_distributions_.tolist(), ls_trans=ls.transduction_.tolist(),
                                    ls_iter=int(ls.n_iter_),
                                    harmonic=harmonic(W, y, L)[0].tolist(), unreachable=harmonic(W, y, L)[1],
                                    spread_exact=spread_exact(W, y, L, 0.2).tolist()))
        out["sets"].append(rec)
    with gzip.open("propagate.json.gz", "wt") as fh:
        json.dump(out, fh)
    for s in out["sets"]:
        print(s["name"], "knn ties:", s["knn_ties"], [(f["kind"], f["lp_iter"], f["ls_iter"]) for f in s["fits"]])


if __name__ == "__main__":
    main()
