#!/usr/bin/python3
"""Writes proba_libsvm.json: LIBSVM's own Platt probabilities (svm-train -b 1,
svm-predict -b 1, Debian's libsvm-tools; the version is recorded) for the
Go test of Classifier{Probability: true, Shuffle: ShuffleLIBSVM}.

Run from this directory: /usr/bin/python3 gen_proba.py
Needs svm-train, svm-predict and libsvm.so.3 (apt-get install libsvm-tools).

Cases (data from ../../dataset/data, features standardised with the
training rows' mean and population standard deviation):
  wine3     wine, rows i % 3 != 0 train, the others test; classes appear in
            sorted order; RBF gamma 0.1, C 1.
  iris3perm iris permuted (a fixed permutation) so that the classes first
            appear as 2, 0, 1 (LIBSVM's pair order differs from the
            sorted one); rows 0..99 train, 100..149 test; RBF gamma 0.5, C 2.
  moons2    two_moons rotated to start at its first class-1 row, rows 0..199 train, 200..399
            test; RBF gamma 1, C 1, weight of class 0 = 2 (-w0 2).
  iris3perm_pre  iris3perm's rows 0..74 train, 100..139 test, with the RBF
            kernel computed here and given to LIBSVM precomputed (-t 4), so
            that both programs read the same kernel values.
Each case records the training and test points, the model's label order,
probA, probB and rho (printed by svm-train with 17 digits), svm-predict's
labels and probabilities (printed with %g), and the same probabilities to
full precision from svm_predict_probability in libsvm.so.3 (ctypes).
"""
import ctypes
import gzip
import json
import math
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "dataset", "data")


def read(name):
    with gzip.open(os.path.join(DATA, name), "rt") as f:
        lines = f.read().split()
    rows = [l.split(",") for l in lines[1:]]
    return [[float(v) for v in r[:-1]] for r in rows], [int(r[-1]) for r in rows]


def standardise(X, Xt):
    d = len(X[0])
    mean = [sum(r[j] for r in X) / len(X) for j in range(d)]
    sd = [(sum((r[j] - mean[j]) ** 2 for r in X) / len(X)) ** 0.5 for j in range(d)]
    f = lambda R: [[(r[j] - mean[j]) / (sd[j] if sd[j] > 0 else 1) for j in range(d)] for r in R]
    return f(X), f(Xt)


def write_svm(path, X, y):
    with open(path, "w") as f:
        for r, c in zip(X, y):
            f.write(str(c) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(r)) + "\n")


def write_pre(path, K, y):
    with open(path, "w") as f:
        for i, (r, c) in enumerate(zip(K, y)):
            f.write("%d 0:%d" % (c, i + 1) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(r)) + "\n")


class Node(ctypes.Structure):
    _fields_ = [("index", ctypes.c_int), ("value", ctypes.c_double)]


lib = ctypes.CDLL("libsvm.so.3")
lib.svm_load_model.restype = ctypes.c_void_p
lib.svm_load_model.argtypes = [ctypes.c_char_p]
lib.svm_get_nr_class.argtypes = [ctypes.c_void_p]
lib.svm_predict_probability.restype = ctypes.c_double
lib.svm_predict_probability.argtypes = [ctypes.c_void_p, ctypes.POINTER(Node), ctypes.POINTER(ctypes.c_double)]
lib.svm_get_labels.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]


def rbf(A, B, gamma):
    return [[math.exp(-gamma * sum((u - v) ** 2 for u, v in zip(a, b))) for b in B] for a in A]


def case(name, X, y, Xt, yt, gamma, C, weights, precomputed=False):
    X, Xt = standardise(X, Xt)
    K = Kt = None
    if precomputed:
        K, Kt = rbf(X, X, gamma), rbf(Xt, X, gamma)
    with tempfile.TemporaryDirectory() as tmp:
        tr, te, mo, out = (os.path.join(tmp, n) for n in ("train", "test", "model", "out"))
        if precomputed:
            write_pre(tr, K, y)
            write_pre(te, Kt, yt)
            args = ["svm-train", "-q", "-b", "1", "-t", "4", "-c", repr(C)]
        else:
            write_svm(tr, X, y)
            write_svm(te, Xt, yt)
            args = ["svm-train", "-q", "-b", "1", "-t", "2", "-g", repr(gamma), "-c", repr(C)]
        for lab, w in weights.items():
            args += ["-w%d" % lab, repr(w)]
        subprocess.run(args + [tr, mo], check=True)
        subprocess.run(["svm-predict", "-b", "1", te, mo, out], check=True, capture_output=True)
        model = {}
        with open(mo) as f:
            for line in f:
                if line.startswith("SV"):
                    break
                k, *v = line.split()
                model[k] = v
        with open(out) as f:
            head = f.readline().split()
            pred, prob = [], []
            for line in f:
                v = line.split()
                pred.append(int(v[0]))
                prob.append([float(x) for x in v[1:]])
        m = lib.svm_load_model(mo.encode())
        k = lib.svm_get_nr_class(m)
        full = []
        for i, r in enumerate(Kt if precomputed else Xt):
            first = [Node(0, i + 1)] if precomputed else []
            nodes = (Node * (len(r) + 1 + len(first)))(*first, *[Node(j + 1, v) for j, v in enumerate(r)], Node(-1, 0))
            p = (ctypes.c_double * k)()
            lib.svm_predict_probability(m, nodes, p)
            full.append(list(p))
    return {
        "name": name, "gamma": gamma, "C": C, "weights": {str(k): v for k, v in weights.items()},
        "X": X, "y": y, "Xt": Xt, "K": K, "Kt": Kt,
        "label": [int(v) for v in model["label"]],
        "probA": [float(v) for v in model["probA"]], "probB": [float(v) for v in model["probB"]],
        "rho": [float(v) for v in model["rho"]],
        "predict_labels": [int(v) for v in head[1:]], "predict": pred, "predict_proba": prob,
        "proba": full,
    }


def main():
    out = []
    X, y = read("wine.csv.gz")
    tr = [i for i in range(len(y)) if i % 3]
    te = [i for i in range(len(y)) if i % 3 == 0]
    out.append(case("wine3", [X[i] for i in tr], [y[i] for i in tr], [X[i] for i in te], [y[i] for i in te], 0.1, 1.0, {}))
    X, y = read("iris.csv.gz")
    perm = [(i * 61 + 107) % 150 for i in range(150)]  # 61 is prime to 150
    # classes first appear as 2, 0, 1
    X, y = [X[i] for i in perm], [y[i] for i in perm]
    assert [c for i, c in enumerate(y) if c not in y[:i]] == [2, 0, 1], y[:5]
    out.append(case("iris3perm", X[:100], y[:100], X[100:], y[100:], 0.5, 2.0, {}))
    out.append(case("iris3perm_pre", X[:75], y[:75], X[100:140], y[100:140], 0.5, 2.0, {}, precomputed=True))
    X, y = read("two_moons.csv.gz")
    first1 = y.index(1)
    X, y = X[first1:] + X[:first1], y[first1:] + y[:first1]  # rotate: class 1 first
    out.append(case("moons2", X[:200], y[:200], X[200:], y[200:], 1.0, 1.0, {0: 2.0}))
    ver = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libsvm-tools"], capture_output=True, text=True).stdout
    with open(os.path.join(HERE, "proba_libsvm.json"), "w") as f:
        json.dump({"generator": "svm/testdata/gen_proba.py, LIBSVM (libsvm-tools " + ver + ")", "cases": out}, f)
        f.write("\n")


main()
