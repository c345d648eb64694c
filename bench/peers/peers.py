#!/usr/bin/python3
"""Reference ("peer") pipelines for the kernel-clustering / SSL Go project.

Run with Debian's python:  /usr/bin/python3 peers.py MODE ...
(needs python3-numpy, python3-scipy, python3-sklearn; see README.md)

Modes
  ssl     --csv F (--per-class K --seeds S.. | --splits FILE)   semi-supervised accuracy
  cluster --csv F                                                clustering ARI
  timing  [--sizes 1000 2000 4000 8000]                          speed of the peer building blocks
  splits  --csv F --per-class K --seeds S.. --out FILE           dump the labelled indices used by `ssl`
  report  RESULTS.jsonl...                                       markdown tables (mean +- std)

Every mode except `report` prints one JSON object per line.

Conventions (the Go implementation must match these to compare numbers):
  * Features are z-scored over ALL points (labelled + unlabelled) unless
    --scale none|minmax; constant columns become 0.
  * Labelled set for (per-class K, seed s): numpy RandomState(s); for each
    class c in increasing order, rng.choice(rows of c, min(K, n_c - 1),
    replace=False).  Accuracy is measured on all remaining (unlabelled) rows.
    `splits` writes exactly these indices (0-based, one line per seed).
  * SVM = sklearn SVC (LIBSVM inside), C=1 unless --C, one-vs-one multiclass,
    RBF gamma='scale' (1/(d*Var(X_labelled))).
  * Hierarchical cluster kernel (Bodo 2008): scipy linkage over ALL points ->
    cophenetic (ultrametric) matrix M -> K = -0.5 * J M J, J = I - 11^T/n
    (M itself, not squared) -> SVC(kernel='precomputed') on labelled rows.
  * Graph variant: symmetrised kNN graph (k=7, union, Euclidean edge lengths,
    zero lengths floored at 1e-12), all-pairs Dijkstra distances G.  While the
    graph is disconnected: g_max = largest finite geodesic distance, d_max =
    largest Euclidean distance between any two points, (i, j) = closest
    Euclidean pair in different components with distance d_min; add edge
    i-j of length g_max + d_min/d_max; recompute G.  Linkage then runs on G.
  * ISOMAP kernel: K = -0.5 * J (G*G) J, negative eigenvalues set to 0.
  * kNN with kernel K: d^2(i,j) = K_ii + K_jj - 2 K_ij against labelled rows;
    d^2 values equal within 1e-9 * max(d^2) count as ties, ties in ranking are
    broken by lower row index; majority vote, a tied vote goes to the tied
    class whose member ranks first.
  * LabelPropagation: sklearn defaults (max_iter=1000, tol=1e-3): 'rbf' with
    gamma=20 (the default; on z-scored data it behaves like soft 1-NN
    propagation and was never worse than median/local-scale gamma heuristics
    on the 8 sets tried) and 'knn' with n_neighbors=7.
  * --svm-only skips kNN and LP (for extra C values: those do not use C).
"""
import argparse
import gzip
import json
import math
import os
import sys
import time
import warnings

import numpy as np
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.sparse.csgraph import connected_components, shortest_path
from scipy.spatial.distance import pdist, squareform

warnings.filterwarnings("ignore")  # sklearn convergence / divide warnings in LP

LINKAGES = ("single", "complete", "average")
KNN_K = 7


# --------------------------------------------------------------------------
# data handling
# --------------------------------------------------------------------------
def open_text(path):
    """Opens a text file, gzip-compressed when its name ends in .gz."""
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def data_name(path):
    """The data set's name: the file name without .csv (and .gz)."""
    base = os.path.basename(path)
    if base.endswith(".gz"):
        base = base[:-3]
    return os.path.splitext(base)[0]


def load_csv(path):
    """CSV with header, numeric features, last column 'label' (int)."""
    with open_text(path) as fh:
        header = fh.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    if header[-1] != "label":
        raise SystemExit("%s: last column must be 'label'" % path)
    return data[:, :-1], data[:, -1].astype(int)


def scale(X, how):
    if how == "none":
        return X.copy()
    if how == "std":
        mu, sd = X.mean(0), X.std(0)
        sd[sd == 0] = 1.0
        return (X - mu) / sd
    if how == "minmax":
        lo, hi = X.min(0), X.max(0)
        rng = hi - lo
        rng[rng == 0] = 1.0
        return (X - lo) / rng
    raise ValueError(how)


