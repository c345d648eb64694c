#!/usr/bin/python3
"""Reference breakeven points of soft kNN on reuters10 (paper 002 Table 2 rows).

Made with: /usr/bin/python3 ssl/testdata/gen_reuters_bep.py > ssl/testdata/reuters_bep.json
Tools: Python 3.11, NumPy 1.24, scikit-learn 1.2 (Debian 12 packages).

Data: dataset/data/reuters10.svm.gz (= shared/data/reuters10.svm), read by
sklearn.datasets.load_svmlight_file(multilabel=True); rows 0-625 labelled
(the ModApte training documents, shared/data/reuters10.splits.csv), rows
626-854 scored.

Soft kNN (paper 002 §2.1): the k nearest labelled documents by Euclidean
distance (sklearn NearestNeighbors, brute force; the linear and Gaussian
kernels rank neighbours the same way), score of category c = sum of the
neighbours' weights w carrying c / sum of w, with w = 1 (uniform), the
linear kernel x.z (similarity) or exp(-gamma*|x-z|^2) (Gaussian
similarity). Breakeven point of a ranking: precision at the cut that takes
as many rows as are relevant (R-precision; ties in score broken against the
ranking, i.e. the relevant row counts only if it ranks strictly above the
cut or wins the tie group pro rata -- see breakeven() below); micro pools
all (row, category) pairs, macro averages the categories.
"""
import gzip, json, sys
import numpy as np
import sklearn
from sklearn.datasets import load_svmlight_file
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import MultiLabelBinarizer

path = sys.path[0] + "/../../dataset/data/reuters10.svm.gz"
with gzip.open(path, "rb") as f:
    X, y = load_svmlight_file(f, multilabel=True, n_features=500)
X = X.toarray()
Y = MultiLabelBinarizer(classes=list(range(10))).fit_transform([[int(v) for v in s] for s in y])
L, T = np.arange(626), np.arange(626, 855)


def breakeven(scores, rel):
    """R-precision with ties shared: rows tied at the cut count their
    relevant fraction for the places left."""
    R = int(rel.sum())
    if R == 0:
        return None
    order = np.argsort(-scores, kind="stable")
    s = scores[order]
    cut = s[R - 1]
    above = s > cut
    tied = s == cut
    hits = rel[order][above].sum()
    places = R - above.sum()
    hits += places * rel[order][tied].sum() / tied.sum()
    return hits / R


def bep(S, Yt):
    per = [breakeven(S[:, c], Yt[:, c]) for c in range(S.shape[1])]
    per = [p for p in per if p is not None]
    return breakeven(S.ravel(), Yt.ravel()), float(np.mean(per))


def soft_knn(k, weights, gamma=None):
    nn = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(X[L])
    dist, idx = nn.kneighbors(X[T])
    if weights == "uniform":
        w = np.ones_like(dist)
    elif gamma is None:
        w = np.einsum("td,tkd->tk", X[T], X[L][idx])
    else:
        w = np.exp(-gamma * dist ** 2)
    S = np.einsum("tk,tkc->tc", w, Y[L][idx]) / w.sum(axis=1, keepdims=True)
    return bep(S, Y[T])


cases = []
for kernel, weights, gamma, ks in [("linear", "uniform", None, [5, 10, 14, 17]),
                                   ("linear", "similarity", None, [14]),
                                   ("rbf:1", "similarity", 1.0, [17])]:
    for k in ks:
        mi, ma = soft_knn(k, weights, gamma)
        cases.append({"kernel": kernel, "weights": weights, "k": k, "micro": mi, "macro": ma})
json.dump({"sklearn": sklearn.__version__, "numpy": np.__version__, "cases": cases}, sys.stdout, indent=1)
