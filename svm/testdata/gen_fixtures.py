#!/usr/bin/python3
"""Fixtures for package svm: LIBSVM (scikit-learn's SVC / OneClassSVM, which
wrap LIBSVM) solutions on small problems.

Run from the repository root:  /usr/bin/python3 svm/testdata/gen_fixtures.py
Writes svm/testdata/fixtures.json (scikit-learn version recorded inside).

Every C-SVC case stores, per binary machine in LIBSVM's one-vs-one order
(0,1), (0,2), ..., (1,2), ...: the support-vector rows with their
coefficients y_i*alpha_i, rho, and the dual objective
0.5*c^T K c - sum|c| recomputed from those coefficients (obj: with K
rounded to float32 as LIBSVM's kernel cache, which is the value svm-train
prints; obj64: in float64), plus
the decision values f(x) = sum c_i K(x_i, x) - rho on test points (LIBSVM's
sign convention: f > 0 votes for the first class of the pair) and the
predicted labels. Kernels: "linear" (x.y), "rbf" (exp(-gamma |x-y|^2)), and
"precomputed" (the rbf Gram matrix passed to SVC(kernel="precomputed"); the
Go test rebuilds it with kernel.Gram).
"""
import json
import os

import numpy as np
import sklearn
from scipy.optimize import minimize
from sklearn.svm import SVC, OneClassSVM

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def rbf(A, B, gamma):
    d = ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)
    return np.exp(-gamma * d)


def kern(name, A, B, gamma):
    if name == "linear":
        return A @ B.T
    return rbf(A, B, gamma)


def machines(clf, K_train, n_class):
    """Per-pair (support rows, coefficients, rho, objective) from LIBSVM's
    model layout (sklearn's private _dual_coef_, _intercept_ are LIBSVM's
    sv_coef and -rho, unflipped)."""
    sup = clf.support_
    nsv = clf._n_support if hasattr(clf, "_n_support") else clf.n_support_
    start = np.concatenate([[0], np.cumsum(nsv)])
    dc = clf._dual_coef_
    rho = -clf._intercept_
    out = []
    p = 0
    for i in range(n_class):
        for j in range(i + 1, n_class):
            rows, coef = [], []
            for k in range(start[i], start[i + 1]):
                rows.append(int(sup[k]))
                coef.append(float(dc[j - 1, k]))
            for k in range(start[j], start[j + 1]):
                rows.append(int(sup[k]))
                coef.append(float(dc[i, k]))
            rows, coef = np.array(rows), np.array(coef)
            keep = coef != 0
            rows, coef = rows[keep], coef[keep]
            Ks = K_train[np.ix_(rows, rows)]
            obj64 = 0.5 * coef @ Ks @ coef - np.abs(coef).sum()
            # LIBSVM's own objective (printed by svm-train as "obj = ") uses
            # its float32 kernel cache: the same formula with K rounded.
            K32 = Ks.astype(np.float32).astype(np.float64)
            obj = 0.5 * coef @ K32 @ coef - np.abs(coef).sum()
            out.append({"pos": i, "neg": j, "sv": rows.tolist(), "coef": coef.tolist(),
                        "rho": float(rho[p]), "obj": float(obj), "obj64": float(obj64)})
            p += 1
    return out


def svc_case(name, X, y, Xt, kernel, C, gamma=None, weights=None):
    n_class = len(np.unique(y))
    K = kern(kernel if kernel != "precomputed" else "rbf", X, X, gamma)
    Kt = kern(kernel if kernel != "precomputed" else "rbf", Xt, X, gamma)
    cw = None if weights is None else {int(k): float(v) for k, v in weights.items()}
    if kernel == "precomputed":
        clf = SVC(kernel="precomputed", C=C, class_weight=cw, tol=1e-3, cache_size=200).fit(K, y)
        pred = clf.predict(Kt)
    else:
        clf = SVC(kernel=kernel, C=C, gamma=gamma if gamma else "scale", class_weight=cw,
                  tol=1e-3, cache_size=200).fit(X, y)
        pred = clf.predict(Xt)
    ms = machines(clf, K, n_class)
    dec = np.zeros((len(Xt), len(ms)))
    for p, m in enumerate(ms):
        dec[:, p] = Kt[:, m["sv"]] @ np.array(m["coef"]) - m["rho"]
    return {"name": name, "kernel": kernel, "gamma": gamma or 0.0, "C": C,
            "weights": {str(k): v for k, v in (weights or {}).items()},
            "X": X.tolist(), "y": y.tolist(), "Xt": Xt.tolist(),
            "support": clf.support_.tolist(), "n_support": clf.n_support_.tolist(),
            "machines": ms, "decision": dec.tolist(), "predict": pred.tolist()}