def per_class_split(y, per_class, seed):
    """Labelled row indices (sorted) for one seed; see module docstring."""
    rng = np.random.RandomState(seed)
    picks = []
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        m = min(per_class, len(idx) - 1)
        if m > 0:
            picks.append(rng.choice(idx, m, replace=False))
    return np.sort(np.concatenate(picks))


def read_splits(path):
    with open_text(path) as fh:
        return [np.sort(np.array([int(t) for t in line.split(",")]))
                for line in fh if line.strip()]


# --------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------
def double_center(M):
    """-0.5 * J M J computed in O(n^2) without forming J."""
    r = M.mean(axis=1, keepdims=True)
    c = M.mean(axis=0, keepdims=True)
    return -0.5 * (M - r - c + M.mean())


def cophenetic_matrix(D_condensed, method):
    Z = linkage(D_condensed, method=method)
    return squareform(cophenet(Z))


def knn_geodesic(X, k=KNN_K):
    """All-pairs shortest paths on the symmetrised kNN graph, with the
    component-joining rule of the module docstring.  Returns (G, n_joins)."""
    from sklearn.neighbors import kneighbors_graph
    A = kneighbors_graph(X, k, mode="distance", include_self=False)
    A.data = np.maximum(A.data, 1e-12)  # duplicates: keep zero-length edges
    A = A.maximum(A.T).tocsr()
    ncomp, comp = connected_components(A, directed=False)
    G = shortest_path(A, method="D", directed=False)
    G = 0.5 * (G + G.T)
    joins = 0
    if ncomp > 1:
        E = squareform(pdist(X))
        dmax = E.max()
        while ncomp > 1:
            gmax = G[np.isfinite(G)].max()
            Em = np.where(comp[:, None] != comp[None, :], E, np.inf)
            i, j = np.unravel_index(np.argmin(Em), Em.shape)
            w = gmax + E[i, j] / dmax
            # Exact all-pairs update for one new edge i-j (it joins two
            # components, so only cross pairs change): G[a,b] = G[a,i]+w+G[j,b].
            a_ = np.flatnonzero(comp == comp[i])
            b_ = np.flatnonzero(comp == comp[j])
            cross = G[a_, i][:, None] + w + G[j, b_][None, :]
            G[np.ix_(a_, b_)] = cross
            G[np.ix_(b_, a_)] = cross.T
            comp[b_] = comp[i]
            ncomp -= 1
            joins += 1
    np.fill_diagonal(G, 0.0)
    return G, joins


def psd_clip(K):
    w, V = np.linalg.eigh(K)
    neg = int((w < 0).sum())
    w = np.maximum(w, 0.0)
    return (V * w) @ V.T, neg


def build_kernels(X, want_graph=True):
    """All unsupervised (label-free) kernels over the full data set.
    Returns dict name -> (K, build_seconds, info)."""
    out = {}
    t0 = time.perf_counter()
    D = pdist(X)
    t_pd = time.perf_counter() - t0

    t0 = time.perf_counter()
    out["linear"] = (X @ X.T, time.perf_counter() - t0, {})
    t0 = time.perf_counter()
    gamma = 1.0 / (X.shape[1] * X.var()) if X.var() > 0 else 1.0
    out["rbf"] = (np.exp(-gamma * squareform(D) ** 2), time.perf_counter() - t0 + t_pd, {"gamma": gamma})

    for m in LINKAGES:
        t0 = time.perf_counter()
        K = double_center(cophenetic_matrix(D, m))
        out["hck_%s" % m] = (K, time.perf_counter() - t0 + t_pd, {})

    if want_graph:
        t0 = time.perf_counter()
        G, joins = knn_geodesic(X)
        t_g = time.perf_counter() - t0
        Gc = squareform(G, checks=False)
        for m in LINKAGES:
            t0 = time.perf_counter()
            K = double_center(cophenetic_matrix(Gc, m))
            out["hckg_%s" % m] = (K, time.perf_counter() - t0 + t_g, {"joins": joins})
        t0 = time.perf_counter()
        K, neg = psd_clip(double_center(G * G))
        out["isomap"] = (K, time.perf_counter() - t0 + t_g, {"joins": joins, "neg_eigs": neg})
    return out


