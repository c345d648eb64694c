#!/usr/bin/python3
"""Fixtures for package hclust, made with SciPy's hierarchy module.

Run from this directory with Debian's python:  /usr/bin/python3 gen_fixtures.py
Writes fixtures.json.gz: a list of cases, each with the input (points X, whose
distances the Go test computes like pdist, or a condensed matrix D) and, for
every linkage method, scipy's linkage matrix Z, cophenet(Z), leaves_list(Z),
fcluster(Z, k, 'maxclust') for a few k and fcluster(Z, h, 'distance') for a
few heights h.

Cases:
  rand60    60 x 3 uniform points (RandomState(1))
  rand200   200 x 5 uniform points (RandomState(2))
  iris      the 150 x 4 iris features (dataset/data/iris.csv.gz); it has
            duplicate points, so distance 0 ties
  grid      7 x 6 integer grid in 2-D plus 8 repeated points: massive exact
            ties in distances and heights
  rand700   700 x 4 uniform points (RandomState(4)); only Z and leaves
  zeros, ties  7 resp. 9 observations with all distances 0 resp. 1
  pair      two observations
  nonmetric 80 random uniform dissimilarities (RandomState(3)), not a
            metric: exercises the algorithms on arbitrary input (centroid,
            median, ward are skipped: SciPy may return NaN there)
"""
import gzip
import json
import os
import sys

import numpy as np
import scipy
from scipy.cluster.hierarchy import cophenet, fcluster, leaves_list, linkage
from scipy.spatial.distance import pdist

METHODS = ["single", "complete", "average", "weighted", "ward", "centroid", "median"]


def case(name, X=None, D=None, methods=METHODS, light=False):
    if D is None:
        D = pdist(X)
    n = int(round((1 + np.sqrt(1 + 8 * len(D))) / 2))
    out = {"name": name, "n": n}
    if X is not None:
        out["X"] = X.tolist()
    else:
        out["D"] = D.tolist()
    res = {}
    for m in methods:
        Z = linkage(D, method=m)
        hs = Z[:, 2]
        ks = sorted({1, 2, 3, 5, 10, n // 2, n - 1, n} & set(range(1, n + 1)))
        # heights: between merges, exactly at a merge height, below all
        cuts = sorted({float(hs[len(hs) // 2]), float(hs[len(hs) // 3]),
                       float((hs[-2] + hs[-1]) / 2) if len(hs) > 1 else 0.0, -1.0, float(hs.max()) + 1})
        if light:
            res[m] = {"Z": Z.tolist(), "leaves": leaves_list(Z).tolist()}
            continue
        res[m] = {
            "Z": Z.tolist(),
            "coph": cophenet(Z).tolist(),
            "leaves": leaves_list(Z).tolist(),
            "maxclust": {str(k): fcluster(Z, k, "maxclust").tolist() for k in ks},
            "distance": [[h, fcluster(Z, h, "distance").tolist()] for h in cuts],
        }
    out["methods"] = res
    return out


def main():
    cases = []
    cases.append(case("rand60", X=np.random.RandomState(1).rand(60, 3)))
    cases.append(case("rand200", X=np.random.RandomState(2).rand(200, 5)))
    iris = np.loadtxt(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dataset", "data", "iris.csv.gz"), delimiter=",", skiprows=1)[:, :4]
    cases.append(case("iris", X=iris))
    g = np.array([[i, j] for i in range(7) for j in range(6)], dtype=float)
    g = np.vstack([g, g[[0, 5, 9, 9, 20, 33, 40, 41]]])
    cases.append(case("grid", X=g))
    rs = np.random.RandomState(3)
    # large enough for the chain's lazy repairs and repeated compactions
    cases.append(case("rand700", X=np.random.RandomState(4).rand(700, 4), light=True))
    cases.append(case("nonmetric", D=rs.rand(80 * 79 // 2), methods=["single", "complete", "average", "weighted"]))
    # degenerate inputs: all distances equal (zero), and a single pair
    cases.append(case("zeros", D=np.zeros(7 * 6 // 2)))
    cases.append(case("ties", D=np.ones(9 * 8 // 2)))
    cases.append(case("pair", D=np.array([3.0])))
    meta = {"scipy": scipy.__version__, "numpy": np.__version__, "python": sys.version.split()[0]}
    data = json.dumps({"meta": meta, "cases": cases}).encode()
    with open("fixtures.json.gz", "wb") as raw:  # mtime=0: reproducible bytes
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
            fh.write(data)


if __name__ == "__main__":
    main()
