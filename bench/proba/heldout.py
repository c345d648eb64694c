#!/usr/bin/python3
"""Held-out check of arbor classify --proba against its peers on data sets
Arbor's tests do not contain: scikit-learn's bundled breast_cancer (569 x 30,
2 classes) and digits (1797 x 64, 10 classes), standardised (mean,
population standard deviation of all rows) and written to CSV.

  kNN      KNeighborsClassifier(n_neighbors=5).predict_proba   vs classify --learner knn --k 5 --test
  lp       LabelPropagation(kernel="rbf", gamma=G).label_distributions_ / predict_proba
                                                               vs classify --learner lp --affinity rbf:G --test
  spreading LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.2) likewise
           (--learner spreading --affinity knn:7)
  svm      svm-train -b 1 -t 2 -g G, trained again in memory
           (bench/peers/libsvm_mem.py: svm_train in libsvm.so.3 with the
           gamma svm-train ran with, G in single precision) /
           svm_predict_probability (full precision)
                                                               vs classify --learner svm --kernel rbf:G' --proba --test
           (G' that gamma; also with rbf:G, and against the model file)
Training rows: i % 4 != 0; held-out (--test) rows: i % 4 == 0. kNN and the
SVM train on every training row; propagation labels every 5th training row.
Run: /usr/bin/python3 bench/proba/heldout.py [ARBOR] (from any directory)
(ARBOR: an arbor binary; default: go build into a temporary directory).
Prints max |Δp| per data set and learner; for the SVM also with
--platt-folds pcg (other folds), to show what reproducing LIBSVM's folds
is worth.
"""
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.neighbors import KNeighborsClassifier
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import libsvm_mem  # noqa: E402

tmp = tempfile.mkdtemp()
arbor = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tmp, "arbor")
if len(sys.argv) < 2:
    subprocess.run(["go", "build", "-o", arbor, "./cmd/arbor"], check=True, cwd=ROOT)


def write(path, X, y=None):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["f%d" % (j + 1) for j in range(X.shape[1])] + (["label"] if y is not None else []))
        for i, r in enumerate(X):
            w.writerow([repr(float(v)) for v in r] + ([y[i]] if y is not None else []))


def classify(train, test, *args):
    out = os.path.join(tmp, "out.csv")
    subprocess.run([arbor, "classify", "--data", train, "--test", test, "--scale", "none", "--proba", "--quiet", "--out", out, *args],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        rows = list(csv.reader(f))
    cols = [j for j, h in enumerate(rows[0]) if h.startswith("p_")]
    order = np.argsort([int(rows[0][j][2:]) for j in cols])  # p_CLASS columns by class value
    data = np.array([[float(r[j]) if r[j] else np.nan for j in cols] for r in rows[1:] if r[0] == "data"])[:, order]
    tst = np.array([[float(r[j]) if r[j] else np.nan for j in cols] for r in rows[1:] if r[0] == "test"])[:, order]
    return data, tst


def predict(m, Xte):
    """The model's probabilities on Xte, columns in sorted class order."""
    order = np.argsort(m.labels())
    return np.array([np.array(m.predict_probability(r))[order] for r in Xte])


def libsvm_proba(Xtr, ytr, Xte, gamma):
    """svm-train -b 1 -t 2 -g gamma, and the same training by svm_train in
    this process (libsvm_mem.train) with the gamma svm-train ran with (it
    keeps -g in single precision; the model file says which), checked equal
    to svm-train's model header to the last digit. Returns that gamma, the
    probabilities of the in-memory model (full precision) and those of the
    model read back from svm-train's file (support vectors to 8 digits: what
    svm-predict -b 1 computes)."""
    tr, mo = os.path.join(tmp, "train.svm"), os.path.join(tmp, "model")
    with open(tr, "w") as f:
        for r, c in zip(Xtr, ytr):
            f.write(str(c) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(r)) + "\n")
    subprocess.run(["svm-train", "-q", "-b", "1", "-t", "2", "-g", repr(gamma), tr, mo], check=True)
    h = libsvm_mem.header(mo)
    ran = float(h["gamma"][0])
    m = libsvm_mem.train(Xtr, ytr, libsvm_mem.RBF, 1.0, ran)
    hm = m.header()
    for key in ("label", "rho", "probA", "probB", "nr_sv"):
        assert hm[key] == h[key], (key, hm[key], h[key])
    return ran, predict(m, Xte), predict(libsvm_mem.load(mo), Xte)


def maxdiff(a, b):
    both = np.isfinite(a) & np.isfinite(b)
    if not np.array_equal(np.isfinite(a), np.isfinite(b)):
        return float("inf")
    return float(np.abs(a[both] - b[both]).max())


for name, load, gamma, lp_gamma in (("breast_cancer", load_breast_cancer, 0.03, 0.05), ("digits", load_digits, 0.015, 0.02)):
    X, y = load(return_X_y=True)
    sd = X.std(axis=0)
    sd[sd == 0] = 1
    X = (X - X.mean(axis=0)) / sd
    tr = np.array([i for i in range(len(y)) if i % 4])
    te = np.array([i for i in range(len(y)) if i % 4 == 0])
    train, test = os.path.join(tmp, name + ".csv"), os.path.join(tmp, name + "_test.csv")
    write(train, X[tr], [str(v) for v in y[tr]])
    write(test, X[te])
    _, P = classify(train, test, "--learner", "knn", "--k", "5")
    ref = KNeighborsClassifier(n_neighbors=5, algorithm="brute").fit(X[tr], y[tr]).predict_proba(X[te])
    print("%-14s knn        max |dp| test %.3g" % (name, maxdiff(P, ref)))
    ran, ref, fileref = libsvm_proba(X[tr], y[tr], X[te], gamma)
    _, P = classify(train, test, "--learner", "svm", "--kernel", "rbf:%r" % ran)
    _, Q = classify(train, test, "--learner", "svm", "--kernel", "rbf:%r" % ran, "--platt-folds", "pcg")
    _, R = classify(train, test, "--learner", "svm", "--kernel", "rbf:%r" % gamma)
    print("%-14s svm        max |dp| test %.3g vs svm-train -b 1 (gamma %r as it ran; --platt-folds pcg: %.3g; "
          "rbf:%r: %.3g; vs its model file: %.3g)" % (name, maxdiff(P, ref), ran, maxdiff(Q, ref), gamma, maxdiff(R, ref), maxdiff(P, fileref)))
    ys = np.full(len(tr), -1)
    ys[::5] = y[tr][::5]
    semi = os.path.join(tmp, name + "_semi.csv")
    write(semi, X[tr], [str(v) if v >= 0 else "?" for v in ys])
    for lname, model, args in (
        ("lp", LabelPropagation(kernel="rbf", gamma=lp_gamma, max_iter=1000), ["--learner", "lp", "--affinity", "rbf:%r" % lp_gamma, "--method", "iterative"]),
        ("spreading", LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.2), ["--learner", "spreading", "--affinity", "knn:7"]),
    ):
        model.fit(X[tr], ys)
        D, P = classify(semi, test, *args)
        with np.errstate(invalid="ignore"):
            ref = model.predict_proba(X[te])
        print("%-14s %-10s max |dp| training rows %.3g, test %.3g" % (name, lname, maxdiff(D, model.label_distributions_), maxdiff(P, ref)))