# --------------------------------------------------------------------------
# classifiers on a fixed labelled set
# --------------------------------------------------------------------------
def svc_precomputed(K, y, L, U, C):
    from sklearn.svm import SVC
    clf = SVC(kernel="precomputed", C=C).fit(K[np.ix_(L, L)], y[L])
    return clf.predict(K[np.ix_(U, L)])


def kernel_knn(K, y, L, U, ks):
    """Predictions for each k in ks using the kernel-induced distance."""
    diag = np.diag(K)
    D2 = diag[U][:, None] + diag[L][None, :] - 2.0 * K[np.ix_(U, L)]
    D2 = np.maximum(D2, 0.0)
    tol = 1e-9 * max(D2.max(), 1e-300)
    q = np.round(D2 / tol)                      # quantise: near-equal = tie
    order = np.argsort(q, axis=1, kind="stable")  # ties -> lower labelled row
    ranked = y[L][order]                          # labels sorted by distance
    preds = {}
    for k in ks:
        top = ranked[:, :k]
        pred = np.empty(len(U), dtype=y.dtype)
        for r in range(len(U)):
            counts = {}
            for c in top[r]:
                counts[c] = counts.get(c, 0) + 1
            best = max(counts.values())
            for c in top[r]:          # first-ranked class among the tied winners
                if counts[c] == best:
                    pred[r] = c
                    break
        preds[k] = pred
    return preds


def label_propagation(X, y, L, U, kind, gamma=None):
    from sklearn.semi_supervised import LabelPropagation
    yp = np.full(len(y), -1)
    yp[L] = y[L]
    if kind == "knn":
        lp = LabelPropagation(kernel="knn", n_neighbors=KNN_K, max_iter=1000)
    else:
        lp = LabelPropagation(kernel="rbf", gamma=gamma, max_iter=1000)
    lp.fit(X, yp)
    return lp.transduction_[U]


# --------------------------------------------------------------------------
# modes
# --------------------------------------------------------------------------
def emit(rec):
    print(json.dumps(rec), flush=True)


def mode_ssl(a):
    from sklearn.svm import SVC
    X0, y = load_csv(a.csv)
    X = scale(X0, a.scale)
    n, d = X.shape
    name = a.name or data_name(a.csv)
    if a.splits:
        splits = read_splits(a.splits)
        tags = ["split=%d" % i for i in range(len(splits))]
        # "<name>.splits.labeled=10.csv" -> "labeled=10"
        protocol = os.path.basename(a.splits).removesuffix(".gz").split(".splits.")[-1]
        if protocol.endswith(".csv"):
            protocol = protocol[:-4]
    else:
        splits = [per_class_split(y, a.per_class, s) for s in a.seeds]
        tags = ["seed=%d" % s for s in a.seeds]
        protocol = "perclass=%d" % a.per_class
    base = {"mode": "ssl", "dataset": name, "n": n, "d": d, "classes": int(len(np.unique(y))),
            "protocol": protocol, "scale": a.scale, "C": a.C}

    want_graph = not a.no_graph
    t0 = time.perf_counter()
    kernels = build_kernels(X, want_graph=want_graph)
    kbuild = time.perf_counter() - t0
    emit(dict(base, method="_kernels", kernel_build_s=round(kbuild, 4),
              per_kernel_s={k: round(v[1], 4) for k, v in kernels.items()},
              info={k: v[2] for k, v in kernels.items() if v[2]}))

    for tag, L in zip(tags, splits):
        mask = np.zeros(n, bool)
        mask[L] = True
        U = np.flatnonzero(~mask)
        rec = dict(base, split=tag, n_labeled=int(len(L)))

        def out(method, pred, t, **extra):
            emit(dict(rec, method=method, acc=round(float((pred == y[U]).mean()), 6),
                      time_s=round(t, 5), **extra))

        # (a) supervised SVM on the labelled points only
        for kern in ("linear", "rbf"):
            t0 = time.perf_counter()
            clf = SVC(kernel=kern, C=a.C, gamma="scale").fit(X[L], y[L])
            pred = clf.predict(X[U])
            out("svm_%s" % kern, pred, time.perf_counter() - t0)

        # (b)-(d) SVM with the unsupervised kernels
        for kname, (K, tk, _) in kernels.items():
            if kname in ("linear", "rbf"):
                continue
            t0 = time.perf_counter()
            pred = svc_precomputed(K, y, L, U, a.C)
            tf = time.perf_counter() - t0
            out("svm_%s" % kname, pred, tk + tf, fit_s=round(tf, 5))

        if a.svm_only:
            continue

        # (e) kNN k=1..5 with every kernel
        for kname, (K, tk, _) in kernels.items():
            t0 = time.perf_counter()
            preds = kernel_knn(K, y, L, U, range(1, 6))
            tf = time.perf_counter() - t0
            for k, pred in preds.items():
                out("knn%d_%s" % (k, kname), pred, tk + tf, fit_s=round(tf, 5))

        # (f) label propagation
        if not a.no_lp:
            for meth, kind, g in (("lp_rbf", "rbf", 20.0), ("lp_knn", "knn", None)):
                t0 = time.perf_counter()
                pred = label_propagation(X, y, L, U, kind, g)
                out(meth, pred, time.perf_counter() - t0)


