#!/usr/bin/python3
"""Cophenetic correlation fixtures for package hclust, made with SciPy.

Run from this directory with Debian's python:  /usr/bin/python3 gen_cophenet.py
Writes cophenet.json.gz: for each case, the points X and, for every linkage
method, the first value of scipy.cluster.hierarchy.cophenet(Z, pdist(X))
with Z = linkage(pdist(X), method).

Cases:
  normal1200  1,200 x 10 standard normal points (default_rng(0)), rounded to
              6 decimals as a CSV written with %.6f holds them
  blobs       600 x 3 points in three Gaussian blobs (default_rng(1)),
              rounded to 6 decimals: correlations near 1
  iris        the 150 x 4 iris features (dataset/data/iris.csv.gz):
              duplicate points, distance 0 ties
  grid        7 x 6 integer grid plus 8 repeated points: tied distances and
              heights
"""
import gzip
import json
import os
import sys

import numpy as np
import scipy
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import pdist

METHODS = ["single", "complete", "average", "weighted", "ward", "centroid", "median"]


def case(name, X):
    D = pdist(X)
    return {"name": name, "X": X.tolist(),
            "coph": {m: float(cophenet(linkage(D, method=m), D)[0]) for m in METHODS}}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    normal = np.round(np.random.default_rng(0).normal(size=(1200, 10)), 6)
    rng = np.random.default_rng(1)
    centres = np.array([[0, 0, 0], [6, 0, 0], [0, 6, 3]], dtype=float)
    blobs = np.round(np.vstack([c + rng.normal(size=(200, 3)) for c in centres]), 6)
    iris = np.loadtxt(os.path.join(here, "..", "..", "dataset", "data", "iris.csv.gz"), delimiter=",", skiprows=1)[:, :4]
    g = np.array([[i, j] for i in range(7) for j in range(6)], dtype=float)
    g = np.vstack([g, g[[0, 5, 9, 9, 20, 33, 40, 41]]])
    cases = [case("normal1200", normal), case("blobs", blobs), case("iris", iris), case("grid", g)]
    meta = {"scipy": scipy.__version__, "numpy": np.__version__, "python": sys.version.split()[0]}
    data = json.dumps({"meta": meta, "cases": cases}).encode()
    with open(os.path.join(here, "cophenet.json.gz"), "wb") as raw:  # mtime=0: reproducible bytes
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
            fh.write(data)


if __name__ == "__main__":
    main()
