#!/usr/bin/python3
"""Reference principal components of the embedded iris and wine sets
(scikit-learn PCA(n_components=2).fit_transform), for figure.Project.

Made with: /usr/bin/python3 figure/testdata/gen_pca.py > figure/testdata/pca.json
Tools: Python 3.11, NumPy 1.24, scikit-learn 1.2 (Debian 12 packages).
Data: dataset/data/iris.csv.gz (4 features) and wine, features only, no
scaling. Signs: each component is flipped so that its entry of largest
magnitude is positive (scikit-learn's svd_flip rule applied to the scores;
the test compares after the same normalisation of both sides).
"""
import gzip, json, os, sys
import numpy as np
import sklearn
from sklearn.decomposition import PCA

here = sys.path[0]
out = {"sklearn": sklearn.__version__, "numpy": np.__version__, "sets": []}
for name in ["iris", "wine"]:
    path = os.path.join(here, "..", "..", "dataset", "data", name + ".csv.gz")
    with gzip.open(path, "rt") as f:
        header = next(f).strip().split(",")
        rows = [line.strip().split(",") for line in f]
    d = len(header) - 1  # the last column is the label
    X = np.array([[float(v) for v in r[:d]] for r in rows])
    pca = PCA(n_components=2, svd_solver="full")
    Z = pca.fit_transform(X)
    for j in range(2):
        if Z[np.argmax(np.abs(Z[:, j])), j] < 0:
            Z[:, j] = -Z[:, j]
    out["sets"].append({"name": name, "z": Z.tolist(), "ratio": pca.explained_variance_ratio_.tolist()})
json.dump(out, sys.stdout)