# sklearn plot_cluster_comparison parameters (eps, min_samples) on
# standardised data; anything else uses eps from the 7-NN distance profile.
DBSCAN_PARAMS = {"noisy_circles": (0.3, 7), "noisy_moons": (0.3, 7), "blobs": (0.3, 7),
                 "no_structure": (0.3, 7), "aniso": (0.15, 7), "varied": (0.18, 7)}


def mode_cluster(a):
    from sklearn.cluster import DBSCAN, AgglomerativeClustering, SpectralClustering
    from sklearn.metrics import adjusted_rand_score
    from sklearn.neighbors import NearestNeighbors
    X0, y = load_csv(a.csv)
    X = scale(X0, a.scale)
    n, d = X.shape
    name = a.name or data_name(a.csv)
    k = int(len(np.unique(y)))
    kfit = k if k > 1 else 3  # no_structure: the example asks for 3 clusters
    base = {"mode": "cluster", "dataset": name, "n": n, "d": d, "classes": k, "scale": a.scale}

    def out(method, pred, t, **extra):
        emit(dict(base, method=method, ari=round(float(adjusted_rand_score(y, pred)), 6),
                  n_clusters=int(len(np.unique(pred))), time_s=round(t, 5), **extra))

    for link in ("single", "average", "complete", "ward"):
        t0 = time.perf_counter()
        pred = AgglomerativeClustering(n_clusters=kfit, linkage=link).fit_predict(X)
        out("agglo_%s" % link, pred, time.perf_counter() - t0)
    t0 = time.perf_counter()
    pred = SpectralClustering(n_clusters=kfit, affinity="nearest_neighbors", n_neighbors=10,
                              assign_labels="kmeans", random_state=0).fit_predict(X)
    out("spectral_knn10", pred, time.perf_counter() - t0)
    if name in DBSCAN_PARAMS:
        eps, ms = DBSCAN_PARAMS[name]
    else:
        ms = 7
        dist, _ = NearestNeighbors(n_neighbors=ms).fit(X).kneighbors(X)
        eps = float(np.percentile(dist[:, -1], 90))
    t0 = time.perf_counter()
    pred = DBSCAN(eps=eps, min_samples=ms).fit_predict(X)  # noise (-1) = one extra cluster
    out("dbscan", pred, time.perf_counter() - t0, eps=round(eps, 4), min_samples=ms,
        noise=int((pred == -1).sum()))


