#!/usr/bin/python3
"""Fixture for knn's Ties = "lowest" (TestTiesLowestMatchesScikitLearn).

Made with Debian 12's python3-sklearn 1.2.1 / NumPy 1.24:
    /usr/bin/python3 knn/testdata/ties_sklearn.py > knn/testdata/ties_sklearn.csv

120 points in 3-D (uniform, 6 decimals, so no two distances are equal),
3 classes, 30 labelled rows (10 per class), the others unlabelled (-1).
Columns: x1,x2,x3,y, then scikit-learn's KNeighborsClassifier(algorithm=
'brute') prediction for every row for k = 2, 4, 6 with weights='uniform'
and weights='distance'. With an even k and 3 classes many votes tie;
scikit-learn gives a tied vote to the smallest class label.
"""
import numpy as np
from sklearn.neighbors import KNeighborsClassifier

rng = np.random.RandomState(7)
X = np.round(rng.rand(120, 3), 6)
y = np.full(120, -1)
lab = rng.choice(120, 30, replace=False)
y[lab] = np.arange(30) % 3
L = y >= 0
cols = []
names = []
for w in ("uniform", "distance"):
    for k in (2, 4, 6):
        clf = KNeighborsClassifier(n_neighbors=k, weights=w, algorithm="brute").fit(X[L], y[L])
        cols.append(clf.predict(X))
        names.append("%s%d" % (w, k))
print("x1,x2,x3,y," + ",".join(names))
for i in range(120):
    print("%.6f,%.6f,%.6f,%d," % (X[i, 0], X[i, 1], X[i, 2], y[i]) + ",".join(str(c[i]) for c in cols))
