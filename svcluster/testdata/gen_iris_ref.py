#!/usr/bin/python3
"""Independent reference for svcluster's Iris test (run: /usr/bin/python3 gen_iris_ref.py).

Support vector clustering of the first 2 principal components of raw Iris
(sklearn PCA) at q = 7, 1/(N·C) = 0.6, Gaussian kernel: the sphere from
LIBSVM's one-class SVM (sklearn OneClassSVM, nu = 1/(N·C), which is the
SVDD dual for a kernel with K(x,x) = 1; beta = alpha / sum(alpha)), R² = mean
R²(x) over the support vectors 0 < beta < C, the complete graph of eq. (17)
with m = 10 interior samples t = s/11, connected components, bounded support
vectors assigned to the cluster of their nearest non-outlier point.
Writes iris_q7_p06.json.
"""
import json
import numpy as np
import sklearn
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import connected_components
from sklearn.datasets import load_iris
from sklearn.decomposition import PCA
from sklearn.svm import OneClassSVM

X, y = load_iris(return_X_y=True)
Z = PCA(2).fit_transform(X)
N = len(Z)
q, p, m = 7.0, 0.6, 10
K = lambda A, B: np.exp(-q * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))
svm = OneClassSVM(kernel="rbf", gamma=q, nu=p, tol=1e-7).fit(Z)
beta = np.zeros(N)
beta[svm.support_] = svm.dual_coef_[0] / svm.dual_coef_[0].sum()
C = 1 / (N * p)
bsv = beta >= C * (1 - 1e-6)
sv = (beta > 0) & ~bsv
bKb = beta @ K(Z, Z) @ beta
R2 = lambda P: 1 - 2 * K(P, Z) @ beta + bKb
r2 = R2(Z[sv]).mean()
inside = np.flatnonzero(~bsv)
n = len(inside)
ts = np.arange(1, m + 1) / (m + 1)
A = np.zeros((n, n), bool)
for a in range(n):
    P = Z[inside[a]][None, None, :] + ts[None, :, None] * (Z[inside][:, None, :] - Z[inside[a]][None, None, :])
    A[a] = (R2(P.reshape(-1, 2)).reshape(n, m) <= r2 + 1e-9 * max(1, r2)).all(1)
k, lab = connected_components(A, directed=False)
# number clusters by smallest member row
order = {}
for l in lab:
    order.setdefault(l, len(order))
full = np.empty(N, int)
full[inside] = [order[l] for l in lab]
for i in np.flatnonzero(bsv):
    full[i] = full[inside[np.argmin(((Z[inside] - Z[i]) ** 2).sum(1))]]
cm = np.zeros((k, 3))
for a, b in zip(full, y):
    cm[a, b] += 1
r, c = linear_sum_assignment(-cm)
out = dict(q=q, p=p, m=m, sklearn=sklearn.__version__, n_sv=int(sv.sum()), n_bsv=int(bsv.sum()),
           R2=float(r2), clusters=int(k), sizes=np.bincount(full).tolist(),
           misclassified=int(N - cm[r, c].sum()), labels=full.tolist())
with open("iris_q7_p06.json", "w") as fh:
    json.dump(out, fh)
print(json.dumps({k: v for k, v in out.items() if k != "labels"}))