def mode_timing(a):
    from sklearn.metrics import pairwise_distances
    from sklearn.svm import SVC
    import threadpoolctl
    blas = [i.get("internal_api") for i in threadpoolctl.threadpool_info()]
    for N in a.sizes:
        rs = np.random.RandomState(0)
        X = rs.rand(N, a.dim)
        y = (X[:, 0] + X[:, 1] > 1.0).astype(int)
        flip = rs.rand(N) < 0.1          # 10% label noise: a non-trivial SVM problem
        y[flip] = 1 - y[flip]
        reps = a.reps if N <= 2000 else 1
        base = {"mode": "timing", "N": N, "dim": a.dim, "reps": reps, "threads": os.cpu_count(),
                "blas": blas}

        def timeit(op, fn):
            best, res = math.inf, None
            for _ in range(reps):
                t0 = time.perf_counter()
                res = fn()
                best = min(best, time.perf_counter() - t0)
            emit(dict(base, op=op, time_s=round(best, 5)))
            return res

        D = timeit("pdist_euclid(scipy)", lambda: pdist(X))
        timeit("pairwise_distances(sklearn)", lambda: pairwise_distances(X))
        Z = None
        for m in ("average", "single", "complete"):
            Z = timeit("linkage_%s(scipy)" % m, lambda m=m: linkage(D, method=m))
        M = timeit("cophenet+squareform(scipy)", lambda: squareform(cophenet(Z)))
        K = timeit("double_center(numpy,O(n^2))", lambda: double_center(M))
        if N <= a.eigh_max:
            timeit("eigh(numpy)", lambda: np.linalg.eigh(K))
        if N <= a.geo_max:
            timeit("knn7_graph+dijkstra(sklearn+scipy)", lambda: knn_geodesic(X))
        # LIBSVM training on all N points, labels y = [x1 + x2 > 1] (10% flipped):
        # with the average-linkage cluster kernel K and with a precomputed
        # RBF matrix (gamma = 1/(dim*Var X)), then LIBSVM's own RBF kernel.
        timeit("svc_precomputed_fit(hck_average,C=1,all N)",
               lambda: SVC(kernel="precomputed", C=1.0).fit(K, y))
        Krbf = np.exp(-squareform(D) ** 2 / (a.dim * X.var()))
        timeit("svc_precomputed_fit(rbf matrix,C=1,all N)",
               lambda: SVC(kernel="precomputed", C=1.0).fit(Krbf, y))
        del Krbf
        timeit("svc_rbf_fit(libsvm computes kernel,C=1,all N)",
               lambda: SVC(kernel="rbf", C=1.0, gamma="scale").fit(X, y))


def mode_splits(a):
    _, y = load_csv(a.csv)
    with open(a.out, "w") as fh:
        for s in a.seeds:
            fh.write(",".join(str(int(i)) for i in per_class_split(y, a.per_class, s)) + "\n")


# --------------------------------------------------------------------------
# markdown report
# --------------------------------------------------------------------------
def mode_report(a):
    recs = []
    for f in a.files:
        with open(f) as fh:
            recs += [json.loads(l) for l in fh if l.strip().startswith("{")]
    sys.dont_write_bytecode = True  # keep this folder free of __pycache__
    import report  # sibling module with the table layout
    sys.stdout.write(report.render(recs))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)

    s = sub.add_parser("ssl")
    s.add_argument("--csv", required=True)
    s.add_argument("--name")
    s.add_argument("--per-class", type=int, default=10)
    s.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    s.add_argument("--splits", help="file of labelled-index lines (overrides --per-class/--seeds)")
    s.add_argument("--scale", default="std", choices=["std", "none", "minmax"])
    s.add_argument("--C", type=float, default=1.0)
    s.add_argument("--no-graph", action="store_true", help="skip kNN-graph kernels")
    s.add_argument("--no-lp", action="store_true", help="skip label propagation")
    s.add_argument("--svm-only", action="store_true", help="only the SVM methods (C matters)")

    c = sub.add_parser("cluster")
    c.add_argument("--csv", required=True)
    c.add_argument("--name")
    c.add_argument("--scale", default="std", choices=["std", "none", "minmax"])

    t = sub.add_parser("timing")
    t.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    t.add_argument("--dim", type=int, default=10)
    t.add_argument("--reps", type=int, default=3)
    t.add_argument("--eigh-max", type=int, default=8000)
    t.add_argument("--geo-max", type=int, default=8000)

    sp = sub.add_parser("splits")
    sp.add_argument("--csv", required=True)
    sp.add_argument("--per-class", type=int, default=10)
    sp.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    sp.add_argument("--out", required=True)

    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")

    a = p.parse_args()
    {"ssl": mode_ssl, "cluster": mode_cluster, "timing": mode_timing,
     "splits": mode_splits, "report": mode_report}[a.mode](a)


if __name__ == "__main__":
    main()
