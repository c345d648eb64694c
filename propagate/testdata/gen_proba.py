#!/usr/bin/python3
"""Probability fixture for propagate.Model.Proba and TransductionProba
(scikit-learn's LabelPropagation / LabelSpreading predict_proba and
label_distributions_).

Run: cd propagate/testdata && /usr/bin/python3 gen_proba.py
     (writes proba.json beside it; the scikit-learn version is recorded)

Data: wine (dataset/data/wine.csv.gz), features standardised with the mean
and population standard deviation of all rows. Fitted rows: i % 3 != 0
(119 rows), labelled: the first 4 fitted rows of each class, the others
unlabelled (-1). New points: the rows i % 3 == 0 (59).
Models:
  lp_rbf  LabelPropagation(kernel="rbf", gamma=0.1, max_iter=1000, tol=1e-3)
  ls_rbf  LabelSpreading(kernel="rbf", gamma=0.1, alpha=0.2, max_iter=30, tol=1e-3)
  ls_knn  LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.2, max_iter=30, tol=1e-3)
Each: label_distributions_, transduction_, predict_proba(new), and for
knn the new points' neighbour rows (kneighbors; the smallest gap between
the 7th and 8th neighbour distances is checked to be clear of ties).
"""
import json
import os

import numpy as np
import sklearn
from sklearn.neighbors import NearestNeighbors
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

here = os.path.dirname(os.path.abspath(__file__))
data = np.loadtxt(os.path.join(here, "../../dataset/data/wine.csv.gz"), delimiter=",", skiprows=1)
X, y_all = data[:, :-1], data[:, -1].astype(int)
X = (X - X.mean(axis=0)) / X.std(axis=0)
fit = np.array([i for i in range(len(X)) if i % 3])
new = np.array([i for i in range(len(X)) if i % 3 == 0])
Xf, Xn = X[fit], X[new]
y = np.full(len(fit), -1)
for c in np.unique(y_all):
    y[np.flatnonzero(y_all[fit] == c)[:4]] = c

out = {"tool": "scikit-learn " + sklearn.__version__, "X": Xf.tolist(), "y": y.tolist(), "new": Xn.tolist()}
models = {
    "lp_rbf": LabelPropagation(kernel="rbf", gamma=0.1, max_iter=1000, tol=1e-3),
    "ls_rbf": LabelSpreading(kernel="rbf", gamma=0.1, alpha=0.2, max_iter=30, tol=1e-3),
    "ls_knn": LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.2, max_iter=30, tol=1e-3),
}
for name, m in models.items():
    m.fit(Xf, y)
    rec = {"distributions": m.label_distributions_.tolist(), "transduction": m.transduction_.tolist(),
           "proba": m.predict_proba(Xn).tolist(), "n_iter": int(m.n_iter_)}
    if m.kernel == "knn":
        d, idx = NearestNeighbors(n_neighbors=8).fit(Xf).kneighbors(Xn)
        gap = float((d[:, 7] - d[:, 6]).min())
        assert gap > 1e-6, gap
        rec["neighbors"] = idx[:, :7].tolist()
    out[name] = rec
with open(os.path.join(here, "proba.json"), "w") as f:
    json.dump(out, f)
    f.write("\n")
