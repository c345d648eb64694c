#!/usr/bin/python3
"""Independent reference of HiBUST (paper 003 Figs. 2-4) for Arbor's tests.

Tools: Debian bookworm /usr/bin/python3 (3.11), python3-numpy 1.24,
python3-sklearn 1.2.1 (SVC = LIBSVM 3.x). Command (from the repository root):

    /usr/bin/python3 hibust/testdata/hibust_ref.py > hibust/testdata/ref.json

A straightforward NumPy implementation written from the paper's text, not from
Arbor's code: MCCK (Fig. 2) with Euclidean distances in the input space, the
simplified silhouette over runs, the posterior of Eq. 5, the tree of Fig. 3
and the top-down classification of Fig. 4 with scikit-learn's SVC (C = 100,
precomputed linear kernel: the inductive SVM, S4VM's fallback) at each node.

Random choices (each class's initial prototype, each pass's visiting order)
come from a tiny generator both this script and the Go test implement:
splitmix64 with Fisher-Yates shuffles, run r of split s seeded with
1000*s + r. So Arbor must reproduce every partition, silhouette, tree and
transductive label here, not only their distribution.

Data: Arbor's embedded sets (dataset/data/*.csv.gz), min-max scaled to
[0, 1]; labelled rows = peers.py per_class_split(y, 10, seed) for seeds 0..9
(NumPy RandomState, as ssl.PerClass).
"""
import gzip
import json
import os
import sys

import numpy as np
from sklearn.svm import SVC

M64 = (1 << 64) - 1
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "dataset", "data")


class SplitMix:
    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def seed_row(self, rows):
        return rows[self.next() % len(rows)]

    def perm(self, n):
        p = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.next() % (i + 1)
            p[i], p[j] = p[j], p[i]
        return p


def load(name, scale=True):
    with gzip.open(os.path.join(DATA, name + ".csv.gz"), "rt") as fh:
        fh.readline()
        data = np.loadtxt(fh, delimiter=",", ndmin=2)
    X, y = data[:, :-1], data[:, -1].astype(int)
    if not scale:
        return X, y
    lo, hi = X.min(0), X.max(0)
    rng = hi - lo
    rng[rng == 0] = 1.0
    return (X - lo) / rng, y


def per_class_split(y, per_class, seed):
    rng = np.random.RandomState(seed)
    picks = []
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        m = min(per_class, len(idx) - 1)
        if m > 0:
            picks.append(rng.choice(idx, m, replace=False))
    return np.sort(np.concatenate(picks))


def sq(a, b):
    d = a - b
    return float(d @ d)


TIE = [0.0]  # 1e-9 x mean squared norm of the rows: distances this close are ties


def argmin_tie(d):
    """First index within TIE of the smallest value (ties to the lowest index,
    so that rows equidistant in exact arithmetic do not depend on rounding)."""
    m = min(d)
    for j, v in enumerate(d):
        if v <= m + TIE[0]:
            return j


