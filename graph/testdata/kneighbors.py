"""Writes kneighbors_points.csv and kneighbors_sklearn.csv: scikit-learn's
kneighbors_graph(X, 6, mode='distance', include_self=False) of 300 random
points in 3-D (no tied distances), one line per stored entry, nearest first
within each row. Run from the repository root:
    /usr/bin/python3 graph/testdata/kneighbors.py
"""
import os

import numpy as np
from sklearn.neighbors import kneighbors_graph

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.RandomState(7)
X = rng.normal(size=(300, 3)) * np.array([1.0, 2.0, 0.5])
np.savetxt(os.path.join(here, "kneighbors_points.csv"), X, delimiter=",", fmt="%.17g", header="a,b,c", comments="")
k = 6
A = kneighbors_graph(X, k, mode="distance", include_self=False).tocsr()
with open(os.path.join(here, "kneighbors_sklearn.csv"), "w") as f:
    f.write("row,neighbour,distance\n")
    for i in range(X.shape[0]):
        cols = A.indices[A.indptr[i]:A.indptr[i + 1]]
        vals = A.data[A.indptr[i]:A.indptr[i + 1]]
        order = np.lexsort((cols, vals))
        for p in order:
            f.write("%d,%d,%r\n" % (i, cols[p], float(vals[p])))