def svm_train_check(case):
    """Cross-check scikit-learn against Debian's svm-train (LIBSVM 3.24) on
    one case: same rho and dual coefficients. svm-train orders classes by
    first appearance, so the first class-0 row is moved to the front (this
    keeps every class's internal row order)."""
    import subprocess
    import tempfile
    X, y = np.array(case["X"]), np.array(case["y"])
    f0 = int(np.flatnonzero(y == 0)[0])
    order = [f0] + [i for i in range(len(y)) if i != f0]
    with tempfile.TemporaryDirectory() as tmp:
        tr, mo = os.path.join(tmp, "train"), os.path.join(tmp, "model")
        with open(tr, "w") as fh:
            for i in order:
                fh.write("%d %s\n" % (y[i], " ".join("%d:%.17g" % (j + 1, v) for j, v in enumerate(X[i]))))
        subprocess.run(["svm-train", "-q", "-s", "0", "-t", "2", "-g", repr(case["gamma"]), "-c", repr(case["C"]),
                        "-e", "0.001", tr, mo], check=True)
        lines = open(mo).read().split("\n")
    rho = float([l for l in lines if l.startswith("rho")][0].split()[1])
    coef = [float(l.split()[0]) for l in lines[lines.index("SV") + 1:] if l.strip()]
    m = case["machines"][0]
    assert abs(rho - m["rho"]) < 1e-6, (rho, m["rho"])
    assert np.allclose(coef, m["coef"], atol=1e-6), "svm-train and sklearn disagree"
    return True


def oneclass_case(name, X, Xt, gamma, C):
    n = len(X)
    nu = 1.0 / (n * C)
    oc = OneClassSVM(kernel="rbf", gamma=gamma, nu=nu, tol=1e-3).fit(X)
    alpha = np.zeros(n)
    alpha[oc.support_] = oc.dual_coef_[0]
    return {"name": name, "gamma": gamma, "C": C, "nu": nu, "X": X.tolist(), "Xt": Xt.tolist(),
            "alpha": alpha.tolist(), "rho": float(-oc._intercept_[0]),
            "decision": oc.decision_function(Xt).tolist()}


