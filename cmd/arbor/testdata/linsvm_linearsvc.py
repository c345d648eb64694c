#!/usr/bin/python3
"""Fixture for TestLinSVMLandmarksLinearSVC (cmd/arbor/linsvm_test.go).

scikit-learn's LinearSVC (LIBLINEAR inside; Debian python3-sklearn 1.2.1) on
the wine set (dataset/data/wine.csv.gz) z-scored over all rows (population
std, Arbor's --scale std), fitted on the rows listed in LABELLED only, then
predicting every row. A tight tolerance (1e-8, 100000 passes) so that the
optimum, unique for this strictly convex problem, decides the labels and not
the solver's visiting order.

Run from the repository root:
    /usr/bin/python3 cmd/arbor/testdata/linsvm_linearsvc.py > cmd/arbor/testdata/linsvm_linearsvc.csv
"""
import csv
import gzip
import os
import sys

import numpy as np
import sklearn
from sklearn.svm import LinearSVC

# 6 rows per class of wine (classes are rows 0-58, 59-129, 130-177).
LABELLED = [0, 7, 19, 30, 44, 58, 59, 70, 88, 101, 115, 129, 130, 141, 150, 160, 170, 177]

with gzip.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "dataset", "data", "wine.csv.gz"), "rt") as fh:
    rows = list(csv.reader(fh))
head, rows = rows[0], rows[1:]
li = head.index("label")
X = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows])
y = np.array([int(r[li]) for r in rows])
sd = X.std(0)
sd[sd == 0] = 1
Xs = (X - X.mean(0)) / sd
for C in (0.1, 1.0, 10.0):
    m = LinearSVC(C=C, tol=1e-8, max_iter=100000, random_state=0).fit(Xs[LABELLED], y[LABELLED])
    dec = m.decision_function(Xs)
    pred = m.predict(Xs)
    # margin: gap between the two largest decision values of each row
    top = np.sort(dec, axis=1)
    gap = top[:, -1] - top[:, -2]
    for i in range(len(y)):
        print("%g,%d,%d,%.6g" % (C, i, pred[i], gap[i]))
print("# sklearn %s" % sklearn.__version__, file=sys.stderr)
