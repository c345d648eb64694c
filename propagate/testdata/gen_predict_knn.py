#!/usr/bin/python3
"""Out-of-sample fixture for propagate.KNNModel.Predict (scikit-learn's
LabelSpreading with the knn kernel).

Run: cd propagate/testdata && /usr/bin/python3 gen_predict_knn.py
     (writes predict_knn.json beside it)
Tools: Debian python3-sklearn 1.2.1, numpy, scipy 1.10.1.

Data: two moons (dataset/data/two_moons.csv.gz = dataset "two_moons", unscaled);
labelled rows: the first 5 rows of each class in file order; every other row
unlabelled (-1). New points: a 9x9 grid over [-1.5, 2.5] x [-1, 1.5] and 300
points drawn uniformly from the same box (numpy default_rng(7)).
Model: LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.2, max_iter=30,
tol=1e-3): transduction_, label_distributions_, and predict(new points)
(classes_[argmax of predict_proba], predict_proba summing the
label_distributions_ of the 7 nearest fitted rows). With 5 labels per class
and 30 steps, labels travel at most 30 hops: 122 fitted rows keep all-zero
distributions, and new points whose 7 neighbours are all such rows have
0/0 probabilities; they are listed in "zero" (scikit-learn's argmax of the
NaN row gives class 0; Arbor leaves them unlabelled, -1). "margin" is the
smallest |p0 - p1| over the other new points (how far they are from a tie).
"""
import json
import os
import sys

import numpy as np
import sklearn
from sklearn.semi_supervised import LabelSpreading

here = os.path.dirname(os.path.abspath(__file__))
data = np.loadtxt(os.path.join(here, "../../dataset/data/two_moons.csv.gz"), delimiter=",", skiprows=1)
X, y_true = data[:, :2], data[:, 2].astype(int)
y = np.full(len(y_true), -1)
for c in (0, 1):
    y[np.flatnonzero(y_true == c)[:5]] = c
gx, gy = np.meshgrid(np.linspace(-1.5, 2.5, 9), np.linspace(-1, 1.5, 9))
grid = np.column_stack([gx.ravel(), gy.ravel()])
rng = np.random.default_rng(7)
rand = np.column_stack([rng.uniform(-1.5, 2.5, 300), rng.uniform(-1, 1.5, 300)])
new = np.vstack([grid, rand])

m = LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.2, max_iter=30, tol=1e-3)
m.fit(X, y)
proba = m.predict_proba(new)
out = {"tool": "scikit-learn " + sklearn.__version__, "k": 7, "labeled": np.flatnonzero(y >= 0).tolist(),
       "new": new.tolist(), "transduction": m.transduction_.tolist(),
       "distributions": m.label_distributions_.tolist(), "predict": m.predict(new).tolist(),
       "zero": [i for i, r in enumerate(proba) if not np.all(np.isfinite(r)) or r.sum() == 0]}
ok = np.all(np.isfinite(proba), axis=1)
out["margin"] = np.abs(proba[ok, 0] - proba[ok, 1]).min().item()
with open(os.path.join(here, "predict_knn.json"), "w") as f:
    json.dump(out, f, allow_nan=False)
print("wrote predict_knn.json, margin", out["margin"], file=sys.stderr)