def mcck(X, y, gen, max_iter=100):
    """One run of Fig. 2. y: class >= 0 or -1. Returns (assign, classes, iters, converged)."""
    n = len(X)
    classes = sorted(set(int(c) for c in y if c >= 0))
    protos = [X[gen.seed_row([i for i in range(n) if y[i] == c])].copy() for c in classes]
    pcls = list(classes)
    prev = None
    it, converged = 0, False
    assign = [0] * n
    while it < max_iter:
        it += 1
        created = 0
        order = gen.perm(n)
        for i in order:
            d = [sq(X[i], p) for p in protos]
            best = argmin_tie(d)
            if y[i] >= 0 and pcls[best] != y[i]:
                protos.append(X[i].copy())   # a cannot-link would be violated:
                pcls.append(int(y[i]))       # new cluster of x_i's class
                assign[i] = len(protos) - 1
                created += 1
            else:
                assign[i] = best
        # update: drop empty clusters, prototypes = centroids
        used = sorted(set(assign))
        dropped = len(protos) - len(used)
        remap = {j: a for a, j in enumerate(used)}
        assign = [remap[j] for j in assign]
        pcls = [pcls[j] for j in used]
        A = np.array(assign)
        protos = [X[A == j].mean(0) for j in range(len(pcls))]
        # merge same-class mutual nearest neighbours
        k = len(protos)
        nn = []
        for p in range(k):
            d = [sq(protos[p], protos[q]) if q != p else np.inf for q in range(k)]
            nn.append(argmin_tie(d))
        into = list(range(k))
        merged = 0
        for p in range(k):
            q = nn[p]
            if k > 1 and q > p and nn[q] == p and pcls[p] == pcls[q]:
                into[q] = p
                merged += 1
        if merged:
            keep = [p for p in range(k) if into[p] == p]
            newp = []
            for p in keep:
                qs = [q for q in range(k) if into[q] == p and q != p]
                newp.append((protos[p] + protos[qs[0]]) / 2 if qs else protos[p])
            pos = {p: a for a, p in enumerate(keep)}
            assign = [pos[into[j]] for j in assign]
            pcls = [pcls[p] for p in keep]
            protos = newp
        if it > 1 and created == 0 and dropped == 0 and merged == 0 and assign == prev:
            converged = True
            break
        prev = list(assign)
    return assign, pcls, it, converged


def centroid_d2(X, assign, k):
    A = np.array(assign)
    C = np.array([X[A == j].mean(0) for j in range(k)])
    return ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1)


def silhouette(X, assign, k):
    if k < 2:
        return 0.0
    D = np.sqrt(centroid_d2(X, assign, k))
    size = np.bincount(assign, minlength=k)
    s = 0.0
    for i, c in enumerate(assign):
        if size[c] == 1:
            continue
        a = D[i, c]
        b = min(D[i, j] for j in range(k) if j != c)
        m = max(a, b)
        if m > 0:
            s += (b - a) / m
    return s / len(assign)


def posterior(X, assign, k):
    D2 = centroid_d2(X, assign, k)
    pi = np.bincount(assign, minlength=k) / len(assign)
    L = np.log(pi)[None, :] - D2 / 2
    L -= L.max(1, keepdims=True)
    P = np.exp(L)
    return P / P.sum(1, keepdims=True)


def tree(X, labeled, pcls):
    """Fig. 3. labeled[j] = labelled rows of cluster j. Returns nested dicts."""
    L = []
    for c in sorted(set(pcls)):
        for j in range(len(pcls)):
            if pcls[j] == c and labeled[j]:
                L.append({"leaf": True, "class": c, "clusters": [j], "rows": sorted(labeled[j])})
    while len(L) > 1:
        pairs = []
        for a in range(len(L)):
            for b in range(a + 1, len(L)):
                ca = X[L[a]["rows"]].mean(0)
                cb = X[L[b]["rows"]].mean(0)
                pairs.append((sq(ca, cb), a, b))
        d, a, b = pairs[argmin_tie([p[0] for p in pairs])]
        n1, n2 = L[a], L[b]
        rows = sorted(n1["rows"] + n2["rows"])
        if n1["leaf"] and n2["leaf"] and n1["class"] == n2["class"]:
            t = {"leaf": True, "class": n1["class"], "clusters": sorted(n1["clusters"] + n2["clusters"]), "rows": rows}
        else:
            t = {"leaf": False, "left": n1, "right": n2, "rows": rows, "height": float(np.sqrt(d))}
        del L[b]
        del L[a]
        L.append(t)
    return L[0]


def preorder(t, out):
    i = len(out)
    out.append(None)
    if t["leaf"]:
        out[i] = {"leaf": True, "class": t["class"], "clusters": t["clusters"], "labeled": t["rows"]}
    else:
        l = preorder(t["left"], out)
        r = preorder(t["right"], out)
        out[i] = {"leaf": False, "left": l, "right": r, "labeled": t["rows"], "height": t["height"]}
    return i


