#!/usr/bin/python3
"""Fixture for dataset.FitImputer: scikit-learn's SimpleImputer statistics.

Tools: Debian bookworm /usr/bin/python3 (3.11), python3-numpy 1.24,
python3-sklearn 1.2.1. Command (from the repository root):

    /usr/bin/python3 dataset/testdata/impute_sklearn.py > dataset/testdata/impute_sklearn.json

X: 41 x 5 values drawn on a coarse grid (so that most_frequent has ties
and the medians of even counts are means of two values), about 20 % of the
cells missing (null in the JSON); the last column is missing but in one
row. For each strategy, SimpleImputer(strategy=...).fit(X).statistics_
and the transformed matrix.
"""
import json

import numpy as np
from sklearn.impute import SimpleImputer

rng = np.random.RandomState(7)
X = np.round(rng.normal(size=(41, 5)) * 2) / 2
X[rng.rand(41, 5) < 0.2] = np.nan
X[:, 4] = np.nan
X[3, 4] = 2.5
out = {"X": [[None if np.isnan(v) else float(v) for v in row] for row in X]}
for s in ("mean", "median", "most_frequent"):
    imp = SimpleImputer(strategy=s).fit(X)
    out[s] = {"statistics": [float(v) for v in imp.statistics_],
              "transformed": imp.transform(X).tolist()}
imp = SimpleImputer(strategy="constant", fill_value=0).fit(X)
out["zero"] = {"statistics": [float(v) for v in imp.statistics_], "transformed": imp.transform(X).tolist()}
json.dump(out, __import__("sys").stdout)
print()
