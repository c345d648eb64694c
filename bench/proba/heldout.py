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
  svm      svm-train -b 1 -t 2 -g G, trained again in memory (libsvm.so.3,
           svm_train with the gamma svm-train ran with, G in single
           precision) / svm_predict_probability (full precision)
                                                               vs classify --learner svm --kernel rbf:G' --proba --test
           (G' that gamma; also with rbf:G, and against the model file)
Training rows: i % 4 != 0; held-out (--test) rows: i % 4 == 0. kNN and the
SVM train on every training row; propagation labels every 5th training row.
Run from the repository: /usr/bin/python3 bench/proba/heldout.py [ARBOR]
(ARBOR: an arbor binary; default: go build into a temporary directory).
Prints max |Δp| per data set and learner; for the SVM also with
--platt-folds pcg (other folds), to show what reproducing LIBSVM's folds
is worth.
"""
import csv
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.neighbors import KNeighborsClassifier
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

tmp = tempfile.mkdtemp()
arbor = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tmp, "arbor")
if len(sys.argv) < 2:
    subprocess.run(["go", "build", "-o", arbor, "./cmd/arbor"], check=True)


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


class Node(ctypes.Structure):
    _fields_ = [("index", ctypes.c_int), ("value", ctypes.c_double)]


class Problem(ctypes.Structure):
    _fields_ = [("l", ctypes.c_int), ("y", ctypes.POINTER(ctypes.c_double)), ("x", ctypes.POINTER(ctypes.POINTER(Node)))]


class Parameter(ctypes.Structure):
    _fields_ = [("svm_type", ctypes.c_int), ("kernel_type", ctypes.c_int), ("degree", ctypes.c_int),
                ("gamma", ctypes.c_double), ("coef0", ctypes.c_double), ("cache_size", ctypes.c_double),
                ("eps", ctypes.c_double), ("C", ctypes.c_double), ("nr_weight", ctypes.c_int),
                ("weight_label", ctypes.POINTER(ctypes.c_int)), ("weight", ctypes.POINTER(ctypes.c_double)),
                ("nu", ctypes.c_double), ("p", ctypes.c_double), ("shrinking", ctypes.c_int), ("probability", ctypes.c_int)]


lib = ctypes.CDLL("libsvm.so.3")
libc = ctypes.CDLL("libc.so.6")
PRINT = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
quiet = PRINT(lambda s: None)
lib.svm_set_print_string_function.argtypes = [PRINT]
lib.svm_set_print_string_function(quiet)
lib.svm_train.restype = ctypes.c_void_p
lib.svm_train.argtypes = [ctypes.POINTER(Problem), ctypes.POINTER(Parameter)]
lib.svm_save_model.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
lib.svm_load_model.restype = ctypes.c_void_p
lib.svm_load_model.argtypes = [ctypes.c_char_p]
lib.svm_predict_probability.restype = ctypes.c_double
lib.svm_predict_probability.argtypes = [ctypes.c_void_p, ctypes.POINTER(Node), ctypes.POINTER(ctypes.c_double)]
lib.svm_get_labels.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
lib.svm_get_nr_class.argtypes = [ctypes.c_void_p]


def nodes(r):
    return (Node * (len(r) + 1))(*[Node(j + 1, float(v)) for j, v in enumerate(r)], Node(-1, 0))


def header(path):
    h = {}
    with open(path) as f:
        for line in f:
            if line.startswith("SV"):
                break
            k, *v = line.split()
            h[k] = v
    return h


def predict(m, Xte):
    k = lib.svm_get_nr_class(m)
    labels = (ctypes.c_int * k)()
    lib.svm_get_labels(m, labels)
    order = np.argsort(list(labels))
    P = []
    for r in Xte:
        p = (ctypes.c_double * k)()
        lib.svm_predict_probability(m, nodes(r), p)
        P.append(np.array(list(p))[order])
    return np.array(P)


def libsvm_proba(Xtr, ytr, Xte, gamma):
    """svm-train -b 1 -t 2 -g gamma, and the same training by svm_train in
    this process (srand(1): svm-train's default rand() state) with the gamma
    svm-train ran with (it keeps -g in single precision; the model file
    says which), checked equal to svm-train's model header to the last
    digit. Returns that gamma, the probabilities of the in-memory model
    (full precision) and those of the model read back from svm-train's file
    (support vectors to 8 digits: what svm-predict -b 1 computes)."""
    tr, mo, mem = os.path.join(tmp, "train.svm"), os.path.join(tmp, "model"), os.path.join(tmp, "model.mem")
    with open(tr, "w") as f:
        for r, c in zip(Xtr, ytr):
            f.write(str(c) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(r)) + "\n")
    subprocess.run(["svm-train", "-q", "-b", "1", "-t", "2", "-g", repr(gamma), tr, mo], check=True)
    h = header(mo)
    ran = float(h["gamma"][0])
    xs = [nodes(r) for r in Xtr]
    prob = Problem(len(xs), (ctypes.c_double * len(xs))(*[float(c) for c in ytr]),
                   (ctypes.POINTER(Node) * len(xs))(*[ctypes.cast(x, ctypes.POINTER(Node)) for x in xs]))
    wl, wv = (ctypes.c_int * 1)(), (ctypes.c_double * 1)()
    param = Parameter(svm_type=0, kernel_type=2, degree=3, gamma=ran, coef0=0, cache_size=100, eps=1e-3, C=1,
                      nr_weight=0, weight_label=wl, weight=wv, nu=0.5, p=0.1, shrinking=1, probability=1)
    libc.srand(1)
    m = lib.svm_train(ctypes.byref(prob), ctypes.byref(param))
    lib.svm_save_model(mem.encode(), m)
    hm = header(mem)
    for key in ("label", "rho", "probA", "probB", "nr_sv"):
        assert hm[key] == h[key], (key, hm[key], h[key])
    return ran, predict(m, Xte), predict(lib.svm_load_model(mo.encode()), Xte)


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