def main():
    rs = np.random.RandomState(7)
    # random 2-class set: y = [x1 + x2 > 1] with 10% flipped (as peers.py timing)
    X2 = rs.rand(80, 3)
    y2 = (X2[:, 0] + X2[:, 1] > 1).astype(int)
    flip = rs.rand(80) < 0.1
    y2[flip] = 1 - y2[flip]
    X2t = rs.rand(25, 3)

    data = np.loadtxt(os.path.join(ROOT, "dataset", "data", "iris.csv.gz"), delimiter=",", skiprows=1)
    Xi, yi = data[:, :-1], data[:, -1].astype(int)
    # a shuffled order, so classes are not contiguous
    order = rs.permutation(len(yi))
    Xi, yi = Xi[order], yi[order]
    Xit = Xi[::7] + 0.05 * rs.randn(len(Xi[::7]), Xi.shape[1])
    gi = 1.0 / (Xi.shape[1] * Xi.var())

    cases = [
        svc_case("binary-linear-C1", X2, y2, X2t, "linear", 1.0),
        svc_case("binary-linear-C100", X2, y2, X2t, "linear", 100.0),
        svc_case("binary-rbf-C1", X2, y2, X2t, "rbf", 1.0, gamma=2.0),
        svc_case("binary-rbf-C10-weighted", X2, y2, X2t, "rbf", 10.0, gamma=2.0, weights={1: 3.0}),
        svc_case("binary-precomputed-C1", X2, y2, X2t, "precomputed", 1.0, gamma=2.0),
        svc_case("iris-linear-C1", Xi, yi, Xit, "linear", 1.0),
        svc_case("iris-rbf-C1", Xi, yi, Xit, "rbf", 1.0, gamma=gi),
        svc_case("iris-rbf-C100", Xi, yi, Xit, "rbf", 100.0, gamma=gi),
        svc_case("iris-precomputed-C10", Xi, yi, Xit, "precomputed", 10.0, gamma=gi),
    ]

    # one-vs-rest: scikit-learn's OneVsRestClassifier(SVC) (each binary SVC
    # sees labels {rest: 0, class: 1}); decision_function columns are f_c.
    from sklearn.multiclass import OneVsRestClassifier
    ovr = OneVsRestClassifier(SVC(kernel="rbf", gamma=gi, C=1.0, tol=1e-3)).fit(Xi, yi)
    ovr_case = {"name": "iris-ovr-rbf-C1", "gamma": gi, "C": 1.0, "X": Xi.tolist(), "y": yi.tolist(),
                "Xt": Xit.tolist(), "decision": ovr.decision_function(Xit).tolist(),
                "predict": ovr.predict(Xit).tolist(),
                "support": [est.support_.tolist() for est in ovr.estimators_]}

    # probabilities (Platt with internal 5-fold CV; folds are random, so
    # the Go test compares loosely)
    pr = SVC(kernel="rbf", gamma=gi, C=1.0, probability=True, random_state=0).fit(Xi, yi)
    prob_case = {"name": "iris-prob-rbf-C1", "gamma": gi, "C": 1.0, "X": Xi.tolist(), "y": yi.tolist(),
                 "Xt": Xit.tolist(), "proba": pr.predict_proba(Xit).tolist(),
                 "probA": pr.probA_.tolist(), "probB": pr.probB_.tolist()}

    svm_train_ok = svm_train_check(cases[2])  # binary-rbf-C1

    Xo = np.vstack([rs.randn(60, 2) * 0.5, rs.randn(40, 2) * 0.5 + [2.0, 1.0]])
    Xot = rs.randn(30, 2) * 1.2 + [1.0, 0.5]
    ocs = [oneclass_case("oc-C0.05", Xo, Xot, 1.0, 0.05),
           oneclass_case("oc-C0.013", Xo, Xot, 2.0, 0.013),
           oneclass_case("oc-C1", Xo, Xot, 0.5, 1.0)]

    # Platt sigmoid: minimiser of LIBSVM's regularised-target logistic loss.
    dec = np.concatenate([rs.randn(40) + 1.0, rs.randn(30) - 1.0])
    lab = np.concatenate([np.ones(40), -np.ones(30)])
    p1, p0 = 40.0, 30.0
    t = np.where(lab > 0, (p1 + 1) / (p1 + 2), 1 / (p0 + 2))

    def loss(ab):
        f = dec * ab[0] + ab[1]
        return np.sum(np.where(f >= 0, t * f + np.log1p(np.exp(-f)), (t - 1) * f + np.log1p(np.exp(f))))

    res = minimize(loss, [0.0, np.log((p0 + 1) / (p1 + 1))], method="BFGS", options={"gtol": 1e-12})
    platt = {"dec": dec.tolist(), "labels": lab.tolist(), "A": float(res.x[0]), "B": float(res.x[1])}

    # Pairwise coupling (Wu, Lin & Weng method 2): min p^T Q p, sum p = 1,
    # solved exactly through its KKT linear system.
    k = 4
    r = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            r[i, j] = rs.uniform(0.05, 0.95)
            r[j, i] = 1 - r[i, j]
    Q = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            if i == j:
                Q[i, i] = sum(r[s, i] ** 2 for s in range(k) if s != i)
            else:
                Q[i, j] = -r[j, i] * r[i, j]
    A = np.zeros((k + 1, k + 1))
    A[:k, :k] = Q
    A[:k, k] = 1
    A[k, :k] = 1
    rhs = np.zeros(k + 1)
    rhs[k] = 1
    pc = np.linalg.solve(A, rhs)[:k]
    coupling = {"r": r.tolist(), "p": pc.tolist()}

    out = {"generator": "svm/testdata/gen_fixtures.py", "sklearn": sklearn.__version__,
           "numpy": np.__version__, "svm_train_agrees": svm_train_ok, "svc": cases, "ovr": ovr_case, "prob": prob_case, "oneclass": ocs, "platt": platt, "coupling": coupling}
    with open(os.path.join(HERE, "fixtures.json"), "w") as fh:
        json.dump(out, fh, separators=(",", ":"))


if __name__ == "__main__":
    main()
