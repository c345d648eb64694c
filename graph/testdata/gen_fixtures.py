#!/usr/bin/python3
"""Fixtures for package graph: run with /usr/bin/python3 (numpy, scipy, sklearn).

    cd graph/testdata && /usr/bin/python3 gen_fixtures.py

Writes fixtures.json: for each case the data X, the spec, the symmetrised
neighbourhood-graph edges (i < j, length) and the geodesic matrix G with the
number of joins, all from peers.knn_geodesic (bench/peers/peers.py) or,
for eps graphs, the same code with radius_neighbors_graph.
"""
import json
import os
import sys

import numpy as np
import scipy
import sklearn
from scipy.sparse.csgraph import connected_components, shortest_path
from scipy.spatial.distance import pdist, squareform
from sklearn.neighbors import kneighbors_graph, radius_neighbors_graph

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
sys.dont_write_bytecode = True
import peers  # noqa: E402


def eps_geodesic(X, eps):
    """peers.knn_geodesic with the kNN graph replaced by the eps graph."""
    A = radius_neighbors_graph(X, eps, mode="distance", include_self=False)
    A.data = np.maximum(A.data, 1e-12)
    A = A.maximum(A.T).tocsr()
    ncomp, comp = connected_components(A, directed=False)
    G = shortest_path(A, method="D", directed=False)
    G = 0.5 * (G + G.T)
    joins = 0
    if ncomp > 1:
        E = squareform(pdist(X))
        dmax = E.max()
        while ncomp > 1:
            gmax = G[np.isfinite(G)].max()
            Em = np.where(comp[:, None] != comp[None, :], E, np.inf)
            i, j = np.unravel_index(np.argmin(Em), Em.shape)
            w = gmax + E[i, j] / dmax
            a_ = np.flatnonzero(comp == comp[i])
            b_ = np.flatnonzero(comp == comp[j])
            cross = G[a_, i][:, None] + w + G[j, b_][None, :]
            G[np.ix_(a_, b_)] = cross
            G[np.ix_(b_, a_)] = cross.T
            comp[b_] = comp[i]
            ncomp -= 1
            joins += 1
    np.fill_diagonal(G, 0.0)
    return G, joins, A


def edges(A):
    A = A.tocoo()
    out = sorted((int(i), int(j), float(w)) for i, j, w in zip(A.row, A.col, A.data) if i < j)
    return [list(e) for e in out]


def blobs(rs, centers, per, std):
    return np.vstack([c + std * rs.randn(per, len(c)) for c in centers])


def case(name, X, kind, param):
    X = np.asarray(X, dtype=float)
    if kind == "knn":
        G, joins = peers.knn_geodesic(X, k=param)
        A = kneighbors_graph(X, param, mode="distance", include_self=False)
        A.data = np.maximum(A.data, 1e-12)
        A = A.maximum(A.T)
    else:
        G, joins, A = eps_geodesic(X, param)
    ncomp, _ = connected_components(A, directed=False)
    return {"name": name, "X": X.tolist(), "kind": kind, "param": param,
            "edges": edges(A), "components": int(ncomp), "joins": int(joins),
            "G": G.tolist()}


def main():
    rs = np.random.RandomState(7)
    cases = [
        case("uniform_knn7", rs.rand(60, 3), "knn", 7),
        case("uniform_knn1", rs.rand(30, 2), "knn", 1),
        case("three_blobs_knn3", blobs(rs, [[0, 0], [10, 0], [0, 10]], 15, 0.5), "knn", 3),
        case("six_blobs_knn3", blobs(rs, [[0, 0, 0], [8, 0, 0], [0, 8, 0], [0, 0, 8],
                                          [8, 8, 8], [16, 0, 0]], 8, 0.7), "knn", 3),
        case("highdim_knn5", rs.randn(50, 20), "knn", 5),  # sklearn uses brute force (d > 15)
        case("uniform_eps", rs.rand(50, 2), "eps", 0.2),
        case("blobs_eps", blobs(rs, [[0, 0], [6, 0], [3, 5]], 12, 0.6), "eps", 1.0),
    ]
    meta = {"generator": "graph/testdata/gen_fixtures.py", "numpy": np.__version__,
            "scipy": scipy.__version__, "sklearn": sklearn.__version__}
    with open("fixtures.json", "w") as fh:
        json.dump({"meta": meta, "cases": cases}, fh)


if __name__ == "__main__":
    main()
