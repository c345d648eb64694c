#!/usr/bin/python3
"""Paper 004 §4.3 with the kernel treelets authors' own code, for comparison.

Runs the steps of the authors' test_dcn.py (github.com/hedixia/kernel_treelets,
commit bf942a1) on examples/mice_protein.csv.gz: columns with no number
dropped, z-scored with nanmean/nanstd, their kernel class nan_kernel_rbf(0.125)
(gamma = 32; note it computes exp(-gamma * MSD^2), the square of the mean
squared difference over shared columns, where the paper's text has
exp(-gamma * MSD)), their kernel_treelets_clustering (max_sample 2000: the full
set), the pairwise ROC through every level as their script builds it, and the
k-means curve (scikit-learn KMeans, K = 1..399, on mean-imputed data, plus the
origin; AUC = -trapz as theirs). Nothing in their repository is patched: their
test script imports sklearn.preprocessing.Imputer, removed from scikit-learn,
so this script uses SimpleImputer(strategy="mean") in its place.

Tools: Debian /usr/bin/python3 3.11, numpy 1.24.2, scikit-learn 1.2.1.
Run:  /usr/bin/python3 bench/treelets/peer_mice.py /tmp/kt-src examples/mice_protein.csv.gz [--kmeans [--n-init=N]] [--drop-id] [--paper-kernel] [--gamma=G]
(--n-init: KMeans restarts, default 10 as the scikit-learn of the paper; 399
fits with 10 restarts take over 50 minutes on a loaded 2-core machine)
--paper-kernel: their code path with the kernel as the paper's text writes
it, exp(-gamma * MSD) (their nan_kernel_rbf squares the MSD);
--gamma: the kernel's gamma (default 32, their sigma = 0.125).
Prints one JSON line.
"""
import json
import sys
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
src, path = sys.argv[1], sys.argv[2]
sys.path.insert(0, src)
from kernel_treelets_clustering import kernel_treelets_clustering  # noqa: E402


class nan_kernel_rbf:  # as in the authors' test_dcn.py
    def __init__(self, sigma=1):
        self.gamma = 1 / (2 * sigma * sigma)

    def __call__(self, X):
        a, b = X.shape
        X = np.asarray(X).reshape((a, 1, b))
        diff = np.nanmean((X - X.swapaxes(1, 2)) ** 2, axis=0)
        return np.exp(- diff * diff * self.gamma)


class paper_kernel_rbf(nan_kernel_rbf):  # the paper's formula: exp(-gamma * MSD)
    def __call__(self, X):
        a, b = X.shape
        X = np.asarray(X).reshape((a, 1, b))
        diff = np.nanmean((X - X.swapaxes(1, 2)) ** 2, axis=0)
        return np.exp(- diff * self.gamma)


def pairwise_counting(PC, TC):  # as in test_dcn.py
    from scipy.sparse import coo_matrix
    reduced_PC = np.unique(PC, return_inverse=True)[1]
    reduced_TC = np.unique(TC, return_inverse=True)[1]
    pair_counter = np.unique(np.transpose([reduced_PC, reduced_TC]), return_counts=True, axis=0)
    m = coo_matrix((pair_counter[1], pair_counter[0].T)).toarray()
    D = len(reduced_PC)
    E = np.sum(m ** 2)
    R = np.sum(np.sum(m, axis=1) ** 2)
    C = np.sum(np.sum(m, axis=0) ** 2)
    TP, FN, FP = E - D, C - E, R - E
    TN = D ** 2 - TP - FN - FP - D
    return (TN, FP, FN, TP)


t0 = time.time()
dataset = np.genfromtxt(path, delimiter=',')[1:]
dataset = dataset[:, ~np.all(np.isnan(dataset), axis=0)]
if "--drop-id" in sys.argv:
    # genfromtxt reads most MouseID cells ("309_1") as numbers (Python's
    # float accepts "309_1" as 3091) and the others ("50810A_1") as NaN, so
    # the authors' features include a mouse number: each mouse has one
    # class. --drop-id removes that column, as arbor's --ignore MouseID.
    dataset = dataset[:, 1:]
dataset = (dataset - np.nanmean(dataset, axis=0)) / np.nanstd(dataset, axis=0)
labels = np.genfromtxt(path, delimiter=',', dtype=str)[1:, -1]
n = dataset.shape[0]
gamma = 32.0
for a in sys.argv:
    if a.startswith("--gamma="):
        gamma = float(a.split("=", 1)[1])
kern = (paper_kernel_rbf if "--paper-kernel" in sys.argv else nan_kernel_rbf)(np.sqrt(1 / (2 * gamma)))
ktc = kernel_treelets_clustering(kern, number_of_clusters=15, max_sample=2000)
ktc.fit(dataset.T)
t1 = time.time()
L1 = []
plabels = np.arange(n, dtype=int)
for i in range(n):
    L1.append(pairwise_counting(plabels, labels))
    if i < n - 1:
        plabels[plabels == plabels[ktc._trl.tree[i][1]]] = plabels[ktc._trl.tree[i][0]]
L1 = np.transpose(L1)
tp = L1[3] / (L1[3] + L1[2])
fp = L1[1] / (L1[0] + L1[1])
out = {"peer": "kernel_treelets test_dcn", "n": n, "features": dataset.shape[1], "kernel": "exp(-g*MSD)" if "--paper-kernel" in sys.argv else "exp(-g*MSD^2)",
       "gamma": gamma, "auc_kt": float(np.trapz(tp, fp)), "seconds_kt": t1 - t0}
n_init = 10
for a in sys.argv:
    if a.startswith("--n-init="):
        n_init = int(a.split("=", 1)[1])
if "--kmeans" in sys.argv:
    from sklearn.cluster import KMeans
    from sklearn.impute import SimpleImputer
    imp = SimpleImputer(strategy="mean").fit_transform(dataset)
    L2 = []
    for k in range(1, 400):
        L2.append(pairwise_counting(KMeans(k, n_init=n_init, random_state=0).fit(imp).labels_, labels))
    L2 = np.transpose(L2 + [(1, 0, 1, 0)])
    tp2 = L2[3] / (L2[3] + L2[2])
    fp2 = L2[1] / (L2[0] + L2[1])
    out["auc_kmeans"] = float(-np.trapz(tp2, fp2))
    out["kmeans_n_init"] = n_init
print(json.dumps(out))
