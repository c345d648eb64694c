#!/usr/bin/python3
"""Fixtures for hclust's flat cuts, made with SciPy's hierarchy module.

Run from this directory with Debian's python:  /usr/bin/python3 gen_fcluster.py
Writes fcluster.json.gz. Every input is generated here (no file outside the
repository is read). For each case and linkage method it stores SciPy's
linkage matrix Z (the Go test rebuilds the tree from Z, so the cuts are
checked independently of Arbor's linkage) and, from that Z:
  maxdists(Z); inconsistent(Z, d) for d = 1, 2, 3; maxinconsts(Z, R) for d = 2;
  fcluster(Z, k, 'maxclust') for every k = 1..n;
  fcluster(Z, h, 'distance') at every merge height and between them;
  fcluster(Z, t, 'inconsistent', depth=d) for several t and d = 1, 2, 3;
  fcluster(Z, k, 'maxclust_monocrit', monocrit=maxRstat(Z, R_d, 3)) for
      every k and d = 2, 3;
  fcluster(Z, t, 'monocrit', monocrit=maxRstat(Z, R_2, 3)) for several t.

Cases:
  rand40    40 x 3 uniform points (RandomState(11)): no ties
  int60     60 x 4 integers 0..3 (RandomState(12)): many tied distances and
            tied merge heights, so maxclust gives fewer than k clusters
  int30x2   30 x 2 integers 0..2 (RandomState(13)): heavy ties, inversions
            for centroid and median
"""
import gzip
import json

import numpy as np
import scipy
from scipy.cluster.hierarchy import (fcluster, inconsistent, linkage, maxdists,
                                     maxinconsts, maxRstat)

METHODS = ["single", "complete", "average", "weighted", "ward", "centroid", "median"]
THRESH = [0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0, 1.1, 1.15, 1.2, 1.4, 2.0]


def fc(*a, **kw):
    return fcluster(*a, **kw).tolist()


def case(name, X):
    n = len(X)
    out = {"name": name, "n": n, "methods": {}}
    for m in METHODS:
        Z = linkage(X, method=m)
        hs = sorted(set(Z[:, 2].tolist()))
        cuts = sorted(set(hs + [(a + b) / 2 for a, b in zip(hs, hs[1:])] + [-1.0, hs[-1] + 1]))
        R = {d: inconsistent(Z, d) for d in (1, 2, 3)}
        res = {
            "Z": Z.tolist(),
            "maxdists": maxdists(Z).tolist(),
            "R": {str(d): R[d].tolist() for d in R},
            "maxinconsts2": maxinconsts(Z, R[2]).tolist(),
            "maxclust": [fc(Z, k, "maxclust") for k in range(1, n + 1)],
            "distance": [[h, fc(Z, h, "distance")] for h in cuts],
            "inconsistent": {str(d): [[t, fc(Z, t, "inconsistent", depth=d)] for t in THRESH] for d in (1, 2, 3)},
            "maxclust_monocrit": {str(d): [fc(Z, k, "maxclust_monocrit", monocrit=maxRstat(Z, R[d], 3))
                                           for k in range(1, n + 1)] for d in (2, 3)},
            "monocrit": [[t, fc(Z, t, "monocrit", monocrit=maxRstat(Z, R[2], 3))] for t in THRESH],
        }
        out["methods"][m] = res
    return out


def main():
    cases = [
        case("rand40", np.random.RandomState(11).rand(40, 3)),
        case("int60", np.random.RandomState(12).randint(0, 4, size=(60, 4)).astype(float)),
        case("int30x2", np.random.RandomState(13).randint(0, 3, size=(30, 2)).astype(float)),
    ]
    doc = {"scipy": scipy.__version__, "numpy": np.__version__, "cases": cases}
    with gzip.open("fcluster.json.gz", "wt") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