def classify(K, t, unl, y, out):
    """Fig. 4 with an inductive SVC (C = 100) at each internal node."""
    if t["leaf"]:
        for i in unl:
            out[i] = t["class"]
        return
    neg, pos = t["left"]["rows"], t["right"]["rows"]
    if not unl:
        return
    lab = neg + pos
    yl = [0] * len(neg) + [1] * len(pos)
    m = SVC(C=100, kernel="precomputed").fit(K[np.ix_(lab, lab)], yl)
    pred = m.predict(K[np.ix_(unl, lab)])
    classify(K, t["left"], [i for i, p in zip(unl, pred) if p == 0], y, out)
    classify(K, t["right"], [i for i, p in zip(unl, pred) if p == 1], y, out)


def hibust(X, y, split, restarts=10, theta=0.0):
    K = X @ X.T
    TIE[0] = 1e-9 * float(np.mean(np.sum(X * X, 1)))
    runs = []
    for r in range(restarts):
        assign, pcls, it, conv = mcck(X, y, SplitMix(1000 * split + r))
        runs.append((silhouette(X, assign, len(pcls)), r, assign, pcls, it, conv))
    best = max(runs, key=lambda t: (t[0], -t[1]))
    sil, r, assign, pcls, it, conv = best
    k = len(pcls)
    yy = list(int(c) for c in y)
    labeled = [[] for _ in range(k)]
    for i, c in enumerate(yy):
        if c >= 0:
            labeled[assign[i]].append(i)
    confident = []
    if theta > 0:
        P = posterior(X, assign, k)
        for i in range(len(yy)):
            if yy[i] < 0:
                j = int(np.argmax(P[i]))
                if P[i, j] >= theta:
                    confident.append(i)
                    yy[i] = pcls[j]
                    labeled[j].append(i)
    t = tree(X, labeled, pcls)
    out = list(yy)
    classify(K, t, [i for i in range(len(yy)) if yy[i] < 0], yy, out)
    nodes = []
    preorder(t, nodes)
    return {"run": r, "silhouette": sil, "assign": assign, "class": pcls, "iter": it,
            "converged": conv, "confident": confident, "nodes": nodes, "transduction": out,
            "silhouettes": [x[0] for x in runs]}


def main():
    cases = []
    only = sys.argv[1:]
    for name, splits in (("iris", 10), ("wine", 10), ("gauss9", 3)):
        if only and name not in only:
            continue
        X, y = load(name)
        for s in range(splits):
            lab = per_class_split(y, 10, s)
            yl = np.full(len(y), -1)
            yl[lab] = y[lab]
            res = hibust(X, yl, s)
            unl = yl < 0
            acc = float(np.mean(np.array(res["transduction"])[unl] == y[unl]))
            res.update({"data": name, "split": s, "accuracy": acc})
            cases.append(res)
            print(name, s, "acc %.4f k %d iter %d" % (acc, len(res["class"]), res["iter"]), file=sys.stderr)
    # Eq. 5 posteriors and theta labelling on one partition (iris unscaled:
    # min-max scaled distances are too short for identity covariances to
    # give any posterior >= 0.9).
    X, y = load("iris", scale=False)
    lab = per_class_split(y, 10, 0)
    yl = np.full(len(y), -1)
    yl[lab] = y[lab]
    conf = hibust(X, yl, 0, theta=0.9)
    conf.update({"data": "iris", "split": 0, "theta": 0.9})
    P = posterior(X, conf["assign"], len(conf["class"]))
    conf["posterior_rows"] = [0, 1, 50, 51, 100, 101]
    conf["posterior"] = [list(P[i]) for i in conf["posterior_rows"]]
    json.dump({"cases": cases, "confidence": conf}, sys.stdout, indent=None, separators=(",", ":"))
    print()


if __name__ == "__main__":
    main()
