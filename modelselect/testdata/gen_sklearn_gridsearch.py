#!/usr/bin/python3
"""Reference grid searches for package modelselect (scikit-learn's GridSearchCV).

Run from anywhere inside the repository:

    /usr/bin/python3 modelselect/testdata/gen_sklearn_gridsearch.py

It reads the embedded data sets (dataset/data/iris.csv.gz, wine.csv.gz) and
writes modelselect/testdata/sklearn_gridsearch.json: for each case the folds
(test rows of each fold, as scikit-learn's splitter gave them), the candidate
order, cv_results_ (split scores, mean_test_score, std_test_score,
rank_test_score) and best_params_ / best_index_.

Every search is given its folds explicitly (cv = the list of (train, test)
pairs), so the Go test can run Arbor's grid search on the same folds; the
folds of StratifiedKFold and KFold without shuffling are also recomputed by
modelselect.StratifiedKFold / KFold and checked against these.

Scaling: "none" (raw features) or "std" computed here exactly as
dataset.FitScaler does (sequential sums in row order, population standard
deviation, (x - mean) / sd), so both sides see bit-identical features.
"""
import csv
import gzip
import json
import math
import os
import sys

import numpy as np
import sklearn
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "dataset", "data")


def load(name):
    with gzip.open(os.path.join(DATA, name + ".csv.gz"), "rt") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    li = head.index("label")
    X = [[float(v) for j, v in enumerate(r) if j != li] for r in body]
    y = [r[li] for r in body]
    classes = sorted(set(y), key=lambda c: float(c))
    return X, np.array([classes.index(c) for c in y])


def scale_std(X):
    """dataset.FitScaler(X, "std") and Transform, operation by operation."""
    n, d = len(X), len(X[0])
    out = [row[:] for row in X]
    for j in range(d):
        s = 0.0
        lo, hi = math.inf, -math.inf
        for i in range(n):
            s += X[i][j]
            lo, hi = min(lo, X[i][j]), max(hi, X[i][j])
        mean = s / n
        ss = 0.0
        for i in range(n):
            ss += (X[i][j] - mean) * (X[i][j] - mean)
        shift, factor = mean, 1.0
        if lo == hi:
            shift = lo
        else:
            sd = math.sqrt(ss / n)
            if sd > 0:
                factor = sd
        for i in range(n):
            out[i][j] = (X[i][j] - shift) / factor
    return out


def run(name, data, scale, splitter, splitter_desc, estimator, grid, arbor):
    X, y = load(data)
    if scale == "std":
        X = scale_std(X)
    X = np.array(X)
    folds = list(splitter.split(X, y))
    gs = GridSearchCV(estimator, grid, cv=folds, scoring="accuracy", refit=True)
    gs.fit(X, y)
    r = gs.cv_results_
    k = len(folds)
    return {
        "name": name,
        "data": data,
        "scale": scale,
        "splitter": splitter_desc,
        "folds": [sorted(int(i) for i in test) for _, test in folds],
        "params": [{p: (v if isinstance(v, str) else repr(v)) for p, v in c.items()} for c in r["params"]],
        "split_scores": [[float(r["split%d_test_score" % s][c]) for s in range(k)] for c in range(len(r["params"]))],
        "mean_test_score": [float(v) for v in r["mean_test_score"]],
        "std_test_score": [float(v) for v in r["std_test_score"]],
        "rank_test_score": [int(v) for v in r["rank_test_score"]],
        "best_index": int(gs.best_index_),
        "best_params": {p: (v if isinstance(v, str) else repr(v)) for p, v in gs.best_params_.items()},
        "refit_train_accuracy": float(gs.score(X, y)),
        "arbor": arbor,
    }


def main():
    Cs = [0.1, 1.0, 10.0, 100.0]
    gammas = [0.01, 0.1, 1.0, 10.0]
    ks = list(range(1, 16))
    svc_grid = {"C": Cs, "gamma": gammas}
    # Arbor's grid: the C flag and the kernel axis (rbf:GAMMA), keys in
    # sorted order with the last varying fastest, as ParameterGrid: C then
    # kernel, as scikit-learn's C then gamma.
    svc_arbor = {"learner": "svm", "params": {"C": [repr(c) for c in Cs]},
                 "kernels": ["rbf:%r" % g for g in gammas]}
    knn_arbor = {"learner": "knn", "params": {"k": [str(k) for k in ks], "ties": ["lowest"]},
                 "kernels": ["linear"]}
    knn = KNeighborsClassifier(algorithm="brute")
    cases = [
        run("iris_svc_stratified5", "iris", "none", StratifiedKFold(5), "stratified:5",
            SVC(kernel="rbf"), svc_grid, svc_arbor),
        run("iris_knn_stratified5", "iris", "std", StratifiedKFold(5), "stratified:5",
            knn, {"n_neighbors": ks}, knn_arbor),
        run("wine_svc_kfold5_shuffled", "wine", "std", KFold(5, shuffle=True, random_state=0), "file",
            SVC(kernel="rbf"), svc_grid, svc_arbor),
        run("wine_knn_kfold4", "wine", "std", KFold(4), "kfold:4",
            knn, {"n_neighbors": ks}, knn_arbor),
        run("wine_knn_stratified3_shuffled", "wine", "std", StratifiedKFold(3, shuffle=True, random_state=1), "file",
            knn, {"n_neighbors": ks}, knn_arbor),
    ]
    out = {"generator": "gen_sklearn_gridsearch.py", "sklearn": sklearn.__version__,
           "numpy": np.__version__, "python": sys.version.split()[0], "cases": cases}
    with open(os.path.join(HERE, "sklearn_gridsearch.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
