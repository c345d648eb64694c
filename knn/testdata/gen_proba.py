#!/usr/bin/python3
"""Probability fixture for knn.Model.Probabilities / ProbaDiag
(scikit-learn's KNeighborsClassifier.predict_proba).

Run: cd knn/testdata && /usr/bin/python3 gen_proba.py
     (writes proba.json beside it; the scikit-learn version is recorded)

Data: wine (dataset/data/wine.csv.gz), features standardised with the mean
and population standard deviation of all rows; training rows i % 2 == 0
(89), query rows i % 2 == 1 (89). Models: KNeighborsClassifier(n_neighbors=k,
weights=w) for k in 1, 4, 7 and w in uniform, distance (Euclidean,
brute force). The smallest gap between the k-th and (k+1)-th neighbour
distances of a query is checked to be clear of ties, so the neighbour sets
are unambiguous.
"""
import json
import os

import numpy as np
import sklearn
from sklearn.neighbors import KNeighborsClassifier

here = os.path.dirname(os.path.abspath(__file__))
data = np.loadtxt(os.path.join(here, "../../dataset/data/wine.csv.gz"), delimiter=",", skiprows=1)
X, y = data[:, :-1], data[:, -1].astype(int)
X = (X - X.mean(axis=0)) / X.std(axis=0)
Xtr, ytr, Xq = X[0::2], y[0::2], X[1::2]
out = {"tool": "scikit-learn " + sklearn.__version__, "X": Xtr.tolist(), "y": ytr.tolist(), "query": Xq.tolist(), "fits": []}
for k in (1, 4, 7):
    for w in ("uniform", "distance"):
        clf = KNeighborsClassifier(n_neighbors=k, weights=w, algorithm="brute").fit(Xtr, ytr)
        d, _ = clf.kneighbors(Xq, n_neighbors=k + 1)
        assert (d[:, k] - d[:, k - 1]).min() > 1e-6
        out["fits"].append({"k": k, "weights": w, "proba": clf.predict_proba(Xq).tolist()})
with open(os.path.join(here, "proba.json"), "w") as f:
    json.dump(out, f)
    f.write("\n")
