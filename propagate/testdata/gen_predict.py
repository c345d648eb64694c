#!/usr/bin/python3
"""Out-of-sample fixture for propagate.Model.Predict (scikit-learn's predict).

Run: cd propagate/testdata && /usr/bin/python3 gen_predict.py
     (writes predict.json beside it)
Tools: Debian python3-sklearn 1.2.1, numpy, scipy 1.10.1.

Data: two moons (dataset/data/two_moons.csv.gz = dataset "two_moons", unscaled);
labelled rows: the first 5 rows of each class in file order; every other row
unlabelled (-1). New points: a 9x9 grid over [-1.5, 2.5] x [-1, 1.5].
Models: LabelPropagation(kernel="rbf", gamma=20, max_iter=1000, tol=1e-3)
and LabelSpreading(kernel="rbf", gamma=20, alpha=0.2, max_iter=30,
tol=1e-3); for each, transduction_ and predict(grid) (classes_[argmax of
predict_proba]); rows of predict_proba that are all zero or NaN are marked
in "zero" (none here).
"""
import json
import os
import sys

import numpy as np
import sklearn
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

here = os.path.dirname(os.path.abspath(__file__))
data = np.loadtxt(os.path.join(here, "../../dataset/data/two_moons.csv.gz"), delimiter=",", skiprows=1)
X, y_true = data[:, :2], data[:, 2].astype(int)
y = np.full(len(y_true), -1)
for c in (0, 1):
    y[np.flatnonzero(y_true == c)[:5]] = c
gx, gy = np.meshgrid(np.linspace(-1.5, 2.5, 9), np.linspace(-1, 1.5, 9))
grid = np.column_stack([gx.ravel(), gy.ravel()])

out = {"tool": "scikit-learn " + sklearn.__version__, "gamma": 20, "labeled": np.flatnonzero(y >= 0).tolist(),
       "grid": grid.tolist()}
for name, m in (("lp", LabelPropagation(kernel="rbf", gamma=20, max_iter=1000, tol=1e-3)),
                ("ls", LabelSpreading(kernel="rbf", gamma=20, alpha=0.2, max_iter=30, tol=1e-3))):
    m.fit(X, y)
    proba = m.predict_proba(grid)
    out[name] = {"transduction": m.transduction_.tolist(), "predict": m.predict(grid).tolist(),
                 "zero": [i for i, r in enumerate(proba) if not np.all(np.isfinite(r)) or r.sum() == 0],
                 "margin": np.abs(proba[:, 0] - proba[:, 1]).min().item()}
with open(os.path.join(here, "predict.json"), "w") as f:
    json.dump(out, f)
print("wrote predict.json", {k: out[k]["margin"] for k in ("lp", "ls")}, file=sys.stderr)
